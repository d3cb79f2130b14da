/**
 * One chunk of one target: every batch of its queries over the chunk's span, through the same
 * client (rate limiter, retries) and request builder as the live collector, split further when
 * the service refuses a call as too large.
 */

import { isQueryRefusal, resolveBatch } from "../collectors/cluster-metrics/refusedQueries.js";
import { type MetricsTarget, metricsRequest } from "../collectors/cluster-metrics/targets.js";
import type { CloudApi, MetricQuery, MetricResult } from "../upstream/types.js";
import { bucketsIn, type CallSize, isTooManyPoints, type Span, splitSpan } from "./chunks.js";
import type { BackfillRefusals } from "./refused.js";

/** What fetching a chunk uses and reports. */
interface FetchContext {
  readonly client: CloudApi;
  readonly size: CallSize;
  readonly granularityMs: number;
  readonly signal: AbortSignal;
  /** A call was answered. */
  readonly onCall: () => void;
  /** A call was refused as too large (and will be split). */
  readonly onRefused: () => void;
  /** Queries the service refuses, per target, for the whole run. */
  readonly refusals: BackfillRefusals;
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
 * `ctx.size` allows; a call refused as too many points is halved (and so is every later one); a
 * call refused for a query is searched (refusedQueries.ts) and the chunk asked again without it; any
 * other failure, or a refused single bucket, is thrown.
 */
export async function fetchChunk(
  target: MetricsTarget,
  chunk: Span,
  ctx: FetchContext,
): Promise<MetricResult[]> {
  const g = ctx.granularityMs;
  const out: MetricResult[] = [];
  for (const batch of ctx.refusals.batchesOf(target)) {
    const queries = batch.length;
    const pending = splitSpan(chunk, g, ctx.size.bucketsFor(queries));
    for (let piece = pending.shift(); piece !== undefined; piece = pending.shift()) {
      const window = { ...piece, granularityMs: g };
      const send = (qs: readonly MetricQuery[]) =>
        ctx.client.queryClusterMetrics(metricsRequest(target, qs, window), ctx.signal);
      try {
        const results = await send(batch);
        ctx.onCall();
        out.push(...clip(results, piece));
      } catch (err) {
        if (isTooManyPoints(err)) {
          if (!ctx.size.refused(bucketsIn(piece, g), queries)) throw err;
          ctx.onRefused();
          pending.unshift(...splitSpan(piece, g, ctx.size.bucketsFor(queries)));
          continue;
        }
        if (!isQueryRefusal(err)) throw err;
        // A refused query costs only itself, as live: find it, then ask the chunk again without
        // it (the answers of this search cover one piece only).
        const outcome = await resolveBatch(batch, send, err);
        // Nothing found to leave out (a refusal that did not repeat): the chunk fails as it is.
        if (outcome.refused.length === 0 && outcome.switched.size === 0) throw err;
        ctx.refusals.record(target, batch, outcome);
        return fetchChunk(target, chunk, ctx);
      }
    }
  }
  return out;
}
