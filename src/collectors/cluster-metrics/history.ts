/**
 * History of a window, bucket by bucket: each bucket's points go through the live mapping
 * (`mapClusterMetrics`) on their own, so a past bucket gets exactly the name, labels, unit
 * conversion and null skipping a live poll would have given it when it was the newest.
 */

import type { DropReason, FamilyDef, Sample } from "../../metrics/sample.js";
import type { MetricResult } from "../../upstream/types.js";
import { type MetricScope, mapClusterMetrics } from "./mapping.js";

/** The window asked for: [startMs, endMs) in buckets of `granularityMs`, asked at `nowMs`. */
interface HistoryWindow {
  readonly startMs: number;
  readonly endMs: number;
  readonly granularityMs: number;
  readonly nowMs: number;
}

/** A sample of one bucket, stamped with the bucket's start. */
export interface TimedSample extends Sample {
  readonly timestampMs: number;
}

/** Every mapped sample of a window, the families they use, and what was dropped. */
export interface HistoryMapping {
  /** Ordered by bucket time, then as the live mapping orders one bucket. */
  readonly samples: TimedSample[];
  readonly families: FamilyDef[];
  readonly dropped: Partial<Record<DropReason, number>>;
}

/**
 * Maps every bucket of `results` within [startMs, endMs). A point outside the window belongs
 * to a neighbouring window (which maps it) or has not ended; a null point is "no data" and
 * gives nothing; a point with an unreadable timestamp is dropped as `bad_timestamp`. The
 * rest, bucket by bucket, is what `mapClusterMetrics` makes of that bucket alone.
 */
export function mapClusterMetricsHistory(input: {
  readonly clusterId: string;
  readonly scope?: MetricScope;
  readonly results: readonly MetricResult[];
  readonly window: HistoryWindow;
}): HistoryMapping {
  const { window } = input;
  const byBucket = new Map<number, MetricResult[]>();
  let badTimestamps = 0;
  for (const result of input.results) {
    for (const point of result.values) {
      if (point.value === null) continue;
      if (!Number.isFinite(point.timestampMs)) {
        badTimestamps += 1;
        continue;
      }
      if (point.timestampMs < window.startMs || point.timestampMs >= window.endMs) continue;
      const list = byBucket.get(point.timestampMs) ?? [];
      list.push({ ...result, values: [point] });
      byBucket.set(point.timestampMs, list);
    }
  }
  const samples: TimedSample[] = [];
  const families = new Map<string, FamilyDef>();
  const dropped: Partial<Record<DropReason, number>> =
    badTimestamps > 0 ? { bad_timestamp: badTimestamps } : {};
  const live = { endMs: window.endMs, granularityMs: window.granularityMs, nowMs: window.nowMs };
  for (const timestampMs of [...byBucket.keys()].sort((a, b) => a - b)) {
    const mapped = mapClusterMetrics({
      clusterId: input.clusterId,
      ...(input.scope ? { scope: input.scope } : {}),
      results: byBucket.get(timestampMs) ?? [],
      window: live,
    });
    for (const s of mapped.samples) samples.push({ ...s, timestampMs });
    for (const f of mapped.families) families.set(f.name, f);
    for (const [reason, n] of Object.entries(mapped.dropped) as [DropReason, number][]) {
      dropped[reason] = (dropped[reason] ?? 0) + n;
    }
  }
  return { samples, families: [...families.values()], dropped };
}
