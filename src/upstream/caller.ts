/**
 * One logical upstream call, shared by every client (control plane and data plane): rate-limit
 * turn -> connection slot -> HTTP request -> envelope -> schema -> normalize; a failure goes
 * through the retry policy, and the last error is thrown (as `not_offered` where the endpoint's
 * declaration says a server may not offer it, and the answer says it does not). Every attempt,
 * retry, rate-limit answer and schema error is reported to the observer. What differs between
 * clients (where a request goes, which limiter key it draws from) is passed in.
 */
import { checkItemCount, validateData } from "./boundedRead.js";
import type { EndpointDef, RequestSpec } from "./endpoints/define.js";
import { unwrapEnvelope, unwrapOptionalEnvelope, unwrapWholeEnvelope } from "./envelope.js";
import { attemptOutcome, CloudError } from "./errors.js";
import { PagingError } from "./pagingError.js";
import type { Lane, Permit, RateLimiter } from "./rateLimiter.js";
import { type RetryPolicyOptions, retryDelayMs } from "./retry.js";
import type { SleepFn } from "./sleep.js";
import type { TimedRequest, Transport } from "./transport.js";
import type { ClientObserver, EndpointTemplate } from "./types.js";
import { notOfferedAtAny, notOfferedError } from "./unknownEndpoint.js";

/**
 * The longest pause a Retry-After can impose on an endpoint: a bogus value (hours) must not
 * silence a collector; a minute covers every documented interval.
 */
export const MAX_RATE_LIMIT_PAUSE_MS = 60_000;

/** What a caller is built from; every member is owned by the client that builds it. */
interface CallerOptions {
  readonly transport: Transport;
  readonly limiter: RateLimiter;
  /** Already made safe (a throwing observer must not fail a call). */
  readonly observer: ClientObserver;
  /** Applied to upstream messages before they become part of an error message. */
  readonly redact: (text: string) => string;
  /** Where a request goes; throws for a request that cannot be addressed. */
  readonly resolveUrl: (spec: RequestSpec) => URL;
  /** The limiter key of an endpoint: the endpoint itself unless a client says otherwise. */
  readonly limiterKey?: (endpoint: EndpointTemplate) => string;
  /** Reclassifies an upstream error before the retry decision (a plane's own error codes). */
  readonly mapError?: (error: CloudError) => CloudError;
  readonly retry: RetryPolicyOptions;
  readonly random: () => number;
  readonly sleep: SleepFn;
  readonly now: () => number;
  /** Pause after a rate-limit answer without Retry-After. */
  readonly rateLimitPauseMs: number;
  /**
   * Awaited between slices of a long answer's validation, so the exporter's own answers go
   * first (shared/foreground.ts). Undefined: go on at once.
   */
  readonly turn?: () => Promise<void> | undefined;
}

/**
 * How a call is made besides its endpoint and arguments. `lane`: its limiter queue (a background
 * call waits behind every other call of its limiter key). `timed`: a probe of the service, made
 * once (a retry would hide the failure it measures), with its own time limit, and its time on
 * the wire reported to `onWire` (ms) when an answer came.
 */
export interface CallOptions {
  readonly lane?: Lane;
  readonly timed?: TimedRequest & { readonly onWire: (ms: number) => void };
}

/** Runs one endpoint call with its retries. Rejects with a CloudError. */
type Call = <A, D, R>(
  def: EndpointDef<A, D, R, EndpointTemplate>,
  args: A,
  signal?: AbortSignal,
  options?: CallOptions,
) => Promise<R>;

/** Builds the call function of one client. */
export function createCaller(o: CallerOptions): Call {
  const keyOf = o.limiterKey ?? ((endpoint: EndpointTemplate) => endpoint);

  function aborted(endpoint: EndpointTemplate, cause: unknown): CloudError {
    return new CloudError("aborted", `${endpoint}: aborted`, { endpoint, cause });
  }

  /**
   * One attempt: request, envelope, schema, normalize. The transport calls `onSend` when the
   * request leaves (a connection slot held).
   */
  async function attemptOnce<A, D, R>(
    def: EndpointDef<A, D, R, EndpointTemplate>,
    args: A,
    spec: RequestSpec,
    url: URL,
    signal: AbortSignal | undefined,
    onSend: () => void,
    timed: CallOptions["timed"],
  ): Promise<R> {
    const endpoint = def.endpoint;
    const res = await o.transport.send(
      {
        endpoint,
        method: spec.method,
        url,
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...(timed === undefined ? {} : { timed: { timeoutMs: timed.timeoutMs } }),
      },
      signal,
      onSend,
    );
    if (res.wireMs !== undefined) timed?.onWire(res.wireMs);
    // A bare payload is accepted only with a success status: an error page is never data.
    const optional = def.envelope === "optional" && res.status >= 200 && res.status < 300;
    const unwrap =
      def.envelope === "whole" ? unwrapWholeEnvelope : optional ? unwrapOptionalEnvelope : unwrapEnvelope;
    const data = unwrap(res.body, {
      endpoint,
      httpStatus: res.status,
      redact: o.redact,
      ...(res.retryAfterMs === undefined ? {} : { retryAfterMs: res.retryAfterMs }),
    });
    checkItemCount(def, args, data, res.status);
    const parsed = await validateData(def.schema, data, o.turn);
    if (!parsed.ok) {
      throw new CloudError("schema_error", `${endpoint}: ${parsed.summary}`, {
        endpoint,
        httpStatus: res.status,
      });
    }
    try {
      return def.normalize(parsed.data, args);
    } catch (error) {
      throw new CloudError("schema_error", `${endpoint}: response could not be normalized`, {
        endpoint,
        cause: error,
      });
    }
  }

  /** The attempts at one of the endpoint's paths (`at`, see EndpointDef.build). */
  async function callAt<A, D, R>(
    def: EndpointDef<A, D, R, EndpointTemplate>,
    args: A,
    signal: AbortSignal | undefined,
    options: CallOptions,
    at: number,
  ): Promise<R> {
    const endpoint = def.endpoint;
    const key = keyOf(endpoint);
    let spec: RequestSpec;
    let url: URL;
    try {
      spec = def.build(args, at);
      url = o.resolveUrl(spec);
    } catch (error) {
      // A request that cannot be expressed is a configuration problem: retrying cannot help.
      const detail = error instanceof Error ? o.redact(error.message) : "invalid arguments";
      throw new CloudError("api_error", `${endpoint}: cannot build the request: ${detail}`, {
        endpoint,
        cause: error,
      });
    }
    for (let attempt = 0; ; attempt += 1) {
      // The endpoint's turn first, holding nothing: a request that waits for its endpoint's
      // budget keeps no connection slot from another endpoint whose budget is free. The permit
      // counts the request from when it leaves (a slot may still keep it waiting), so requests
      // that left late never go out faster than the budget.
      let permit: Permit;
      try {
        permit = await o.limiter.grant(key, signal, options.lane);
      } catch (error) {
        // Aborted before its turn: nothing was sent, so there is no attempt to count.
        throw aborted(endpoint, error);
      }
      let started = o.now();
      let sent = false;
      const onSend = (): void => {
        permit.sent();
        sent = true;
        started = o.now();
      };
      let failure: CloudError;
      try {
        const result = await attemptOnce(def, args, spec, url, signal, onSend, options.timed);
        o.observer.attempt(endpoint, "success", (o.now() - started) / 1000);
        return result;
      } catch (error) {
        // Aborted before it left: nothing was sent, so there is no attempt to count.
        if (!sent && signal?.aborted) throw aborted(endpoint, error);
        if (error instanceof PagingError) {
          // A page longer than asked: the server does not page as asked, and asking again
          // would only read as much again. The pager's caller counts it as a paging error.
          o.observer.attempt(endpoint, "schema_error", Math.max(0, o.now() - started) / 1000);
          throw error;
        }
        failure =
          error instanceof CloudError
            ? (o.mapError?.(error) ?? error)
            : signal?.aborted
              ? aborted(endpoint, error)
              : new CloudError("network_error", `${endpoint}: unexpected failure`, {
                  endpoint,
                  cause: error,
                });
      } finally {
        permit.release();
      }
      o.observer.attempt(endpoint, attemptOutcome(failure), Math.max(0, o.now() - started) / 1000);
      if (failure.code === "rate_limited") {
        o.observer.rateLimited(endpoint);
        o.limiter.penalize(
          key,
          Math.min(failure.retryAfterMs ?? o.rateLimitPauseMs, MAX_RATE_LIMIT_PAUSE_MS),
        );
      } else if (failure.code === "schema_error") {
        o.observer.schemaError(endpoint);
      }
      const once = options.timed !== undefined;
      const delay = signal?.aborted || once ? null : retryDelayMs(attempt, failure, o.retry, o.random);
      // What the last answer means is said once the attempts are over: a server that does not
      // offer an endpoint declared `absent` is no failure of the call's (the attempts were
      // counted by what the wire said).
      if (delay === null) throw notOfferedError(failure, def.absent);
      o.observer.retry(endpoint, delay);
      try {
        await o.sleep(delay, signal);
      } catch (error) {
        throw aborted(endpoint, error);
      }
    }
  }

  /** Which path of each endpoint declared with other paths answered last: asked first. */
  const answeredAt = new Map<EndpointTemplate, number>();

  return async function call<A, D, R>(
    def: EndpointDef<A, D, R, EndpointTemplate>,
    args: A,
    signal?: AbortSignal,
    options: CallOptions = {},
  ): Promise<R> {
    if (def.paths.length === 1) return callAt(def, args, signal, options, 0);
    // The path that answered last first, then the others in declared order: a server routes
    // one spelling, and keeps it, so this costs one call more only when the route moves.
    const first = answeredAt.get(def.endpoint) ?? 0;
    const order = [first, ...[...def.paths.keys()].filter((i) => i !== first)];
    const refusals: CloudError[] = [];
    for (const at of order) {
      try {
        const result = await callAt(def, args, signal, options, at);
        answeredAt.set(def.endpoint, at);
        return result;
      } catch (error) {
        if (!(error instanceof CloudError && error.code === "not_offered")) throw error;
        refusals.push(error);
      }
    }
    throw notOfferedAtAny(def.paths, refusals);
  };
}
