/**
 * What a reload changed, for its log line: clusters added and removed, clusters whose settings
 * changed (region, project, scopes, per-scope queries, credential), the cluster-wide metric
 * queries, and every polling interval that moved. Keys never appear: a changed credential is
 * reported as a changed cluster, or as `api_key_changed`.
 */
import { isDeepStrictEqual } from "node:util";
import { formatDuration } from "../shared/duration.js";
import type { ClusterConfig, Config } from "./types.js";

/** The differences between two configs, in log-friendly form; empty lists and flags omitted. */
interface ConfigChanges {
  readonly clusters_added?: readonly string[];
  readonly clusters_removed?: readonly string[];
  readonly clusters_changed?: readonly string[];
  readonly queries_changed?: { readonly added: readonly string[]; readonly removed: readonly string[] };
  /** `setting: "PT1M -> PT30S"`, for every interval, granularity, lookback and delay that moved. */
  readonly intervals?: Readonly<Record<string, string>>;
  readonly api_key_changed?: true;
  readonly billing_key_changed?: true;
  /** Other settings that changed (their top-level keys), e.g. `api`, `inventory`. */
  readonly other?: readonly string[];
}

const queryName = (q: { readonly name: string; readonly stat?: string | undefined }) =>
  q.stat === undefined ? q.name : `${q.name}:${q.stat}`;

function durations(c: Config): Record<string, number> {
  return {
    "metrics.granularity": c.metrics.granularityMs,
    "metrics.interval": c.metrics.intervalMs,
    "metrics.lookback": c.metrics.lookbackMs,
    "metrics.delay": c.metrics.delayMs,
    "import_jobs.interval": c.importJobs.intervalMs,
    "spark_jobs.interval": c.sparkJobs.intervalMs,
    "inventory.interval": c.inventory.intervalMs,
    "groups.interval": c.groups.intervalMs,
    "backups.interval": c.backups.intervalMs,
    "backups.policy_interval": c.backups.policyIntervalMs,
    "global_clusters.interval": c.globalClusters.intervalMs,
    "billing.interval": c.billing.intervalMs,
  };
}

/** The billing key changed, other than by following a changed default key. */
function ownBillingKeyChanged(prev: Config, next: Config): boolean {
  const own = (c: Config) => (c.billing.apiKey === c.api.apiKey ? undefined : c.billing.apiKey);
  return prev.billing.apiKey !== next.billing.apiKey && own(prev) !== own(next);
}

/** Compares the running config with the one replacing it. */
export function configChanges(prev: Config, next: Config): ConfigChanges {
  const before = new Map<string, ClusterConfig>(prev.clusters.map((c) => [c.id, c]));
  const after = new Map<string, ClusterConfig>(next.clusters.map((c) => [c.id, c]));
  const added = [...after.keys()].filter((id) => !before.has(id));
  const removed = [...before.keys()].filter((id) => !after.has(id));
  const changed = [...after].filter(([id, c]) => before.has(id) && !isDeepStrictEqual(before.get(id), c));

  const prevQueries = new Set(prev.metrics.queries.map(queryName));
  const nextQueries = new Set(next.metrics.queries.map(queryName));
  const qAdded = [...nextQueries].filter((q) => !prevQueries.has(q));
  const qRemoved = [...prevQueries].filter((q) => !nextQueries.has(q));

  const intervals: Record<string, string> = {};
  const d0 = durations(prev);
  for (const [k, v] of Object.entries(durations(next))) {
    const old = d0[k] as number;
    if (old !== v) intervals[k] = `${formatDuration(old)} -> ${formatDuration(v)}`;
  }

  // Everything else, by top-level key, once what is reported above is taken out.
  const rest = (c: Config) => ({
    ...c,
    clusters: undefined,
    api: { ...c.api, apiKey: undefined },
    metrics: {
      ...c.metrics,
      queries: undefined,
      ...Object.fromEntries(
        Object.keys(c.metrics)
          .filter((k) => k.endsWith("Ms"))
          .map((k) => [k, undefined]),
      ),
    },
    importJobs: { ...c.importJobs, intervalMs: undefined },
    sparkJobs: { ...c.sparkJobs, intervalMs: undefined },
    inventory: { ...c.inventory, intervalMs: undefined },
    groups: { ...c.groups, intervalMs: undefined },
    backups: { ...c.backups, intervalMs: undefined, policyIntervalMs: undefined },
    globalClusters: { ...c.globalClusters, intervalMs: undefined },
    billing: { ...c.billing, intervalMs: undefined, apiKey: undefined },
  });
  const r0 = rest(prev) as Record<string, unknown>;
  const r1 = rest(next) as Record<string, unknown>;
  const other = Object.keys(r1).filter((k) => !isDeepStrictEqual(r0[k], r1[k]));

  return {
    ...(added.length > 0 ? { clusters_added: added } : {}),
    ...(removed.length > 0 ? { clusters_removed: removed } : {}),
    ...(changed.length > 0 ? { clusters_changed: changed.map(([id]) => id) } : {}),
    ...(qAdded.length > 0 || qRemoved.length > 0
      ? { queries_changed: { added: qAdded, removed: qRemoved } }
      : {}),
    ...(Object.keys(intervals).length > 0 ? { intervals } : {}),
    ...(prev.api.apiKey !== next.api.apiKey ? { api_key_changed: true as const } : {}),
    ...(ownBillingKeyChanged(prev, next) ? { billing_key_changed: true as const } : {}),
    ...(other.length > 0 ? { other } : {}),
  };
}
