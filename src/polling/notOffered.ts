/**
 * "Not offered here", written once for every poll. An endpoint whose declaration says a server
 * may not offer it (`absent`, upstream/endpoints/define.ts), answered as such, comes as the one
 * refusal rule's `not_offered` (upstream/refusals.ts). That is neither a failure (the target
 * stays up) nor a refusal of the key (never "not permitted"): what asked it is held a day by the
 * framework's one hold (shared/hold.ts), is not asked meanwhile, and the poll says so through its
 * skip reason (the landing page, one info line when it starts or changes). What is held is the
 * whole poll (runPoll), or the hold key of a part (pollParts: parts that share a hold key, such
 * as the projects of one region, are held together), so a server without the endpoint costs one
 * call a day per hold key. The holds live as long as the target's health: a forgotten target's
 * holds go with it.
 */

import { DAY } from "../shared/duration.js";
import { Holds } from "../shared/hold.js";
import { CloudError } from "../upstream/errors.js";
import type { TaskId } from "./taskId.js";

/**
 * How long what a server does not offer waits before it is asked again: a day. A server that
 * answers an endpoint as absent does so the next cycle too (the service removes such endpoints
 * for good, region by region), yet may offer it again, so it is asked daily, not never.
 */
export const NOT_OFFERED_RETRY_MS = DAY;

/** What a poll says of its holds beside what is not offered: why, and when it is asked again. */
const WHY = "the server answers it as absent";

/** The endpoint a `not_offered` refusal names ("" for what is no upstream error). */
function endpointOf(err: unknown): string {
  return err instanceof CloudError ? err.endpoint : "";
}

function keyOf(id: TaskId): string {
  return `${id.collector}\u0000${id.target}`;
}

/**
 * The not-offered holds of every target: of its whole poll, and of its parts by hold key, each
 * with the endpoint not offered. Pure state: the clock comes in with each call.
 */
export class NotOffered {
  /** By target: its whole poll's hold. */
  readonly #whole = new Holds<string>();
  /** By target: its parts' holds by hold key. */
  readonly #parts = new Map<string, Holds<string>>();

  /** Whether the whole poll of `id` is not to be asked at `nowMs`. */
  wholeHeld(id: TaskId, nowMs: number): boolean {
    return this.#whole.isHeld(keyOf(id), nowMs);
  }

  /**
   * The whole poll of `id` was refused as not offered (`err`): held from `nowMs` for
   * NOT_OFFERED_RETRY_MS. Returns its skip reason.
   */
  holdWhole(id: TaskId, nowMs: number, err: unknown): string {
    const endpoint = endpointOf(err);
    this.#whole.hold(keyOf(id), nowMs, NOT_OFFERED_RETRY_MS, endpoint);
    return `not offered here: ${endpoint} (${WHY}; asked again daily)`;
  }

  /** The whole poll of `id` completed: whatever it asks is offered again. */
  releaseWhole(id: TaskId): void {
    this.#whole.release(keyOf(id));
  }

  /** The holds of `id`'s parts by hold key, each keeping the endpoint not offered. */
  parts(id: TaskId): PartHolds {
    const k = keyOf(id);
    let holds = this.#parts.get(k);
    if (holds === undefined) {
      holds = new Holds<string>();
      this.#parts.set(k, holds);
    }
    return new PartHolds(holds);
  }

  /** Forgets every hold of `id` (a target removed). */
  forget(id: TaskId): void {
    const k = keyOf(id);
    this.#whole.release(k);
    this.#parts.delete(k);
  }
}

/** One target's part holds, by hold key, as one poll of its parts reads and updates them. */
export class PartHolds {
  constructor(private readonly holds: Holds<string>) {}

  /** Whether the parts of `holdKey` are not to be asked at `nowMs`. */
  isHeld(holdKey: string, nowMs: number): boolean {
    return this.holds.isHeld(holdKey, nowMs);
  }

  /** A part of `holdKey` was refused as not offered (`err`): held from `nowMs` for NOT_OFFERED_RETRY_MS. */
  hold(holdKey: string, nowMs: number, err: unknown): void {
    this.holds.hold(holdKey, nowMs, NOT_OFFERED_RETRY_MS, endpointOf(err));
  }

  /** A part of `holdKey` answered: its hold key is offered. */
  release(holdKey: string): void {
    this.holds.release(holdKey);
  }

  /**
   * Forgets the hold keys not in `known` (the ones of the poll's parts), then says what the
   * others are, for the poll's skip reason, or null when none is held: sorted, so that it
   * changes, and is logged, only when the set of hold keys does.
   */
  reason(known: ReadonlySet<string>): string | null {
    this.holds.retain((k) => known.has(k));
    const keys = this.holds.keys().sort();
    if (keys.length === 0) return null;
    const endpoints = [...new Set(keys.map((k) => this.holds.get(k)?.value ?? ""))].sort();
    return `not offered here: ${endpoints.join(", ")} for ${keys.join(", ")} (${WHY}; each asked again daily)`;
  }
}
