/**
 * Queries the service refuses, found during a backfill with the live collector's refusal search
 * (collectors/cluster-metrics/refusedQueries.ts): a refused name costs only itself, as it does live.
 * Per target, the queries still asked (refused ones left out, ones answered only in their other
 * form asked in that form, each form in its own request), and what was refused, for the report.
 */
import { buildMetricQueries } from "../collectors/cluster-metrics/batches.js";
import type { Resolved } from "../collectors/cluster-metrics/refusedQueries.js";
import type { MetricsTarget } from "../collectors/cluster-metrics/targets.js";
import { queryKey } from "../upstream/catalog.js";
import type { MetricQuery } from "../upstream/types.js";

/** One refused query of one target, with the service's message. */
interface RefusedQuery {
  readonly target: string;
  readonly query: MetricQuery;
  readonly message: string;
}

/** What a run learned of refused queries; shared by its workers. */
export class BackfillRefusals {
  private readonly active = new Map<string, readonly (readonly MetricQuery[])[]>();
  private readonly refused: RefusedQuery[] = [];

  /** The requests one span of `target` takes now: its batches, minus what was refused. */
  batchesOf(target: MetricsTarget): readonly (readonly MetricQuery[])[] {
    return this.active.get(target.name) ?? target.batches.map((b) => b.queries);
  }

  /** Applies a resolved refusal of one of `target`'s batches (`sent`) to its later requests. */
  record(target: MetricsTarget, sent: readonly MetricQuery[], outcome: Resolved): void {
    const sentKeys = new Set(sent.map(queryKey));
    const refusedKeys = new Set(outcome.refused.map((r) => queryKey(r.query)));
    const next: MetricQuery[] = [];
    for (const batch of this.batchesOf(target)) {
      for (const q of batch) {
        const key = queryKey(q);
        if (!sentKeys.has(key)) next.push(q);
        else if (!refusedKeys.has(key)) next.push(outcome.switched.get(key) ?? q);
      }
    }
    this.active.set(
      target.name,
      buildMetricQueries(next).map((b) => b.queries),
    );
    for (const r of outcome.refused)
      this.refused.push({ target: target.name, query: r.query, message: r.message });
  }

  /** Every refused query, in the order found. */
  list(): readonly RefusedQuery[] {
    return this.refused;
  }
}
