import type { Logger } from "pino";
import type { SampleStore } from "../exposition/store.js";
import { MappingBuilder } from "../metrics/builder.js";
import { TARGET_SELF_FAMILIES as S } from "../metrics/families.js";
import type { MappingResult } from "../metrics/sample.js";
import { ChangeLog } from "../shared/changeLog.js";
import { HOUR } from "../shared/duration.js";
import { Hold } from "../shared/hold.js";
import { refusalOf } from "../upstream/refusals.js";
import { SharedCauseLog, sharedCauseOf } from "./causes.js";
import { describeError } from "./errors.js";
import { NotOffered } from "./notOffered.js";
import type { TaskId } from "./taskId.js";

/** What the landing page shows of one target. */
interface TargetHealth {
  readonly collector: string;
  readonly target: string;
  /** null until the first attempt finished. */
  readonly up: boolean | null;
  readonly lastAttemptMs: number | null;
  readonly lastSuccessMs: number | null;
  readonly consecutiveFailures: number;
  /** Stable error code and a message that never contains secrets. */
  readonly lastError: { readonly code: string; readonly message: string } | null;
  /**
   * The credential (its label, never the key) the service refused this collector's calls for
   * lack of permission at the last poll; null otherwise. Such a poll is complete (up), not failed.
   */
  readonly notPermitted: string | null;
  /**
   * When the service last refused this collector's calls for the cluster's plan or kind
   * (dedicated clusters only, enterprise plan only); null otherwise. Such a poll is complete
   * (up), and the target is not asked again for PLAN_RETRY_MS, or until its plan changes.
   */
  readonly planRefusedAtMs: number | null;
  /**
   * A call of the last poll that failed without failing the poll (one job's progress, one
   * job's detail): shown, so that no failed call goes unseen; null when every call answered.
   */
  readonly partialError: { readonly code: string; readonly message: string } | null;
  /**
   * Why the last poll asked the service nothing on purpose (its data comes from elsewhere), in
   * words for the landing page; null when it asked.
   */
  readonly skipped: string | null;
  /** How long its last poll took, in seconds, retries and rate-limit waits included; null before one ended. */
  readonly lastPollSeconds: number | null;
}

/** How long a target refused for its plan waits before it is asked again (unless its plan changes). */
export const PLAN_RETRY_MS = HOUR;

/** Why a credential lacks permission, for its one log line ("the Billing Admin role", ...). */
export type RoleHint = string | undefined;

/** A target's health as kept: the plan refusal is a hold, shown as when it came. */
type Mutable = { -readonly [K in Exclude<keyof TargetHealth, "planRefusedAtMs">]: TargetHealth[K] } & {
  readonly planHold: Hold;
};

/**
 * Keeps per-target health, writes `vdbcloud_collector_up` and
 * `vdbcloud_collector_last_success_timestamp_seconds` into the store (a slot that never goes
 * stale while the target exists), and logs a target's failures once per change of state
 * (up -> failing, one error code -> another, failing -> recovered), not once per cycle. A
 * failure many targets share (a refused key, an unreachable server) is logged once for all of
 * them by {@link SharedCauseLog}; their own lines go to debug.
 */
export class HealthTracker {
  /** What each target's servers do not offer, held a day (runPoll and pollParts read it). */
  readonly notOffered = new NotOffered();
  private readonly targets = new Map<string, Mutable>();
  private credentials = new Map<string, string>();
  /** The scheduled targets in `setScheduled`'s order, each with its health once a poll ended. */
  private scheduled: readonly ScheduledSlot[] = [];
  private plannedByKey = new Map<string, ScheduledSlot>();
  /**
   * What was last logged of each target (null: nothing to say): the code it fails with, the code
   * of its last poll's failed calls, why its last poll was skipped.
   */
  private readonly told = {
    failing: new ChangeLog<string | null>({ quiet: null }),
    partial: new ChangeLog<string | null>({ quiet: null }),
    skipped: new ChangeLog<string | null>({ quiet: null }),
  };

  constructor(
    private readonly store: SampleStore,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    private readonly causes: SharedCauseLog = new SharedCauseLog(logger),
  ) {}

  /** The credential label of each scheduled task, so a refused key can be named (never the key). */
  setCredentials(tasks: ReadonlyArray<{ readonly id: TaskId; readonly credential: string }>): void {
    this.credentials = new Map(tasks.map((t) => [key(t.id.collector, t.id.target), t.credential]));
  }

  success(collector: string, target: string): void {
    const h = this.succeeded(collector, target, null);
    h.planHold.release();
    this.write(h);
  }

  /**
   * A poll that ended with the service's definite answer that `credential` lacks the permission
   * the collector needs: the poll is complete, so `vdbcloud_collector_up` stays 1 (it says
   * whether polling works, and it does), and `vdbcloud_collector_not_permitted` 1 says why no
   * data comes. One warning per collector and credential when the first of its targets is
   * refused, and one line when the last of them is permitted again, however many targets and
   * cycles share it.
   */
  notPermitted(collector: string, target: string, credential: string, role?: RoleHint): void {
    const first = !this.anyNotPermitted(collector, credential);
    const h = this.succeeded(collector, target, credential);
    h.planHold.release();
    this.write(h);
    if (first) {
      this.logger.warn(
        { collector, credential },
        `credential lacks the permission this collector needs${role === undefined ? "" : ` (${role})`}; its data is not collected`,
      );
    }
  }

  /**
   * A poll the service refused for the cluster's plan or kind: complete (up, not failed), logged
   * once at info, and not asked again for PLAN_RETRY_MS (see `waitsForPlan`) or until
   * `planChanged` says the cluster's plan moved.
   */
  planRefused(collector: string, target: string, err: unknown): void {
    const h = this.succeeded(collector, target, null);
    const first = h.planHold.hold(this.now(), PLAN_RETRY_MS);
    this.write(h);
    if (first) {
      this.logger.info(
        { collector, target, err: describeError(err).message },
        "refused for the cluster's plan: not a failure; asked again in an hour, or when its plan changes",
      );
    }
  }

  /** Whether the target was refused for its plan less than PLAN_RETRY_MS ago (its poll then waits). */
  waitsForPlan(collector: string, target: string): boolean {
    return this.targets.get(key(collector, target))?.planHold.isHeld(this.now()) ?? false;
  }

  /** The cluster's plan changed: every target of it refused for its plan is asked again now. */
  planChanged(clusterId: string): void {
    for (const h of this.targets.values()) if (h.target === clusterId) h.planHold.release();
  }

  /**
   * What failed of the last complete poll without failing it: `failed` calls, the first with
   * `err`; none when `failed` is 0. Shown on the landing page, and logged when it starts or its
   * error code changes (not every cycle).
   */
  partial(collector: string, target: string, failed: number, err: unknown): void {
    const h = this.entry(collector, target);
    const error = failed === 0 ? null : describeError(err);
    if (this.told.partial.changed(key(collector, target), error?.code ?? null) && error !== null) {
      this.logger.warn(
        { collector, target, failed_calls: failed, code: error.code, err: error.message },
        "calls of the poll failed; the rest of its data is shown",
      );
    }
    h.partialError =
      error === null ? null : { code: error.code, message: `${failed} call(s) failed: ${error.message}` };
  }

  /**
   * Why the last complete poll asked nothing (`reason`), or null when it asked: shown on the
   * landing page, logged at info when it starts or its reason changes.
   */
  skipped(collector: string, target: string, reason: string | null): void {
    const h = this.entry(collector, target);
    if (this.told.skipped.changed(key(collector, target), reason) && reason !== null)
      this.logger.info({ collector, target, reason }, "poll skipped");
    h.skipped = reason;
  }

  /** How long the poll that just ended took (see `lastPollSeconds`); a forgotten target stays forgotten. */
  timed(collector: string, target: string, seconds: number): void {
    const h = this.targets.get(key(collector, target));
    if (h) h.lastPollSeconds = seconds;
  }

  private anyNotPermitted(collector: string, credential: string): boolean {
    for (const h of this.targets.values()) {
      if (h.collector === collector && h.notPermitted === credential) return true;
    }
    return false;
  }

  private succeeded(collector: string, target: string, notPermitted: string | null): Mutable {
    const h = this.entry(collector, target);
    const was = h.notPermitted;
    const now = this.now();
    const k = key(collector, target);
    const shared = this.causes.recovered(k);
    if (this.told.failing.changed(k, null)) {
      this.logger[shared ? "debug" : "info"](
        { collector, target, after_failures: h.consecutiveFailures },
        "target recovered",
      );
    }
    h.up = true;
    h.lastAttemptMs = now;
    h.lastSuccessMs = now;
    h.consecutiveFailures = 0;
    h.lastError = null;
    h.notPermitted = notPermitted;
    if (was !== null && was !== notPermitted && !this.anyNotPermitted(collector, was)) {
      this.logger.info({ collector, credential: was }, "credential permitted again");
    }
    return h;
  }

  failure(collector: string, target: string, err: unknown): void {
    const h = this.entry(collector, target);
    const error = describeError(err);
    const k = key(collector, target);
    const shared = this.causes.failed(k, sharedCauseOf(err, this.credentials.get(k)));
    if (this.told.failing.changed(k, error.code)) {
      // A refused key says so: it is not a missing role, and it will not pass by itself.
      const refused =
        refusalOf(err) === "key_refused" ? { cause: "API key refused (invalid or expired)" } : {};
      this.logger[shared ? "debug" : "warn"](
        { collector, target, code: error.code, err: error.message, ...refused },
        "target failing",
      );
    }
    h.up = false;
    h.lastAttemptMs = this.now();
    h.consecutiveFailures++;
    h.lastError = error;
    h.notPermitted = null;
    h.planHold.release();
    h.partialError = null;
    h.skipped = null;
    this.told.partial.record(k, null);
    this.told.skipped.record(k, null);
    this.write(h);
  }

  /** Forgets a target (removed from the config, or a finished job past retention). */
  remove(collector: string, target: string): void {
    const k = key(collector, target);
    this.causes.recovered(k);
    this.notOffered.forget({ collector, target });
    for (const log of Object.values(this.told)) log.forget(k);
    if (this.targets.delete(k)) {
      const slot = this.plannedByKey.get(k);
      if (slot !== undefined) slot.health = undefined;
      this.store.delete({ collector, target, slot: "health" });
    }
  }

  /** Keeps only the given targets of `collector`; returns the ones removed. */
  retain(collector: string, keep: ReadonlySet<string>): string[] {
    const removed: string[] = [];
    for (const h of [...this.targets.values()]) {
      if (h.collector === collector && !keep.has(h.target)) {
        this.remove(collector, h.target);
        removed.push(h.target);
      }
    }
    return removed;
  }

  /** Every known target's health, in no set order. */
  list(): TargetHealth[] {
    return [...this.targets.values()].map(shown);
  }

  /**
   * The targets the scheduler runs, in the order `listScheduled` gives them. Each is looked up
   * here, once per rebuild of the tasks, and kept up to date as targets become known or are forgotten, so that
   * listing thousands of them takes no lookup.
   */
  setScheduled(ids: readonly TaskId[]): void {
    this.plannedByKey = new Map();
    this.scheduled = ids.map(({ collector, target }) => {
      const k = key(collector, target);
      const slot: ScheduledSlot = { collector, target, health: this.targets.get(k) };
      this.plannedByKey.set(k, slot);
      return slot;
    });
  }

  /**
   * The scheduled targets in `setScheduled`'s order, each no poll has ended for yet pending (up null;
   * at start-up, most of them), then any target known but not scheduled.
   */
  listScheduled(): TargetHealth[] {
    const out: TargetHealth[] = [];
    let known = 0;
    for (const slot of this.scheduled) {
      if (slot.health === undefined) {
        out.push(shown(pending(slot.collector, slot.target)));
      } else {
        known++;
        out.push(shown(slot.health));
      }
    }
    if (known < this.targets.size) {
      for (const [k, h] of this.targets) if (!this.plannedByKey.has(k)) out.push(shown(h));
    }
    return out;
  }

  private entry(collector: string, target: string): Mutable {
    const k = key(collector, target);
    let h = this.targets.get(k);
    if (!h) {
      h = pending(collector, target);
      this.targets.set(k, h);
      const slot = this.plannedByKey.get(k);
      if (slot !== undefined) slot.health = h;
    }
    return h;
  }

  private write(h: Mutable): void {
    const m = collectorUpSamples(
      h.collector,
      h.target,
      h.up === true,
      h.lastSuccessMs === null ? null : h.lastSuccessMs / 1000,
      h.notPermitted,
    );
    this.store.put({ collector: h.collector, target: h.target, slot: "health" }, m.families, m.samples, null);
  }
}

/** A scheduled target, and its health once a poll of it ended. */
interface ScheduledSlot {
  readonly collector: string;
  readonly target: string;
  health: Mutable | undefined;
}

/** A target no poll has ended for. */
function pending(collector: string, target: string): Mutable {
  return {
    collector,
    target,
    up: null,
    lastAttemptMs: null,
    lastSuccessMs: null,
    consecutiveFailures: 0,
    lastError: null,
    notPermitted: null,
    planHold: new Hold(),
    partialError: null,
    lastPollSeconds: null,
    skipped: null,
  };
}

/** What the landing page gets of a target: a copy, its plan hold shown as when it began. */
function shown({ planHold, ...h }: Mutable): TargetHealth {
  return { ...h, planRefusedAtMs: planHold.sinceMs };
}

function key(collector: string, target: string): string {
  return `${collector}\u0000${target}`;
}

/**
 * vdbcloud_collector_up{collector,target} (1 when `up`, else 0), when the target ever
 * succeeded, vdbcloud_collector_last_success_timestamp_seconds{collector,target}, and, while
 * the service refuses `notPermitted` (a credential label) the permission the collector needs,
 * vdbcloud_collector_not_permitted{collector,target,credential} 1.
 */
export function collectorUpSamples(
  collector: string,
  target: string,
  up: boolean,
  lastSuccessSeconds: number | null,
  notPermitted: string | null = null,
): MappingResult {
  const out = new MappingBuilder();
  const labels = { collector, target };
  out.add(S.collectorUp, labels, up ? 1 : 0);
  if (lastSuccessSeconds !== null) out.add(S.collectorLastSuccess, labels, lastSuccessSeconds);
  if (notPermitted !== null) out.add(S.collectorNotPermitted, { ...labels, credential: notPermitted }, 1);
  return out.result();
}
