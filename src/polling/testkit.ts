/**
 * A poll context for collector tests: a store that keeps each target's last samples, health
 * that records failures, a settable clock and a logger that records warnings. Used by tests
 * only; production code never imports this module.
 */
import type { Sample } from "../metrics/sample.js";
import { NotOffered } from "./notOffered.js";
import type { PollContext } from "./runtime.js";

interface SpyContext {
  readonly ctx: PollContext;
  /** The last samples put for a target's data slot, with their TTL; undefined once deleted. */
  readonly data: Map<string, { readonly samples: readonly Sample[]; readonly ttlMs: number | null }>;
  readonly failures: unknown[];
  /** Calls that failed without failing their poll, as runPoll reported them (count, first error). */
  readonly partials: { readonly target: string; readonly failed: number; readonly err: unknown }[];
  readonly warnings: { readonly fields: unknown; readonly message: string }[];
  /** Why each target's last poll asked nothing, as runPoll reported it (null: it asked). */
  readonly skipped: Map<string, string | null>;
  setNow(ms: number): void;
}

/** Creates a SpyContext whose clock starts at `nowMs`. */
export function spyContext(nowMs: number): SpyContext {
  let now = nowMs;
  const data: SpyContext["data"] = new Map();
  const failures: unknown[] = [];
  const partials: SpyContext["partials"] = [];
  const warnings: SpyContext["warnings"] = [];
  const skipped: SpyContext["skipped"] = new Map();
  const ctx = {
    store: {
      put: (key: { target: string }, _families: unknown, samples: readonly Sample[], ttlMs: number | null) =>
        data.set(key.target, { samples, ttlMs }),
      delete: (key: { target: string }) => data.delete(key.target),
    },
    health: {
      success: () => {},
      failure: (_c: string, _t: string, err: unknown) => failures.push(err),
      partial: (_c: string, target: string, failed: number, err: unknown) => {
        if (failed > 0) partials.push({ target, failed, err });
      },
      skipped: (_c: string, target: string, reason: string | null) => skipped.set(target, reason),
      timed: () => {},
      waitsForPlan: () => false,
      notOffered: new NotOffered(),
      planChanged: () => {},
      remove: () => {},
    },
    self: { collectorRun: () => {}, dropped: () => {}, invalidIds: () => {} },
    now: () => now,
    logger: {
      warn: (fields: unknown, message: string) => warnings.push({ fields, message }),
      info: () => {},
    },
  } as unknown as PollContext;
  return {
    ctx,
    data,
    failures,
    partials,
    warnings,
    skipped,
    setNow: (ms) => {
      now = ms;
    },
  };
}
