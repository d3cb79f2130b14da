/**
 * The choice between a v2 endpoint and its deprecated v1 predecessor, per target (a cluster, or
 * "global"): v2 first; where v2 is refused as an unknown endpoint, v1 for `retryMs` (an hour by
 * default), then v2 is tried again. Each transition says whether it is the first of its kind
 * for that target, so that the caller logs a fallback once and not every hour.
 */

import { ChangeLog } from "../shared/changeLog.js";
import { HOUR } from "../shared/duration.js";
import { Holds } from "../shared/hold.js";
import { type StateSlot, stateSlot } from "./model.js";

/** Which API a target uses now. */
export type ApiChoice = "v2" | "v1";

/** How long a target stays on v1 after v2 was refused, before v2 is tried again. */
export const V2_RETRY_MS = HOUR;

/** The note of a fallback itself, apart from the callers' notes (no target holds a NUL). */
const FALLBACK = "\u0000fallback";

/**
 * Per-target state of the v2 -> v1 fallback. Memory is bounded by the targets: `retain` forgets
 * the others. Pure state, no I/O: the clock comes in with each call.
 */
export class ApiFallback {
  readonly #retryMs: number;
  /** The targets on v1: v2 held since it was refused. */
  readonly #v2 = new Holds();
  /** Notes already given, as "<target>\0<note>". */
  readonly #notes = new ChangeLog<true>();

  constructor(retryMs: number = V2_RETRY_MS) {
    this.#retryMs = retryMs;
  }

  /** v1 while a refusal of v2 is less than `retryMs` old, else v2. */
  choose(target: string, nowMs: number): ApiChoice {
    return this.#v2.isHeld(target, nowMs) ? "v1" : "v2";
  }

  /**
   * v2 was refused as an unknown endpoint at `nowMs`: the target uses v1 until `retryMs` later.
   * True the first time for this target (the one time to log it).
   */
  refused(target: string, nowMs: number): boolean {
    this.#v2.hold(target, nowMs, this.#retryMs, true);
    return this.firstTime(target, FALLBACK);
  }

  /** v2 answered: the target is back on v2. True when this ends a fallback. */
  accepted(target: string): boolean {
    return this.#v2.release(target);
  }

  /**
   * True the first time `note` is given for `target`: a condition to log once, such as "v2 is
   * refused and there is no region to fall back to".
   */
  firstTime(target: string, note: string): boolean {
    return this.#notes.changed(`${target}\u0000${note}`, true);
  }

  /** Forgets every target not in `targets`, with the notes about it. */
  retain(targets: ReadonlySet<string>): void {
    this.#v2.retain((t) => targets.has(t));
    this.#notes.retain((k) => targets.has(k.slice(0, k.indexOf("\u0000"))));
  }

  /** Targets on v1, or due to try v2 again (for tests and bounds). */
  get size(): number {
    return this.#v2.size;
  }
}

/** A collector's own ApiFallback state, kept across polls and reloads like its other state. */
export function apiFallbackSlot(name: string): StateSlot<ApiFallback> {
  return stateSlot(name, () => new ApiFallback());
}
