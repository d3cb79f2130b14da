/**
 * Child process running the upstream simulator, so that its CPU is not the exporter's and
 * the exporter reaches it over real loopback HTTP. Driven over IPC (see ipc.ts): `start`,
 * `snapshot`, `faultSet`, `faultClear`, `drainMetricLog`, `close`.
 */
import {
  type FaultKind,
  type FaultSpec,
  type RateLimitMode,
  type RequestDone,
  type Simulator,
  startSimulator,
} from "../src/simulator/index.js";
import { type LoggedRequest, targetOfRequest } from "./cycles.js";
import { serveRpc } from "./ipc.js";

/** Options of the simulated world and its rate limit. */
export interface SimStartArgs {
  readonly clusters: number;
  readonly seed: number;
  readonly collectionsPerCluster: number;
  /** Per API key per endpoint; the documented limit is 20. */
  readonly rateLimitPerSecond: number;
  /** How the simulator counts its second (default: its own default, sliding). */
  readonly rateLimitMode?: RateLimitMode;
  /** Keep a log of Query Cluster Metrics requests (time, target, status) for cycle counting. */
  readonly recordMetricRequests: boolean;
  /** Count distinct requests per endpoint (what a first pass needs, without re-polls and retries). */
  readonly countDistinctRequests?: boolean;
}

/** What a config needs to know of the world. */
export interface SimInfo {
  readonly baseUrl: string;
  readonly controllerUrlTemplate: string;
  readonly clusters: ReadonlyArray<{
    readonly id: string;
    readonly regionId: string;
    readonly projectId: string;
    readonly collections: ReadonlyArray<{ readonly dbName: string; readonly collectionName: string }>;
    /** The `username:password` its data plane takes instead of the API key, if any. */
    readonly dataPlaneCredential?: string;
  }>;
  readonly sparkJobs: ReadonlyArray<{ readonly projectId: string; readonly jobId: string }>;
}

/** The simulator's counters plus the CPU time of its process since start. */
export interface SimSnapshot {
  readonly requests: number;
  readonly byEndpoint: Readonly<Record<string, number>>;
  /** Distinct requests per endpoint, when counted (SimStartArgs.countDistinctRequests). */
  readonly distinctByEndpoint: Readonly<Record<string, number>>;
  readonly rateLimited: number;
  readonly faultsInjected: Readonly<Record<string, number>>;
  readonly mutatingCalls: number;
  readonly cpuMs: number;
}

/** One logged Query Cluster Metrics request (at response end). */
export type MetricRequest = LoggedRequest;

const METRICS_TEMPLATE = "POST /v2/clusters/{id}/metrics/query";

let sim: Simulator | undefined;
let log: MetricRequest[] = [];

serveRpc({
  start: async (raw) => {
    const args = raw as SimStartArgs;
    sim = await startSimulator({
      clusters: args.clusters,
      seed: args.seed,
      collectionsPerCluster: args.collectionsPerCluster,
      rateLimitPerSecond: args.rateLimitPerSecond,
      countDistinctRequests: args.countDistinctRequests === true,
      ...(args.rateLimitMode === undefined ? {} : { rateLimitMode: args.rateLimitMode }),
      ...(args.recordMetricRequests
        ? {
            onRequestDone: (d: RequestDone) => {
              if (d.template !== METRICS_TEMPLATE || d.clusterId === undefined) return;
              log.push({ atMs: Date.now(), target: targetOfRequest(d.clusterId, d.body), status: d.status });
            },
          }
        : {}),
    });
    const info: SimInfo = {
      baseUrl: sim.baseUrl,
      controllerUrlTemplate: sim.controllerUrlTemplate,
      clusters: sim.clusters.map((c) => ({
        id: c.id,
        regionId: c.regionId,
        projectId: c.projectId,
        collections: c.collections.map((col) => ({ dbName: col.dbName, collectionName: col.collectionName })),
        ...optionalCredential(sim?.state.dataPlaneCredential(c.id)),
      })),
      sparkJobs: sim.state.sparkJobRefs.map((j) => ({ projectId: j.projectId, jobId: j.jobId })),
    };
    return info;
  },
  snapshot: (): SimSnapshot => {
    const s = running().stats;
    const cpu = process.cpuUsage();
    return {
      requests: s.requests,
      byEndpoint: { ...s.byEndpoint },
      distinctByEndpoint: { ...s.distinctByEndpoint },
      rateLimited: s.rateLimited,
      faultsInjected: { ...s.faultsInjected } as Record<string, number>,
      mutatingCalls: s.mutatingCalls.length,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
  },
  faultSet: (raw) => {
    const { kind, spec } = raw as { kind: FaultKind; spec: FaultSpec };
    running().faults.set(kind, spec);
    return true;
  },
  faultClear: (raw) => {
    const kind = (raw as { kind?: FaultKind } | undefined)?.kind;
    running().faults.clear(kind);
    return true;
  },
  drainMetricLog: (): MetricRequest[] => {
    const out = log;
    log = [];
    return out;
  },
  close: async () => {
    await sim?.close();
    setImmediate(() => process.exit(0));
    return true;
  },
});

// An orphaned simulator must not outlive the harness.
process.on("disconnect", () => process.exit(0));

function optionalCredential(credential: string | undefined): { dataPlaneCredential?: string } {
  return credential === undefined ? {} : { dataPlaneCredential: credential };
}

function running(): Simulator {
  if (!sim) throw new Error("simulator not started");
  return sim;
}
