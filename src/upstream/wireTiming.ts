/**
 * A request's time on the wire: from the moment undici starts writing it to the moment the
 * answer's last byte is read. undici calls a request's handler `onConnect` just before it writes
 * the request's first byte on a connection that is ready (its pool's queue and the connecting
 * are behind it), and `onComplete` once the answer's last byte has been read from the socket
 * (whoever consumes the body later). Whatever the exporter makes a request wait for before that
 * (its rate limiter, its in-flight cap, the event loop's turn) and after (parsing) is left out:
 * the service is timed, not the exporter's own queues.
 *
 * The handler is wrapped per request (a dispatcher that only dispatches), so nothing global is
 * subscribed and requests that are not timed pay nothing. undici.test.ts and wireTiming.test.ts
 * check that undici still calls these two methods, through a real connection pool and a MockAgent.
 */
import type { Duplex } from "node:stream";
import type { Dispatcher } from "undici";

type Handler = Dispatcher.DispatchHandler;

/** Forwards every handler call to `inner`, noting when the request starts and when its answer ends. */
class TimingHandler implements Handler {
  #startedAt: number | undefined;

  constructor(
    private readonly inner: Handler,
    private readonly clock: () => number,
    private readonly done: (ms: number) => void,
  ) {}

  onConnect(abort: (err?: Error) => void, context?: unknown): void {
    // Called again when the request is retried on another connection: the last start counts.
    this.#startedAt = this.clock();
    (this.inner.onConnect as ((abort: (err?: Error) => void, context?: unknown) => void) | undefined)?.call(
      this.inner,
      abort,
      context,
    );
  }

  onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    return this.inner.onHeaders?.(statusCode, headers, resume, statusText) ?? true;
  }

  onData(chunk: Buffer): boolean {
    return this.inner.onData?.(chunk) ?? true;
  }

  onComplete(trailers: string[] | null): void {
    if (this.#startedAt !== undefined) this.done(Math.max(0, this.clock() - this.#startedAt));
    this.inner.onComplete?.(trailers);
  }

  onError(err: Error): void {
    this.inner.onError?.(err);
  }

  onUpgrade(statusCode: number, headers: Buffer[] | string[] | null, socket: Duplex): void {
    this.inner.onUpgrade?.(statusCode, headers, socket);
  }

  onResponseStarted(): void {
    this.inner.onResponseStarted?.();
  }

  onBodySent(chunkSize: number, totalBytesSent: number): void {
    this.inner.onBodySent?.(chunkSize, totalBytesSent);
  }
}

/**
 * A dispatcher for one request that dispatches through `inner` and calls `done` with the
 * request's time on the wire in milliseconds (by `clock`, a monotonic clock in ms) once its
 * answer has been read to the end; `done` is not called for a request that fails before that.
 */
export function timedDispatcher(
  inner: Dispatcher,
  clock: () => number,
  done: (ms: number) => void,
): Dispatcher {
  // `request` (undici.ts) only dispatches through what it is given.
  const timed = {
    dispatch: (options: Dispatcher.DispatchOptions, handler: Handler): boolean =>
      inner.dispatch(options, new TimingHandler(handler, clock, done)),
  };
  return timed as unknown as Dispatcher;
}
