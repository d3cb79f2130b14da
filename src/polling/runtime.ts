import type { Logger } from "pino";
import type { SelfMetrics } from "../exposition/selfMetrics.js";
import type { SampleStore } from "../exposition/store.js";
import type { MappingResult } from "../metrics/sample.js";
import type { RunOutcome } from "../scheduler/scheduler.js";
import { refusalOf } from "../upstream/refusals.js";
import { isPermanent } from "./errors.js";
import type { HealthTracker, RoleHint } from "./health.js";
import { PagingError } from "./pager.js";

/** What every poller needs; one instance for the life of the process (survives reloads). */
export interface PollContext {
  readonly store: SampleStore;
  readonly health: HealthTracker;
  readonly self: SelfMetrics;
  readonly now: () => number;
  /** For events worth a line of their own (a refused metric query); none in some tests. */
  readonly logger?: Pick<Logger, "warn" | "info">;
}

/** Which poll runs: its health series' labels, and the credential its calls use. */
export interface PollTarget {
  readonly collector: string;
  readonly target: string;
  /** The credential's label (never the key): named when the service refuses it a permission. */
  readonly credential: string;
  /** What the credential needs, for the one log line of a permission refusal. */
  readonly role?: RoleHint;
}

/**
 * What a poll may tell of itself while it runs: a call that failed without failing the poll
 * (one job's progress among many). Such a failure is shown on the target's health and logged,
 * never dropped; a paging error among them is counted as a failed poll's is.
 */
export interface PollRun {
  partialFailure(err: unknown): void;
  /**
   * The poll asks the service nothing (or less) on purpose: `reason` says why, in words (the
   * landing page shows it). The poll is complete, and up.
   */
  skip(reason: string): void;
}

/**
 * Runs one poll of one target: times it, and turns its ending into health state and an outcome
 * for the scheduler by the one refusal rule of every collector (upstream/refusals.ts):
 * - a key the service refuses (invalid or expired) is a failure of the target;
 * - a missing role or permission is "not permitted": the poll is complete (up), and
 *   vdbcloud_collector_not_permitted says why no data comes;
 * - a refusal for the cluster's plan or kind is complete too, and the target is not asked again
 *   for an hour, or until its plan changes (HealthTracker.planChanged);
 * - an endpoint the server does not offer ("not offered here", polling/notOffered.ts) is complete
 *   too, shown as the poll's skip reason, and the target is not asked again for a day
 *   (NOT_OFFERED_RETRY_MS); a poll made of parts holds only the parts concerned (pollParts);
 * - a paging error is a failure, counted by endpoint and reason, after which the target is held
 *   as after a permanent failure (the scheduler's back-off: 2, 4, 8 ... intervals, at most 30
 *   minutes, then asked again): a server that does not page as documented does so next cycle
 *   too, and each attempt may cost up to MAX_PAGES requests of the endpoint's budget;
 * - anything else is a failure.
 * A failed or refused poll leaves the target's last good samples in place: they age out at
 * their staleness bound. A poll whose endpoint is not offered drops them at once.
 */
export async function runPoll(
  ctx: PollContext,
  poll: PollTarget,
  run: (progress: PollRun) => Promise<void>,
): Promise<RunOutcome> {
  const { collector, target } = poll;
  const offers = ctx.health.notOffered;
  // Held: its health stays as the refusal left it (up, and why nothing is asked).
  if (ctx.health.waitsForPlan(collector, target) || offers.wholeHeld(poll, ctx.now())) return "ok";
  const started = performance.now();
  let failed = 0;
  let firstFailure: unknown;
  let skipped: string | null = null;
  const progress: PollRun = {
    partialFailure: (err) => {
      if (err instanceof PagingError) ctx.self.pagingError(err.endpoint, err.reason);
      if (failed++ === 0) firstFailure = err;
    },
    skip: (reason) => {
      skipped = reason;
    },
  };
  const complete = (): RunOutcome => {
    ctx.health.success(collector, target);
    ctx.health.partial(collector, target, failed, firstFailure);
    ctx.health.skipped(collector, target, skipped);
    return "ok";
  };
  try {
    await run(progress);
    offers.releaseWhole(poll);
    return complete();
  } catch (err) {
    if (err instanceof PagingError) ctx.self.pagingError(err.endpoint, err.reason);
    switch (refusalOf(err)) {
      case "not_permitted":
        ctx.health.notPermitted(collector, target, poll.credential, poll.role);
        return "ok";
      case "plan_refused":
        ctx.health.planRefused(collector, target, err);
        return "ok";
      case "not_offered":
        // What it listed before is not what the server has now: its series go with the
        // endpoint, as a part's do (parts.ts), instead of showing, up, until their staleness bound.
        ctx.store.delete({ collector, target, slot: "data" });
        skipped = offers.holdWhole(poll, ctx.now(), err);
        return complete();
      default:
        ctx.health.failure(collector, target, err);
        return isPermanent(err) || err instanceof PagingError ? "permanent_failure" : "failed";
    }
  } finally {
    const seconds = (performance.now() - started) / 1000;
    ctx.self.collectorRun(collector, seconds);
    ctx.health.timed(collector, target, seconds);
  }
}

/** Writes one mapping as the "data" slice of a target and counts what it dropped. */
export function putData(
  ctx: PollContext,
  collector: string,
  target: string,
  mapping: MappingResult,
  ttlMs: number | null,
): void {
  ctx.store.put({ collector, target, slot: "data" }, mapping.families, mapping.samples, ttlMs);
  ctx.self.dropped(mapping.dropped);
}

/** Concatenates mappings of one target (their series never overlap by construction). */
export function mergeMappings(...parts: readonly MappingResult[]): MappingResult {
  const dropped: Partial<Record<keyof MappingResult["dropped"], number>> = {};
  for (const p of parts) {
    for (const [reason, n] of Object.entries(p.dropped) as [keyof typeof dropped, number][]) {
      dropped[reason] = (dropped[reason] ?? 0) + n;
    }
  }
  const families = new Map(parts.flatMap((p) => p.families.map((f) => [f.name, f] as const)));
  return { samples: parts.flatMap((p) => p.samples), families: [...families.values()], dropped };
}
