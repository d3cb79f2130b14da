/**
 * Finding which queries of a refused Query Cluster Metrics request the service objects to.
 * The service refuses a whole request for one name it does not accept ("invalid metric name",
 * "stat is required"), without saying which: halving the request finds the refused ones in
 * about 2 x log2(n) calls per refused query, and the accepted halves' answers are kept, so the
 * rest of the target's metrics are not lost for that cycle. Each refused query is then asked
 * once in its other request form (upstream/catalog.ts `otherForm`). Every call goes through the
 * client, so through its rate limiter.
 */
import { otherForm, queryKey } from "../../upstream/catalog.js";
import { CloudError } from "../../upstream/errors.js";
import type { MetricQuery, MetricResult } from "../../upstream/types.js";

/** Sends one request with these queries (same window and scope for every call of a cycle). */
export type SendQueries = (queries: readonly MetricQuery[]) => Promise<MetricResult[]>;

/** A query the service refused, with what it said. */
export interface Refusal {
  readonly query: MetricQuery;
  readonly message: string;
}

/**
 * Whether an error refuses the request's content: an answer with an error code that is not
 * auth, rate limiting or not-found (those concern the key or the cluster, and every query
 * alike). Network errors, timeouts and server errors are not refusals either.
 */
export function isRefusal(err: unknown): err is CloudError {
  return err instanceof CloudError && (err.code === "api_error" || err.code === "invalid_request");
}

/** The outcome of one batch: what was answered, and which queries were refused. */
export interface Settled {
  readonly results: MetricResult[];
  /** Queries answered, as sent. */
  readonly accepted: MetricQuery[];
  readonly refused: Refusal[];
}

/** The service's own words from a refusal (the client prefixes endpoint and code). */
export function refusalMessage(err: CloudError): string {
  const m = /upstream code -?\d+: (.*)$/s.exec(err.message);
  return (m?.[1] ?? err.message).replace(/ \(the request was rejected as invalid: .*\)$/s, "");
}

async function split(queries: readonly MetricQuery[], send: SendQueries, err: CloudError): Promise<Settled> {
  const [only] = queries;
  if (queries.length === 1 && only !== undefined) {
    return { results: [], accepted: [], refused: [{ query: only, message: refusalMessage(err) }] };
  }
  const middle = Math.ceil(queries.length / 2);
  const left = await settle(queries.slice(0, middle), send);
  const right = await settle(queries.slice(middle), send);
  return {
    results: [...left.results, ...right.results],
    accepted: [...left.accepted, ...right.accepted],
    refused: [...left.refused, ...right.refused],
  };
}

/**
 * Sends `queries` in one request; when it is refused, halves it recursively until every
 * refused query stands alone. Any other failure propagates (the target's poll fails).
 */
export async function settle(queries: readonly MetricQuery[], send: SendQueries): Promise<Settled> {
  if (queries.length === 0) return { results: [], accepted: [], refused: [] };
  try {
    return { results: await send(queries), accepted: [...queries], refused: [] };
  } catch (err) {
    if (!isRefusal(err)) throw err;
    return split(queries, send, err);
  }
}

/** The outcome of a refused batch once resolved. */
export interface Resolved {
  readonly results: MetricResult[];
  /** Refused queries answered in their other form: sent query key -> the form that worked. */
  readonly switched: ReadonlyMap<string, MetricQuery>;
  /** Refused in every form tried, with the service's message for the form sent first. */
  readonly refused: readonly Refusal[];
}

/**
 * Sends one batch (all queries in one request form) and, if it is refused, finds what the
 * service refuses: first the whole batch once in its other form (a server that refuses one
 * form altogether, such as a strict server asked the second form for a collection, costs one
 * call), then halving, then each refused query once in its other form (together, halved again
 * if refused). Failures other than refusals propagate.
 */
export async function resolveBatch(queries: readonly MetricQuery[], send: SendQueries): Promise<Resolved> {
  let first: CloudError;
  try {
    return { results: await send(queries), switched: new Map(), refused: [] };
  } catch (err) {
    if (!isRefusal(err)) throw err;
    first = err;
  }
  const others = queries.map(otherForm);
  const allOthers = others.filter((q): q is MetricQuery => q !== undefined);
  if (queries.length > 1 && allOthers.length === queries.length) {
    try {
      const results = await send(allOthers);
      return {
        results,
        switched: new Map(queries.map((q, i) => [queryKey(q), allOthers[i] as MetricQuery])),
        refused: [],
      };
    } catch (err) {
      if (!isRefusal(err)) throw err;
    }
  }
  const found = await split(queries, send, first);
  const retry = found.refused.flatMap((r) => {
    const other = otherForm(r.query);
    return other === undefined ? [] : [{ refusal: r, other }];
  });
  const second = await settle(
    retry.map((x) => x.other),
    send,
  );
  const acceptedOthers = new Set(second.accepted.map(queryKey));
  const switched = new Map<string, MetricQuery>();
  for (const x of retry) {
    if (acceptedOthers.has(queryKey(x.other))) switched.set(queryKey(x.refusal.query), x.other);
  }
  return {
    results: [...found.results, ...second.results],
    switched,
    refused: found.refused.filter((r) => !switched.has(queryKey(r.query))),
  };
}
