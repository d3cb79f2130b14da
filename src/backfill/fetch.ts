/**
 * One chunk of one target: every batch of its queries over the chunk's span, through the same
 * client (rate limiter, retries) and request builder as the live collector, split further when
 * the service refuses a call as too large.
 */

import { type MetricsTarget, metricsRequest } from "../collectors/cluster-metrics/targets.js";
import type { CloudApi, MetricResult } from "../upstream/types.js";
import { bucketsIn, type CallSize, isTooManyPoints, type Span, splitSpan } from "./chunks.js";

/** What fetching a chunk uses and reports. */
export interface FetchContext {
  readonly client: CloudApi;
  readonly size: CallSize;
  readonly granularityMs: number;
  readonly signal: AbortSignal;
  /** A call was answered. */
  readonly onCall: () => void;
  /** A call was refused as too large (and will be split). */
  readonly onRefused: () => void;
}

/** Keeps the points of `span` only: a point outside belongs to the neighbouring call. */
function clip(results: readonly MetricResult[], span: Span): MetricResult[] {
  return results.map((r) => ({
    ...r,
    values: r.values.filter(
      (p) => !Number.isFinite(p.timestampMs) || (p.timestampMs >= span.startMs && p.timestampMs < span.endMs),
    ),
  }));
}

/**
 * The results of every batch of `target` over `chunk`, in order. Calls ask at most what
 * `ctx.size` allows; a call refused as too many points is halved (and so is every later one);
 * any other failure, or a refused single bucket, is thrown.
 */
export async function fetchChunk(
  target: MetricsTarget,
  chunk: Span,
  ctx: FetchContext,
): Promise<MetricResult[]> {
  const g = ctx.granularityMs;
  const out: MetricResult[] = [];
  for (const batch of target.batches) {
    const queries = batch.queries.length;
    const pending = splitSpan(chunk, g, ctx.size.bucketsFor(queries));
    for (let piece = pending.shift(); piece !== undefined; piece = pending.shift()) {
      try {
        const request = metricsRequest(target, batch.queries, { ...piece, granularityMs: g });
        const results = await ctx.client.queryClusterMetrics(request, ctx.signal);
        ctx.onCall();
        out.push(...clip(results, piece));
      } catch (err) {
        if (!isTooManyPoints(err) || !ctx.size.refused(bucketsIn(piece, g), queries)) throw err;
        ctx.onRefused();
        pending.unshift(...splitSpan(piece, g, ctx.size.bucketsFor(queries)));
      }
    }
  }
  return out;
}
