/**
 * Detects series the exporter lost before their staleness bound. A series may leave the
 * exposition for two reasons only: a successful poll of its target no longer returned it
 * (fresh data: "replaced"), or its target's last success is older than the bound ("expired").
 * Any other disappearance is a loss. Each series is tied to its target through its labels,
 * and the target's last success is read from the same scrape
 * (`vdbcloud_collector_last_success_timestamp_seconds`).
 */
import { metricsTargetName } from "../src/collectors/cluster-metrics/tasks.js";
import { INVENTORY_FAMILIES } from "../src/collectors/inventory/families.js";
import type { ParsedSample } from "./exposition.js";

/** The collector and target a series belongs to. */
export interface Owner {
  readonly collector: string;
  readonly target: string;
}

const HEALTH = new Set(["vdbcloud_collector_up", "vdbcloud_collector_last_success_timestamp_seconds"]);
const LAST_SUCCESS = "vdbcloud_collector_last_success_timestamp_seconds";
// From the family catalog, not a hand list: a list missed the families added later (replicas,
// snapshots, autoscaling bounds) and tied them to the cluster-metrics target, whose last success
// is not theirs, so their ordinary replacement by an inventory poll was reported as a loss.
const INVENTORY_GLOBAL = new Set<string>([
  INVENTORY_FAMILIES.projectClusters.name,
  INVENTORY_FAMILIES.regionInfo.name,
]);
const INVENTORY_CLUSTER = new Set<string>(
  Object.values(INVENTORY_FAMILIES)
    .map((f) => f.name)
    .filter((n) => !INVENTORY_GLOBAL.has(n)),
);

/**
 * Which target's polls produce `s`: "health" for the per-target health series (they never
 * expire), undefined for series that belong to no target (the process's own metrics).
 */
export function ownerOf(s: Pick<ParsedSample, "name" | "labels">): Owner | "health" | undefined {
  const { name, labels } = s;
  if (HEALTH.has(name)) return "health";
  if (name.startsWith("vdbcloud_spark_job")) {
    return { collector: "spark_jobs", target: `${labels.project_id ?? ""}/${labels.job_id ?? ""}` };
  }
  const cluster = labels.cluster_id;
  if (name.startsWith("vdbcloud_import_job") && cluster !== undefined)
    return { collector: "import_jobs", target: cluster };
  if (INVENTORY_CLUSTER.has(name) && cluster !== undefined)
    return { collector: "inventory", target: cluster };
  if (INVENTORY_GLOBAL.has(name)) return { collector: "inventory", target: "global" };
  if (cluster === undefined) return undefined;
  const scoped = labels.db_name !== undefined || labels.collection_name !== undefined;
  const scope = scoped
    ? {
        ...(labels.db_name !== undefined ? { dbName: labels.db_name } : {}),
        ...(labels.collection_name !== undefined ? { collectionName: labels.collection_name } : {}),
      }
    : undefined;
  return { collector: "cluster_metrics", target: metricsTargetName(cluster, scope) };
}

/** A series that disappeared although its target's data was still within the bound. */
export interface Loss {
  readonly series: string;
  readonly atMs: number;
  readonly owner: Owner | "health";
  readonly lastSuccessMs: number | undefined;
}

export interface LossTrackerOptions {
  /** The staleness bound: stalenessIntervals x interval. */
  readonly boundMs: number;
  /** How far before the previous scrape a success may count as the one that replaced a series. */
  readonly publishSlackMs?: number;
  /** Allowance for clock reading differences at the bound. */
  readonly toleranceMs?: number;
}

/** Feed it every scrape in order; read `lost`, `replaced` and `expired` at the end. */
export class LossTracker {
  readonly lost: Loss[] = [];
  replaced = 0;
  /** Series that left once their target's last success was older than the bound. */
  readonly expired: Loss[] = [];
  /** Distinct series ever seen with an owner. */
  readonly seen = new Set<string>();
  private previous = new Map<string, Owner | "health">();
  private previousAtMs = 0;
  private lastSuccess = new Map<string, number>();
  private readonly boundMs: number;
  private readonly publishSlackMs: number;
  private readonly toleranceMs: number;

  constructor(opts: LossTrackerOptions) {
    this.boundMs = opts.boundMs;
    this.publishSlackMs = opts.publishSlackMs ?? 3000;
    this.toleranceMs = opts.toleranceMs ?? 1000;
  }

  /** One scrape taken at `atMs` (the harness's clock, the exporter's too: same machine). */
  observe(atMs: number, samples: readonly ParsedSample[]): void {
    const present = new Map<string, Owner | "health">();
    for (const s of samples) {
      const owner = ownerOf(s);
      if (owner === undefined) continue;
      present.set(s.id, owner);
      this.seen.add(s.id);
      if (s.name === LAST_SUCCESS) {
        this.lastSuccess.set(key(s.labels.collector ?? "", s.labels.target ?? ""), s.value * 1000);
      }
    }
    for (const [id, owner] of this.previous) {
      if (present.has(id)) continue;
      const last = owner === "health" ? undefined : this.lastSuccess.get(key(owner.collector, owner.target));
      if (last !== undefined && last >= this.previousAtMs - this.publishSlackMs) this.replaced++;
      else if (last !== undefined && atMs >= last + this.boundMs - this.toleranceMs) {
        this.expired.push({ series: id, atMs, owner, lastSuccessMs: last });
      } else this.lost.push({ series: id, atMs, owner, lastSuccessMs: last });
    }
    this.previous = present;
    this.previousAtMs = atMs;
  }
}

function key(collector: string, target: string): string {
  return `${collector}\u0000${target}`;
}
