/**
 * Finding which queries of a refused Query Cluster Metrics request the service objects to.
 * The service refuses a whole request for one name it does not accept ("invalid metric name",
 * "stat is required"), without saying which: halving the request finds the refused ones in
 * about 2 x log2(n) calls per refused query, and the accepted halves' answers are kept, so the
 * rest of the target's metrics are not lost for that cycle. Each refused query is then asked
 * once in its other request form (upstream/catalog.ts `otherForm`). Every call goes through the
 * client, so through its rate limiter.
 */
import { formOfQuery, listedIn, otherForm, queryKey } from "../../upstream/catalog.js";
import { CloudError } from "../../upstream/errors.js";
import type { MetricQuery, MetricResult } from "../../upstream/types.js";

/** Sends one request with these queries (same window and scope for every call of a cycle). */
export type SendQueries = (queries: readonly MetricQuery[]) => Promise<MetricResult[]>;

/** A query the service refused, with what it said. */
export interface QueryRefusal {
  readonly query: MetricQuery;
  readonly message: string;
}

/**
 * Whether an error refuses the request's content: an answer with an error code that is not
 * auth, rate limiting or not-found (those concern the key or the cluster, and every query
 * alike). Network errors, timeouts and server errors are not refusals either.
 */
export function isQueryRefusal(err: unknown): err is CloudError {
  return err instanceof CloudError && (err.code === "api_error" || err.code === "invalid_request");
}

/** The outcome of one batch: what was answered, and which queries were refused. */
interface Settled {
  readonly results: MetricResult[];
  /** Queries answered, as sent. */
  readonly accepted: MetricQuery[];
  readonly refused: QueryRefusal[];
}

/** The service's own words from a refusal (the client prefixes endpoint and code). */
function refusalMessage(err: CloudError): string {
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
    if (!isQueryRefusal(err)) throw err;
    return split(queries, send, err);
  }
}

/** The outcome of a refused batch once resolved. */
export interface Resolved {
  readonly results: MetricResult[];
  /** Refused queries answered in their other form: sent query key -> the form that worked. */
  readonly switched: ReadonlyMap<string, MetricQuery>;
  /** Refused in every form tried, with the service's message for the form sent first. */
  readonly refused: readonly QueryRefusal[];
  /**
   * Queries of a batch answered in the other form that the other form's reference does not
   * list: not asked again this cycle (the key's form decides the next).
   */
  readonly unasked?: readonly MetricQuery[];
}

/**
 * Sends one batch (all queries in one request form) and, if it is refused, finds what the
 * service refuses: first the whole batch once in its other form (a server that refuses one
 * form altogether, such as a server asked a form it does not speak, costs one
 * call), then halving, then each refused query once in its other form (together, halved again
 * if refused). Failures other than refusals propagate. `refusedAlready`: the batch was just sent
 * and refused with this error, so it is not sent again.
 */
export async function resolveBatch(
  queries: readonly MetricQuery[],
  send: SendQueries,
  refusedAlready?: CloudError,
): Promise<Resolved> {
  let first: CloudError;
  if (refusedAlready !== undefined) first = refusedAlready;
  else {
    try {
      return { results: await send(queries), switched: new Map(), refused: [] };
    } catch (err) {
      if (!isQueryRefusal(err)) throw err;
      first = err;
    }
  }
  if (queries.length > 1) {
    const moved = await inOtherForm(queries, send);
    if (moved !== undefined) return moved;
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

/**
 * What targets of one group (one credential, one kind of target: cluster or per-collection
 * scope) learned together: the query keys some of them were refused, and one search at a time.
 */
export interface SuspectGroup {
  /** Keys refused on some target of the group. */
  known(): ReadonlySet<string>;
  /** Records what a target of the group was refused. */
  learn(refused: readonly QueryRefusal[]): void;
  /** Runs `search` once no other search of the group runs (they would find the same names). */
  exclusive<T>(search: () => Promise<T>): Promise<T>;
}

/**
 * The whole batch asked once in its other form, when every query has one: those the other
 * form's reference lists (the rest are left unasked: a server of that reference would refuse
 * them); undefined when a query has no other form, none is listed, or that form is refused too
 * (failures other than refusals propagate).
 */
async function inOtherForm(
  queries: readonly MetricQuery[],
  send: SendQueries,
): Promise<Resolved | undefined> {
  const others = queries.map(otherForm);
  // A query with no other form at all keeps the batch where it is (halving finds what is refused).
  if (others.some((o) => o === undefined)) return undefined;
  const pairs = queries.flatMap((q, i) => {
    const other = others[i];
    return other !== undefined && listedIn(other.name, formOfQuery(other)) ? [{ q, other }] : [];
  });
  if (pairs.length === 0) return undefined;
  try {
    const results = await send(pairs.map((p) => p.other));
    const moved = new Set(pairs.map((p) => p.q));
    return {
      results,
      switched: new Map(pairs.map((p) => [queryKey(p.q), p.other])),
      refused: [],
      unasked: queries.filter((q) => !moved.has(q)),
    };
  } catch (err) {
    if (!isQueryRefusal(err)) throw err;
    return undefined;
  }
}

/** The batch (without the suspects) was refused too: a full search is needed. */
interface NeedsSearch {
  readonly search: true;
  /** The refusal of the whole batch, when that is what was sent (it need not be sent again). */
  readonly whole?: CloudError;
}

/**
 * The batch without the suspects, then each suspect alone; a NeedsSearch when the batch
 * without them is refused too (the suspicion is incomplete).
 */
async function aroundSuspects(
  queries: readonly MetricQuery[],
  send: SendQueries,
  group: SuspectGroup,
  suspects: ReadonlySet<string>,
): Promise<Resolved | NeedsSearch> {
  // A server that speaks the other form only is the key's business (forms.ts): it is learned
  // once per key, and asked again hourly, which a shortcut here would never let happen.
  const suspected = queries.filter((q) => suspects.has(queryKey(q)));
  const rest = suspected.length === 0 ? queries : queries.filter((q) => !suspects.has(queryKey(q)));
  let results: MetricResult[] = [];
  if (rest.length > 0) {
    try {
      results = await send(rest);
    } catch (err) {
      if (!isQueryRefusal(err)) throw err;
      return suspected.length === 0 ? { search: true, whole: err } : { search: true };
    }
  }
  // Each suspect alone (and in its other form if refused): another target already found them
  // refused, so asking them together would most likely be refused as a whole first.
  const switched = new Map<string, MetricQuery>();
  const refused: QueryRefusal[] = [];
  for (const query of suspected) {
    const one = await resolveBatch([query], send);
    results = [...results, ...one.results];
    for (const [k, v] of one.switched) switched.set(k, v);
    refused.push(...one.refused);
  }
  group.learn(refused);
  return { results, switched, refused };
}

/**
 * `resolveBatch` guided by what other targets of the same group were refused. Found by halving,
 * a refusal costs about 2 x log2(n) calls per refused query on every target, and the same name is
 * usually refused on each of them. So the batch goes first without the suspects, and each
 * suspect is then asked alone (and in its other form when refused): 1 + 2 calls per suspect. A
 * suspect this target accepts is simply answered (plans differ: a name refused on a free cluster
 * may be served on a dedicated one), so a wrong suspicion costs one call, never data. A full search runs one at a time per group: targets
 * refused meanwhile (every target's first cycle starts at once) wait for it and then use what it
 * found.
 */
export async function resolveWithSuspects(
  queries: readonly MetricQuery[],
  send: SendQueries,
  group: SuspectGroup,
): Promise<Resolved> {
  const knownBefore = group.known().size;
  const first = await aroundSuspects(queries, send, group, new Set(group.known()));
  if (!("search" in first)) return first;
  return group.exclusive(async () => {
    let refused = first.whole;
    if (group.known().size > knownBefore) {
      // Another target's search found names meanwhile: try around them first.
      const again = await aroundSuspects(queries, send, group, new Set(group.known()));
      if (!("search" in again)) return again;
      refused = again.whole;
    }
    const found = await resolveBatch(queries, send, refused);
    group.learn(found.refused);
    return found;
  });
}
