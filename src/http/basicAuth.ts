/**
 * `Authorization: Basic` checked against bcrypt hashes (the exporter-toolkit's
 * `basic_auth_users`), so that a flood of guesses can neither stall the process nor tell user
 * names apart:
 * - the bcrypt work runs on a worker thread, never on the event loop that answers /healthz and
 *   /metrics;
 * - at most `maxConcurrent` checks run at once and `maxWaiting` more wait their turn (fewer for
 *   costlier hashes); a check beyond those is refused at once as "busy" (the app answers 503
 *   with Retry-After);
 * - an unknown user is checked against a dummy hash of the highest configured cost, so it costs
 *   what a known user with a wrong password costs;
 * - outcomes are cached as the toolkit caches them: keyed on user, stored hash and password,
 *   here a SHA-256 of the three, so the plain password is never kept; identical checks in flight
 *   share one bcrypt run.
 */
import { createHash, randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { bcryptCost } from "../config/webConfig.js";
import { ExporterError } from "../shared/errors.js";

/** What a check concluded. `busy`: too many checks already running or waiting; try again soon. */
export type AuthOutcome = "allowed" | "denied" | "busy";

/** Compares a password with a bcrypt hash, off the caller's event loop. */
export interface BcryptComparer {
  compare(password: string, hash: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Tuning of a BasicAuth; every field has a default. */
export interface BasicAuthOptions {
  /** How long an outcome stays cached. Default 60 s. */
  readonly cacheMs?: number;
  /** Cached outcomes kept at most (the toolkit keeps 100). Default 100. */
  readonly cacheEntries?: number;
  /** bcrypt checks running at once. Default 1, as the toolkit's mutex. */
  readonly maxConcurrent?: number;
  /** Checks waiting for a turn before new ones are refused as busy. Default: defaultMaxWaiting. */
  readonly maxWaiting?: number;
  readonly now?: () => number;
  /** Default: a worker thread running bcryptjs. */
  readonly comparer?: BcryptComparer;
}

/** A worker that failed or stopped while a comparison was pending on it. */
export class BcryptWorkerError extends ExporterError {
  readonly code = "bcrypt_worker_failed";
}

/** bcrypt's alphabet, for the dummy hash's salt and digest. */
const BCRYPT_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A hash of `cost` that no password matches (its digest is random): comparing with it costs
 * exactly what comparing with a real hash of that cost does. Made without hashing anything, so
 * building one at cost 14 does not hold the event loop for a second.
 */
export function dummyHash(cost: number): string {
  const chars = [...randomBytes(53)].map((b) => BCRYPT_ALPHABET[b % 64]).join("");
  return `$2b$${String(cost).padStart(2, "0")}$${chars}`;
}

/**
 * Admits `limit` tasks at once and queues `maxWaiting` more; `tryRun` refuses beyond that
 * instead of queueing without bound (each waiter holds a request and its socket).
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }

  /** Runs `task` when a slot is free; undefined (and `task` not run) when the queue is full. */
  tryRun<T>(task: () => Promise<T>): Promise<T> | undefined {
    if (this.running >= this.limit && this.waiting.length >= this.maxWaiting) return undefined;
    return this.acquire().then(async () => {
      try {
        return await task();
      } finally {
        this.release();
      }
    });
  }

  private acquire(): Promise<void> {
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter: `running` stays as it is.
    if (next) next();
    else this.running--;
  }
}

// Evaluated as a CommonJS script in the worker: a file of its own would not exist under the
// test runner, which runs the TypeScript sources.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const bcrypt = require(workerData.bcryptPath);
parentPort.on("message", (job) => {
  let ok = false;
  try { ok = bcrypt.compareSync(job.password, job.hash); } catch { ok = false; }
  parentPort.postMessage({ id: job.id, ok });
});
`;

/**
 * One worker thread running bcryptjs's synchronous compare, jobs in order. Started on first
 * use, and again after a failure; it never keeps the process alive.
 */
export class WorkerComparer implements BcryptComparer {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve: (ok: boolean) => void; reject: (e: Error) => void }
  >();

  compare(password: string, hash: string): Promise<boolean> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<boolean>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, password, hash });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const bcryptPath = createRequire(import.meta.url).resolve("bcryptjs");
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath } });
    worker.unref();
    worker.on("message", (msg: { id: number; ok: boolean }) => {
      const job = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      job?.resolve(msg.ok === true);
    });
    const fail = (cause: unknown) => {
      if (this.worker === worker) this.worker = undefined;
      const err = new BcryptWorkerError("the bcrypt worker stopped", { cause });
      for (const job of this.pending.values()) job.reject(err);
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`exit code ${code}`)));
    this.worker = worker;
    return worker;
  }
}

/**
 * Waiting checks allowed for hashes of `cost`: 32 up to cost 10, halved per step above (each
 * step doubles bcrypt's work), never under 4, so that the last in line waits seconds, not minutes.
 */
export function defaultMaxWaiting(cost: number): number {
  return cost <= 10 ? 32 : Math.max(4, 32 >> (cost - 10));
}

/** Checks Basic credentials against bcrypt hashes; see the module comment. */
export class BasicAuth {
  private readonly users: ReadonlyMap<string, string>;
  private readonly dummy: string;
  private readonly cache = new Map<string, { readonly ok: boolean; readonly until: number }>();
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private readonly limiter: Semaphore;
  private readonly comparer: BcryptComparer;
  private readonly cacheMs: number;
  private readonly cacheEntries: number;
  private readonly now: () => number;

  constructor(users: ReadonlyMap<string, string>, opts: BasicAuthOptions = {}) {
    // A copy: the table is fixed for the life of the server, so cached outcomes stay true.
    this.users = new Map(users);
    const maxCost = Math.max(4, ...[...users.values()].map((h) => bcryptCost(h) ?? 4));
    this.dummy = dummyHash(maxCost);
    this.cacheMs = opts.cacheMs ?? 60_000;
    this.cacheEntries = opts.cacheEntries ?? 100;
    this.now = opts.now ?? Date.now;
    this.limiter = new Semaphore(opts.maxConcurrent ?? 1, opts.maxWaiting ?? defaultMaxWaiting(maxCost));
    this.comparer = opts.comparer ?? new WorkerComparer();
  }

  /** The cost of the hash unknown users are checked against: the highest configured one. */
  get dummyCost(): number {
    return bcryptCost(this.dummy) ?? 4;
  }

  async check(header: string | undefined): Promise<AuthOutcome> {
    const creds = parseBasic(header);
    if (!creds) return "denied";
    const known = this.users.get(creds.user);
    const hash = known ?? this.dummy;
    const key = createHash("sha256")
      .update(creds.user)
      .update("\u0000")
      .update(hash)
      .update("\u0000")
      .update(creds.password)
      .digest("hex");
    const cached = this.cache.get(key);
    if (cached !== undefined && cached.until > this.now())
      return cached.ok && known !== undefined ? "allowed" : "denied";
    let run = this.inFlight.get(key);
    if (run === undefined) {
      const started = this.limiter.tryRun(() => this.comparer.compare(creds.password, hash));
      if (started === undefined) return "busy";
      run = started.finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, run);
    }
    const ok = (await run) && known !== undefined;
    this.remember(key, ok);
    return ok ? "allowed" : "denied";
  }

  /** Stops the worker thread. */
  close(): Promise<void> {
    return this.comparer.close();
  }

  private remember(key: string, ok: boolean): void {
    this.cache.delete(key);
    // The oldest entry goes first: a Map iterates in insertion order.
    while (this.cache.size >= this.cacheEntries) {
      const oldest = this.cache.keys().next();
      if (oldest.done) break;
      this.cache.delete(oldest.value);
    }
    this.cache.set(key, { ok, until: this.now() + this.cacheMs });
  }
}

/** Parses `Basic base64(user:password)`; undefined when absent or malformed. */
export function parseBasic(header: string | undefined): { user: string; password: string } | undefined {
  if (!header) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], "base64").toString("utf8");
  const i = decoded.indexOf(":");
  if (i < 0) return undefined;
  return { user: decoded.slice(0, i), password: decoded.slice(i + 1) };
}
