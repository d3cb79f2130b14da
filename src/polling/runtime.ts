import type { Logger } from "pino";
import type { SelfMetrics } from "../exposition/selfMetrics.js";
import type { SampleStore } from "../exposition/store.js";
import type { MappingResult } from "../metrics/sample.js";
import type { RunOutcome } from "../scheduler/scheduler.js";
import { isPermanent } from "./errors.js";
import type { HealthTracker } from "./health.js";

/** What every poller needs; one instance for the life of the process (survives reloads). */
export interface PollContext {
  readonly store: SampleStore;
  readonly health: HealthTracker;
  readonly self: SelfMetrics;
  readonly now: () => number;
  /** For events worth a line of their own (a refused metric query); none in some tests. */
  readonly logger?: Pick<Logger, "warn" | "info">;
}

/**
 * What a poll may report besides success: the service definitely refused `credential` (a
 * credential label, never a key) the permission the collector needs. The poll is complete, so
 * the target stays up and is marked not permitted (HealthTracker.notPermitted).
 */
export interface NotPermitted {
  readonly notPermitted: string;
}

/**
 * Runs one poll of one target: times it, turns any failure into health state and an outcome
 * for the scheduler. `poll` writes its own samples and returns nothing, or `NotPermitted`. A
 * failed poll leaves the target's last good samples in place: they age out at their staleness
 * bound.
 */
export async function runPoll(
  ctx: PollContext,
  collector: string,
  target: string,
  // biome-ignore lint/suspicious/noConfusingVoidType: most polls return nothing (void), a refused one says so
  poll: () => Promise<void | NotPermitted>,
): Promise<RunOutcome> {
  const started = performance.now();
  try {
    const result = await poll();
    if (result === undefined) ctx.health.success(collector, target);
    else ctx.health.notPermitted(collector, target, result.notPermitted);
    return "ok";
  } catch (err) {
    ctx.health.failure(collector, target, err);
    return isPermanent(err) ? "permanent_failure" : "failed";
  } finally {
    ctx.self.collectorRun(collector, (performance.now() - started) / 1000);
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
