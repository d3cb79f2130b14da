/**
 * The cost part of `backfill` (when billing.enabled): Query Daily Usage with the billing key,
 * one calendar month per chunk (a chunk is spooled, so an interrupted run resumes by month), and
 * each complete day's vdbcloud_daily_cost and vdbcloud_daily_usage at the day's start.
 */

import type { ApiClients } from "../api-clients/apiClients.js";
import { BILLING_SECTION } from "../collectors/billing/config.js";
import { addDays, dayOf, dayStartMs } from "../collectors/billing/days.js";
import { mapCostHistory } from "../collectors/billing/history.js";
import { readUsage } from "../collectors/billing/usage.js";
import type { Config } from "../config/types.js";
import { describeError } from "../polling/errors.js";
import { DAY } from "../shared/duration.js";
import type { ChunkSpool } from "./spool.js";
import { digest } from "./state.js";

/** One month of the window: days `first`..`last` (YYYY-MM-DD) and its spool key. */
interface CostChunk {
  readonly first: string;
  readonly last: string;
  readonly key: string;
}

/**
 * The window's days cut at month boundaries: the days whose start is in [fromMs, toMs) and
 * that ended by `nowMs`. Empty when billing is off or no whole day is in the window.
 */
export function costChunks(
  config: Config,
  window: { fromMs: number; toMs: number },
  nowMs: number,
): CostChunk[] {
  if (!config.billing.enabled) return [];
  let first = dayOf(window.fromMs);
  if (dayStartMs(first) < window.fromMs) first = addDays(first, 1);
  const endMs = Math.min(window.toMs, nowMs - DAY + 1);
  const chunks: CostChunk[] = [];
  for (let day = first; dayStartMs(day) < endMs; ) {
    let last = day;
    while (dayStartMs(addDays(last, 1)) < endMs && addDays(last, 1).slice(0, 7) === day.slice(0, 7)) {
      last = addDays(last, 1);
    }
    chunks.push({ first: day, last, key: digest(["cost", config.billing.amountUnit, day, last]) });
    day = addDays(last, 1);
  }
  return chunks;
}

/**
 * Reads and spools every chunk not done yet; returns the failures (the billing key refused,
 * paging that does not add up), each as a line for the summary.
 */
export async function backfillCost(
  config: Config,
  chunks: readonly CostChunk[],
  deps: { clients: ApiClients; spool: ChunkSpool; signal: AbortSignal; nowMs: number },
): Promise<string[]> {
  const failures: string[] = [];
  for (const chunk of chunks) {
    if (deps.spool.isDone(chunk.key) || deps.signal.aborted) continue;
    try {
      // One day more as `end`: right whether the service's end is inclusive or not.
      const days = await readUsage(
        deps.clients.ownKey(BILLING_SECTION),
        chunk.first,
        addDays(chunk.last, 1),
        deps.signal,
      );
      const window = {
        fromMs: dayStartMs(chunk.first),
        toMs: dayStartMs(addDays(chunk.last, 1)),
        nowMs: deps.nowMs,
      };
      await deps.spool.write(chunk.key, mapCostHistory(days, window, config.billing.amountUnit));
    } catch (err) {
      failures.push(`cost ${chunk.first}..${chunk.last} (billing key): ${describeError(err).message}`);
      break;
    }
  }
  return failures;
}
