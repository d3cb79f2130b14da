import type { Logger } from "pino";
import type { SampleStore } from "../exposition/store.js";
import { MappingBuilder } from "../metrics/builder.js";
import { TARGET_SELF_FAMILIES as S } from "../metrics/families.js";
import type { MappingResult } from "../metrics/sample.js";
import { SharedCauseLog, sharedCauseOf } from "./causes.js";
import { describeError, isReported } from "./errors.js";
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
}

type Mutable = { -readonly [K in keyof TargetHealth]: TargetHealth[K] };

/**
 * Keeps per-target health, writes `vdbcloud_collector_up` and
 * `vdbcloud_collector_last_success_timestamp_seconds` into the store (a slot that never goes
 * stale while the target exists), and logs a target's failures once per change of state
 * (up -> failing, one error code -> another, failing -> recovered), not once per cycle. A
 * failure many targets share (a refused key, an unreachable server) is logged once for all of
 * them by {@link SharedCauseLog}; their own lines go to debug.
 */
export class HealthTracker {
  private readonly targets = new Map<string, Mutable>();
  private credentials = new Map<string, string>();

  constructor(
    private readonly store: SampleStore,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    private readonly causes: SharedCauseLog = new SharedCauseLog(logger),
  ) {}

  /** The credential label of each planned task, so a refused key can be named (never the key). */
  setCredentials(tasks: ReadonlyArray<{ readonly id: TaskId; readonly credential: string }>): void {
    this.credentials = new Map(tasks.map((t) => [key(t.id.collector, t.id.target), t.credential]));
  }

  success(collector: string, target: string): void {
    this.succeeded(collector, target, null);
  }

  /**
   * A poll that ended with the service's definite answer that `credential` lacks the permission
   * the collector needs: the poll is complete, so `vdbcloud_collector_up` stays 1 (it says
   * whether polling works, and it does), and `vdbcloud_collector_not_permitted` 1 says why no
   * data comes. The collector logs the refusal itself, once per credential (not per target).
   */
  notPermitted(collector: string, target: string, credential: string): void {
    this.succeeded(collector, target, credential);
  }

  private succeeded(collector: string, target: string, notPermitted: string | null): void {
    const h = this.entry(collector, target);
    const now = this.now();
    const shared = this.causes.recovered(key(collector, target));
    if (h.up === false) {
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
    this.write(h);
  }

  failure(collector: string, target: string, err: unknown): void {
    const h = this.entry(collector, target);
    const error = describeError(err);
    const k = key(collector, target);
    const shared = this.causes.failed(k, sharedCauseOf(err, this.credentials.get(k)));
    if (h.up !== false || h.lastError?.code !== error.code) {
      this.logger[shared || isReported(err) ? "debug" : "warn"](
        { collector, target, code: error.code, err: error.message },
        "target failing",
      );
    }
    h.up = false;
    h.lastAttemptMs = this.now();
    h.consecutiveFailures++;
    h.lastError = error;
    h.notPermitted = null;
    this.write(h);
  }

  /** Forgets a target (removed from the config, or a finished job past retention). */
  remove(collector: string, target: string): void {
    this.causes.recovered(key(collector, target));
    if (this.targets.delete(key(collector, target))) {
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

  list(): TargetHealth[] {
    return [...this.targets.values()].map((h) => ({ ...h }));
  }

  private entry(collector: string, target: string): Mutable {
    const k = key(collector, target);
    let h = this.targets.get(k);
    if (!h) {
      h = {
        collector,
        target,
        up: null,
        lastAttemptMs: null,
        lastSuccessMs: null,
        consecutiveFailures: 0,
        lastError: null,
        notPermitted: null,
      };
      this.targets.set(k, h);
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
