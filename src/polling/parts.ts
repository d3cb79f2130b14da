/**
 * A poll made of parts: listings of one target that each stand alone (the alert rules of each
 * project, the on-demand clusters of each project and region), whose answers must not cost one
 * another. Each part's samples are a slice of the target's own, so that:
 * - a part that answers replaces its slice;
 * - a part that fails keeps its last good slice until the staleness bound (as a failed poll
 *   does), and is reported to the poll as a partial failure (shown on the target's health and
 *   logged, a paging error counted);
 * - a part no longer asked loses its slice;
 * - a part whose endpoint the server does not offer (the one refusal rule's `not_offered`,
 *   polling/notOffered.ts) is neither a failure nor a partial one: its hold key (its own key, or
 *   one it shares with other parts, `holdKey`) is held a day, no part of that key is asked
 *   meanwhile nor keeps a slice, and the poll's skip reason says so;
 * - when every part asked fails, the poll fails with the first part's error, so that `runPoll`
 *   applies the one refusal rule to it: a key that is refused everywhere for lack of a role is
 *   "not permitted", one line, as any poll's.
 * An aborted poll stops at once. Parts are asked one after another, in the order given.
 */
import type { MappingResult } from "../metrics/sample.js";
import { CloudError } from "../upstream/errors.js";
import { refusalOf } from "../upstream/refusals.js";
import type { PollContext, PollRun } from "./runtime.js";

/** The slot prefix of part slices; the target's other slots ("data", "health") never start so. */
const PART_SLOT = "part ";

/** One target's parts, how to poll one and how long its samples live. */
export interface PartedPoll<P> {
  readonly collector: string;
  readonly target: string;
  /** A part's identity, stable across polls (a project ID, "project/region"). */
  readonly key: (part: P) => string;
  /** Lists one part and maps it; rejects when its call failed. */
  readonly poll: (part: P, signal?: AbortSignal) => Promise<MappingResult>;
  /** The staleness bound of a part's slice. */
  readonly ttlMs: number;
  /**
   * The key of the hold a part shares with others where its endpoint is not offered (the
   * region whose server each project of it asks), so that one of them asks, once a day, for
   * all; default: the part's own key.
   */
  readonly holdKey?: (part: P) => string;
}

function aborted(err: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (err instanceof CloudError && err.code === "aborted");
}

/** Polls every part of `parts` by the rules of the module comment. */
export async function pollParts<P>(
  ctx: PollContext,
  run: PollRun,
  poll: PartedPoll<P>,
  parts: readonly P[],
  signal?: AbortSignal,
): Promise<void> {
  const { collector, target } = poll;
  const holds = ctx.health.notOffered.parts(poll);
  // Kept: parts are the caller's list, not a listing (no pager sees them), and a part's key
  // names its slot: a key given twice would be asked twice and its slot written twice. (The
  // known projects, merged from List Projects V2 and the polled clusters, come once each.)
  const seen = new Set<string>();
  const holdKeys = new Set<string>();
  // The parts asked that answered or failed: their slices stay (a failed part's last good one).
  const asked = new Set<string>();
  const failures: unknown[] = [];
  for (const part of parts) {
    const key = poll.key(part);
    if (seen.has(key)) continue;
    seen.add(key);
    const holdKey = poll.holdKey?.(part) ?? key;
    holdKeys.add(holdKey);
    // Not offered where it asks, a day ago or less: asking again would only hear so again.
    if (holds.isHeld(holdKey, ctx.now())) continue;
    let mapping: MappingResult;
    try {
      mapping = await poll.poll(part, signal);
    } catch (err) {
      if (aborted(err, signal)) throw err;
      // A server without the endpoint is no failure of the part's: there is nothing to keep.
      if (refusalOf(err) === "not_offered") {
        holds.hold(holdKey, ctx.now(), err);
        continue;
      }
      asked.add(key);
      failures.push(err);
      continue;
    }
    holds.release(holdKey);
    asked.add(key);
    ctx.store.put(
      { collector, target, slot: `${PART_SLOT}${key}` },
      mapping.families,
      mapping.samples,
      poll.ttlMs,
    );
    ctx.self.dropped(mapping.dropped);
  }
  const notOffered = holds.reason(holdKeys);
  if (failures.length > 0 && failures.length === asked.size) throw failures[0];
  for (const err of failures) run.partialFailure(err);
  if (notOffered !== null) run.skip(notOffered);
  for (const slot of ctx.store.slots(collector, target)) {
    if (slot.startsWith(PART_SLOT) && !asked.has(slot.slice(PART_SLOT.length))) {
      ctx.store.delete({ collector, target, slot });
    }
  }
}
