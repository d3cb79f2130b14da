/**
 * The exporter configurations of the harness's scenarios, as the YAML a user would write
 * (snake_case, ISO 8601 durations), so the exporter under test loads them like any file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import type { SimInfo } from "./simProcess.js";

/** A per-database/collection scope of a cluster's metric queries. */
export interface ScopeRef {
  readonly dbName: string;
  readonly collectionName: string;
}

/** Which collectors run besides cluster metrics (always on). */
export interface Collectors {
  readonly importJobs: boolean;
  readonly sparkJobs: boolean;
  readonly inventory: boolean;
  /**
   * Backups, backup policies and global clusters (on by default in the exporter; on in the
   * bench's full scenario, off in the metrics-only one). Each has its own endpoints and so its
   * own rate budget.
   */
  readonly dataProtection?: boolean;
}

export interface ScenarioInput {
  readonly sim: Pick<SimInfo, "baseUrl" | "controllerUrlTemplate" | "clusters" | "sparkJobs">;
  readonly apiKey: string;
  /** Interval of every collector; metric granularity is PT30S, the finest the API offers. */
  readonly intervalMs: number;
  /** Scopes by cluster ID; clusters not listed get none. */
  readonly scopes?: ReadonlyMap<string, readonly ScopeRef[]>;
  readonly collectors: Collectors;
  /** Only these clusters (default: all of the world). */
  readonly clusterIds?: readonly string[];
  /** Requests per second per endpoint (default: the documented 20). */
  readonly rateLimit?: number;
  readonly maxInFlight?: number;
}

/** The finest metric granularity of the API, and the smallest interval the schema accepts. */
export const GRANULARITY_MS = 30_000;

/** An ISO 8601 duration in whole seconds, e.g. 90000 -> "PT90S". */
export function isoDuration(ms: number): string {
  return `PT${Math.round(ms / 1000)}S`;
}

/**
 * The shortest interval (a whole number of 30 s steps) in which `targets` requests on one
 * endpoint fit at `rate` per second while using at most `utilisation` of the budget. Targets
 * sit at random offsets, so a nearly full budget queues; and the start-up run queues every
 * target at once, a backlog that only the unused share of the budget drains.
 */
export function cycleIntervalMs(targets: number, rate: number, utilisation = 0.6): number {
  const needMs = (targets / (rate * utilisation)) * 1000;
  return Math.max(GRANULARITY_MS, Math.ceil(needMs / GRANULARITY_MS) * GRANULARITY_MS);
}

/**
 * Picks `count` collection scopes, spread evenly: one per cluster in turn, then a second
 * collection of each, and so on. Returns fewer when the world has fewer collections.
 */
export function chooseScopes(clusters: SimInfo["clusters"], count: number): Map<string, ScopeRef[]> {
  const out = new Map<string, ScopeRef[]>();
  let left = count;
  const rounds = Math.max(0, ...clusters.map((c) => c.collections.length));
  for (let round = 0; round < rounds && left > 0; round++) {
    for (const c of clusters) {
      const col = c.collections[round];
      if (!col || left <= 0) continue;
      const list = out.get(c.id) ?? [];
      list.push({ dbName: col.dbName, collectionName: col.collectionName });
      out.set(c.id, list);
      left--;
    }
  }
  return out;
}

/** The raw (YAML-shaped) configuration of a scenario. */
export function scenarioConfig(input: ScenarioInput): Record<string, unknown> {
  const wanted = input.clusterIds ? new Set(input.clusterIds) : undefined;
  const clusters = input.sim.clusters.filter((c) => !wanted || wanted.has(c.id));
  const interval = isoDuration(input.intervalMs);
  return {
    api: {
      base_url: input.sim.baseUrl,
      controller_url: input.sim.controllerUrlTemplate,
      api_key: input.apiKey,
      ...(input.rateLimit !== undefined ? { rate_limit: input.rateLimit } : {}),
      ...(input.maxInFlight !== undefined ? { max_in_flight: input.maxInFlight } : {}),
      // The simulator's data planes (connectAddress) are plaintext on its own loopback host.
      data_plane_hosts: [`http://${new URL(input.sim.baseUrl).hostname}`],
    },
    clusters: clusters.map((c) => {
      const scopes = input.scopes?.get(c.id) ?? [];
      return {
        id: c.id,
        region: c.regionId,
        project_id: c.projectId,
        ...(scopes.length > 0
          ? { scopes: scopes.map((s) => ({ db_name: s.dbName, collection_name: s.collectionName })) }
          : {}),
      };
    }),
    metrics: { granularity: isoDuration(GRANULARITY_MS), interval, lookback: "PT5M" },
    import_jobs: { enabled: input.collectors.importJobs, interval },
    spark_jobs: {
      interval,
      jobs: input.collectors.sparkJobs
        ? input.sim.sparkJobs.map((j) => ({ project_id: j.projectId, job_id: j.jobId }))
        : [],
      // Spark job discovery lists every cluster: it runs with the Spark job collector, at the
      // scenario's interval like every other collector.
      discovery: { enabled: input.collectors.sparkJobs, interval },
    },
    inventory: { enabled: input.collectors.inventory, interval },
    backups: { enabled: input.collectors.dataProtection === true, interval, policy_interval: interval },
    global_clusters: { enabled: input.collectors.dataProtection === true, interval },
    server: { listen: "127.0.0.1:0" },
  };
}

let runDir: string | undefined;

/**
 * The temporary directory of this bench or soak process (config and token files), made on first
 * use and removed when the process exits: runs used to leave one directory per scenario behind.
 */
export function benchTempDir(): string {
  if (runDir === undefined) {
    runDir = mkdtempSync(join(tmpdir(), "vdbcloud-bench-"));
    process.once("exit", removeBenchTempDir);
  }
  return runDir;
}

/** Removes `benchTempDir()` now (tests call it; a later call of benchTempDir makes a new one). */
export function removeBenchTempDir(): void {
  if (runDir !== undefined) rmSync(runDir, { recursive: true, force: true });
  runDir = undefined;
  process.off("exit", removeBenchTempDir);
}

/** Writes `raw` as YAML into a fresh directory under `benchTempDir()`; returns the file's path. */
export async function writeConfigFile(name: string, raw: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(join(benchTempDir(), `${name}-`));
  const path = join(dir, `${name}.yaml`);
  await writeFile(path, stringify(raw), "utf8");
  return path;
}
