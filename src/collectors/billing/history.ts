/**
 * Cost history for the backfill: each complete UTC day's cost and usage, stamped at the day's
 * start, through the live mapping (`mapUsage`, as if that day were yesterday), so a past day
 * gets exactly the names, labels and amounts a live poll gave it the next day.
 */

import type { DropReason, FamilyDef } from "../../metrics/sample.js";
import { addDays, dayStartMs } from "./days.js";
import { BILLING_FAMILIES as B } from "./families.js";
import { type AmountUnit, mapUsage } from "./mapping.js";
import type { DayUsage } from "./usage.js";

/** The families a backfill writes: the daily ones (the month to date is not history). */
const HISTORY_FAMILIES: ReadonlySet<string> = new Set([B.dailyCost.name, B.dailyUsage.name]);

/** One sample of a past day, stamped with the day's start. */
interface DaySample {
  readonly family: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  readonly timestampMs: number;
}

/** Every day's samples in day order, the families they use, and what was dropped. */
interface CostHistory {
  readonly samples: DaySample[];
  readonly families: FamilyDef[];
  readonly dropped: Partial<Record<DropReason, number>>;
}

/**
 * vdbcloud_daily_cost and vdbcloud_daily_usage of every day of `days` whose start is in
 * [fromMs, toMs) and that has ended by `nowMs` (a partial day is not a day's cost yet).
 */
export function mapCostHistory(
  days: ReadonlyMap<string, DayUsage>,
  window: { readonly fromMs: number; readonly toMs: number; readonly nowMs: number },
  unit: AmountUnit,
): CostHistory {
  const samples: DaySample[] = [];
  const families = new Map<string, FamilyDef>();
  const dropped: Partial<Record<DropReason, number>> = {};
  for (const day of [...days.keys()].sort()) {
    const startMs = dayStartMs(day);
    const next = addDays(day, 1);
    if (startMs < window.fromMs || startMs >= window.toMs || dayStartMs(next) > window.nowMs) continue;
    const read = days.get(day);
    if (read === undefined) continue;
    const mapping = mapUsage(new Map([[day, read]]), next, unit);
    for (const f of mapping.families) if (HISTORY_FAMILIES.has(f.name)) families.set(f.name, f);
    for (const s of mapping.samples) {
      if (HISTORY_FAMILIES.has(s.family)) samples.push({ ...s, timestampMs: startMs });
    }
    for (const [reason, n] of Object.entries(mapping.dropped) as [DropReason, number][]) {
      dropped[reason] = (dropped[reason] ?? 0) + n;
    }
  }
  return { samples, families: [...families.values()], dropped };
}
