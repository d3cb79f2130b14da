/**
 * What the canary keeps between probes, for the life of the process (its counters and histogram
 * must not restart at a reload): per target, the series its probes add up, the collection's
 * schema as last described (read again hourly, and whenever a search is refused), and what was
 * last logged of its fallback from a search to a query (once per change, the framework's rule).
 */
import { stateSlot } from "../../polling/model.js";
import { ChangeLog } from "../../shared/changeLog.js";
import { HOUR } from "../../shared/duration.js";
import type { CollectionSchema } from "../../upstream/dataPlane.js";
import type { CanaryTarget } from "./config.js";
import { CANARY_BUCKETS } from "./families.js";
import { CANARY_OUTCOMES, type CanaryOutcome } from "./vector.js";

/** How long a described schema is used before the collection is described again. */
export const DESCRIBE_EVERY_MS = HOUR;

/** A target's identity: its series' labels. */
export function targetKey(
  t: Pick<CanaryTarget, "clusterId" | "dbName" | "collectionName" | "operation">,
): string {
  return JSON.stringify([t.clusterId, t.dbName, t.collectionName, t.operation]);
}

/** One probe's result as the series count it. */
export interface ProbeResult {
  readonly outcome: CanaryOutcome;
  /** Time on the wire of a successful probe; absent when none was measured (not timed, still counted). */
  readonly seconds?: number;
  /** vCU the answer cost, when it said. */
  readonly cost?: number | null;
  readonly atMs: number;
}

/** What a target's series hold: added up over every probe since the exporter started. */
export interface TargetSeries {
  readonly up: boolean;
  readonly lastSuccessMs: number | null;
  readonly requests: Readonly<Record<CanaryOutcome, number>>;
  readonly vcu: number;
  /** Successful probes per bucket of CANARY_BUCKETS (not cumulated), their sum and count. */
  readonly durations: { readonly counts: readonly number[]; readonly sum: number; readonly count: number };
}

/** A target's series before its first probe. */
function emptySeries(): TargetSeries {
  return {
    up: false,
    lastSuccessMs: null,
    requests: Object.fromEntries(CANARY_OUTCOMES.map((o) => [o, 0])) as Record<CanaryOutcome, number>,
    vcu: 0,
    durations: { counts: CANARY_BUCKETS.map(() => 0), sum: 0, count: 0 },
  };
}

/** `series` with one more probe counted. Pure. */
export function withProbe(series: TargetSeries, probe: ProbeResult): TargetSeries {
  const ok = probe.outcome === "success";
  const seconds = ok ? probe.seconds : undefined;
  const bucket = seconds === undefined ? -1 : CANARY_BUCKETS.findIndex((bound) => seconds <= bound);
  return {
    up: ok,
    lastSuccessMs: ok ? probe.atMs : series.lastSuccessMs,
    requests: { ...series.requests, [probe.outcome]: series.requests[probe.outcome] + 1 },
    vcu: series.vcu + (probe.cost ?? 0),
    durations:
      seconds === undefined
        ? series.durations
        : {
            counts: series.durations.counts.map((n, i) => (i === bucket ? n + 1 : n)),
            sum: series.durations.sum + seconds,
            count: series.durations.count + 1,
          },
  };
}

/** The canary's memory, one per process. */
export class CanaryMemory {
  readonly #series = new Map<string, TargetSeries>();
  readonly #schemas = new Map<string, { readonly schema: CollectionSchema; readonly atMs: number }>();
  /** Per target: why its search was refused right after its schema was read, and when. */
  readonly #refused = new Map<string, { readonly reason: string; readonly atMs: number }>();
  /** Per target: why its search falls back to a query, as last logged (null: it searches). */
  readonly fallbacks = new ChangeLog<string | null>({ quiet: null });

  /** Counts one probe of `target` and returns its series. */
  record(target: CanaryTarget, probe: ProbeResult): TargetSeries {
    const key = targetKey(target);
    const series = withProbe(this.#series.get(key) ?? emptySeries(), probe);
    this.#series.set(key, series);
    return series;
  }

  /** The schema of the target's collection described less than DESCRIBE_EVERY_MS before `nowMs`. */
  schema(target: CanaryTarget, nowMs: number): CollectionSchema | undefined {
    const known = this.#schemas.get(targetKey(target));
    return known !== undefined && nowMs - known.atMs < DESCRIBE_EVERY_MS ? known.schema : undefined;
  }

  described(target: CanaryTarget, schema: CollectionSchema, atMs: number): void {
    this.#schemas.set(targetKey(target), { schema, atMs });
  }

  /**
   * The target's search was refused right after its schema was read (`reason`, the answer's
   * words): not a stale schema, so describing again would change nothing. It is queried instead
   * until DESCRIBE_EVERY_MS after `atMs`, when its schema is read again and its search tried.
   */
  searchRefused(target: CanaryTarget, reason: string, atMs: number): void {
    this.#refused.set(targetKey(target), { reason, atMs });
    this.#schemas.delete(targetKey(target));
  }

  /** Why the target is queried instead of searched at `nowMs` (searchRefused), or undefined. */
  queriedInstead(target: CanaryTarget, nowMs: number): string | undefined {
    const refused = this.#refused.get(targetKey(target));
    return refused !== undefined && nowMs - refused.atMs < DESCRIBE_EVERY_MS ? refused.reason : undefined;
  }

  /** Forgets every target `keep` does not hold (no longer configured, or another replica's). */
  retain(keep: ReadonlySet<string>): void {
    for (const map of [this.#series, this.#schemas, this.#refused])
      for (const key of map.keys()) if (!keep.has(key)) map.delete(key);
    this.fallbacks.retain((key) => keep.has(key));
  }
}

/** The canary's state slot. */
export const CANARY_MEMORY = stateSlot("canary memory", () => new CanaryMemory());
