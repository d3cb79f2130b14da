import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UPSTREAM_METRICS } from "./cloud/catalog.js";
import { DEFAULT_METRIC_QUERIES } from "./config/queries.js";
import type { Simulator } from "./simulator/index.js";

/**
 * The names outside the public reference, in the second form. The demo asks for them too, so
 * that it shows both request forms and every family.
 */
const UNDOCUMENTED = UPSTREAM_METRICS.filter((m) => !m.documented).map((m) => ({ name: m.name }));

/**
 * A name no server knows, asked on purpose (with `allow_unknown_names`): the simulator refuses
 * it, and the demo shows what a refused query costs (itself only) and how it is reported.
 */
const REFUSED_ON_PURPOSE = { name: "DEMO_REFUSED_METRIC", stat: "AVG" } as const;

/** Options of the embedded demo. */
export interface DemoOptions {
  readonly listen: string;
  readonly clusters?: number;
  /**
   * Discover collections through each cluster's data plane (the demo does): clusters whose data
   * plane takes a `username:password` get it through a token file in a fresh temporary directory.
   */
  readonly collections?: boolean;
  /** Count the members of every simulated SCIM group (the demo does). */
  readonly groups?: boolean;
  /** Also ask a name no server knows, to show a refused query (`--demo` does; tests do not). */
  readonly showRefusal?: boolean;
}

/**
 * Starts the simulator on loopback. It is imported dynamically so that production code paths
 * never load it: only `--demo` does.
 */
export async function startDemoSimulator(opts: { clusters: number }): Promise<Simulator> {
  const { startSimulator } = await import("./simulator/index.js");
  // Time runs 10x faster for jobs so that a visitor sees import and Spark jobs change state.
  // Six collections per cluster show every load state; one appears and vanishes every 2 minutes.
  return startSimulator({
    host: "127.0.0.1",
    port: 0,
    clusters: opts.clusters,
    seed: 1,
    timeScale: 10,
    collectionsPerCluster: 6,
    collectionChurnMs: 120_000,
  });
}

/**
 * The raw (YAML-shaped) config of the demo: every simulated cluster, a per-collection scope on
 * the first one, every simulated Spark job, cluster discovery off, collection discovery as
 * asked (with each data plane's credential), the simulated SCIM groups as asked, 30 s cycles
 * (the API's finest granularity), and a fixed demo key the simulator accepts.
 */
export function demoConfig(sim: Simulator, opts: DemoOptions): Record<string, unknown> {
  const first = sim.clusters[0];
  const tokenDir = opts.collections ? mkdtempSync(join(tmpdir(), "vdbcloud-demo-")) : undefined;
  const dataPlane = (clusterId: string): Record<string, unknown> => {
    const credential = sim.state.dataPlaneCredential(clusterId);
    if (tokenDir === undefined || credential === undefined) return {};
    const file = join(tokenDir, `${clusterId}.token`);
    writeFileSync(file, `${credential}\n`, { mode: 0o600 });
    return { data_plane: { token_file: file } };
  };
  return {
    api: { base_url: sim.baseUrl, controller_url: sim.controllerUrlTemplate, api_key: "demo-key" },
    clusters: sim.clusters.map((c) => ({
      id: c.id,
      region: c.regionId,
      project_id: c.projectId,
      scopes:
        c === first
          ? c.collections
              .slice(0, 2)
              .map((col) => ({ db_name: col.dbName, collection_name: col.collectionName }))
          : [],
      ...dataPlane(c.id),
    })),
    metrics: {
      granularity: "PT30S",
      interval: "PT30S",
      lookback: "PT5M",
      queries: [
        ...DEFAULT_METRIC_QUERIES,
        ...UNDOCUMENTED,
        ...(opts.showRefusal === true ? [REFUSED_ON_PURPOSE] : []),
      ],
      allow_unknown_names: opts.showRefusal === true,
    },
    import_jobs: { interval: "PT30S" },
    spark_jobs: {
      interval: "PT30S",
      jobs: sim.state.sparkJobRefs.map((j) => ({ project_id: j.projectId, job_id: j.jobId })),
    },
    inventory: { interval: "PT30S" },
    ...(opts.collections ? { collections: { enabled: true, interval: "PT30S", row_count: true } } : {}),
    ...(opts.groups ? { groups: { ids: [...sim.groups.keys()], interval: "PT30S" } } : {}),
    server: { listen: opts.listen },
  };
}
