/**
 * Failures many targets share, logged once. A refused API key fails every target that uses it,
 * an unreachable server (a regional controller, the v2 control plane) every target that calls
 * it: one warning naming the cause (the credential's label, never the key; the server's origin)
 * and how many targets it affects says more than a line per target. The count is logged again
 * only when it changes, once it has settled (targets fail one by one, spread over the polling
 * interval), and an info line says when the cause is gone.
 */
import type { Logger } from "pino";
import { ChangeLog, CoalescingWindow, type WindowTimers } from "../shared/changeLog.js";
import { CloudError } from "../upstream/errors.js";

/** A cause shared by targets: its identity, its log message and the fields that name it. */
interface SharedCause {
  readonly key: string;
  readonly message: string;
  readonly resolved: string;
  readonly fields: Readonly<Record<string, string>>;
}

/**
 * The shared cause of a failure, if it has one: `auth_error` is the credential's fault,
 * `timeout` and `network_error` the server's. `credential` is the task's credential label.
 */
export function sharedCauseOf(err: unknown, credential: string | undefined): SharedCause | undefined {
  if (!(err instanceof CloudError)) return undefined;
  if (err.code === "auth_error" && credential !== undefined) {
    return {
      key: `credential\u0000${credential}`,
      message: "API key refused by the upstream",
      resolved: "API key accepted again",
      fields: { credential },
    };
  }
  if ((err.code === "network_error" || err.code === "timeout") && err.origin !== undefined) {
    return {
      key: `origin\u0000${err.origin}`,
      message: "upstream server unreachable",
      resolved: "upstream server reachable again",
      fields: { origin: err.origin },
    };
  }
  return undefined;
}

/** Timer injection for tests. */
export type CauseLogTimers = WindowTimers;

interface CauseState {
  readonly cause: SharedCause;
  readonly targets: Set<string>;
  readonly window: CoalescingWindow;
}

/** Tracks which targets fail for which shared cause, and logs each cause's count as it settles. */
export class SharedCauseLog {
  private readonly causes = new Map<string, CauseState>();
  /** target key -> cause key it currently fails for. */
  private readonly byTarget = new Map<string, string>();
  /** Cause key -> the number of targets last logged (0: none, or the cause is gone). */
  private readonly logged = new ChangeLog<number>({ quiet: 0 });

  constructor(
    private readonly logger: Logger,
    private readonly settleMs = 5_000,
    private readonly timers?: CauseLogTimers,
  ) {}

  /** Records a target's failure; returns whether a shared cause (logged here) explains it. */
  failed(target: string, cause: SharedCause | undefined): boolean {
    const previous = this.byTarget.get(target);
    if (previous === cause?.key) return cause !== undefined;
    if (previous !== undefined) this.leave(target, previous);
    if (cause === undefined) return false;
    let state = this.causes.get(cause.key);
    if (!state) {
      // Targets fail one by one over the polling interval: the count is logged once it settles.
      const window = new CoalescingWindow(this.settleMs, () => this.flush(cause.key), {
        restart: true,
        timers: this.timers,
      });
      state = { cause, targets: new Set(), window };
      this.causes.set(cause.key, state);
    }
    state.targets.add(target);
    this.byTarget.set(target, cause.key);
    state.window.touch();
    return true;
  }

  /** Records a success (or a removed target); returns whether it was failing for a shared cause. */
  recovered(target: string): boolean {
    const previous = this.byTarget.get(target);
    if (previous === undefined) return false;
    this.leave(target, previous);
    return true;
  }

  private leave(target: string, causeKey: string): void {
    this.byTarget.delete(target);
    const state = this.causes.get(causeKey);
    if (!state) return;
    state.targets.delete(target);
    state.window.touch();
  }

  private flush(causeKey: string): void {
    const state = this.causes.get(causeKey);
    if (!state) return;
    const count = state.targets.size;
    if (count === 0) this.causes.delete(causeKey);
    if (!this.logged.changed(causeKey, count)) return;
    if (count === 0) this.logger.info({ ...state.cause.fields }, state.cause.resolved);
    else this.logger.warn({ ...state.cause.fields, targets: count }, state.cause.message);
  }
}
