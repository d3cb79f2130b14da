/** Command-line flags of `npm run bench` and `npm run soak` (after `--`). */
import { parseArgs } from "node:util";
import { RATE_LIMIT_MODES, type RateLimitMode } from "../src/simulator/rate-limiter.js";
import { type CollectionsShape, parseCollectionsShape } from "./collectionsScale.js";
import { BenchError } from "./errors.js";
import { DEPLOYED_RUNTIME, RUNTIMES, type Runtime } from "./runtime.js";

export interface BenchArgs {
  readonly help: boolean;
  /** Clusters of the scale scenario. */
  /**
   * Clusters of the scale scenario: exactly this many when `--clusters` is given; else at most
   * this many, fewer where every collector's series would pass `series` without any scope.
   */
  readonly clusters: number;
  /** `--clusters` was not given: the pilot may lower `clusters` to fit `series`. */
  readonly fitClusters: boolean;
  /** Timed scrapes per variant of the exporter and of the static floor. */
  readonly scrapes: number;
  /**
   * Timed scrapes per variant of the prom-client baseline. It takes ~0.2 s per scrape at 100k
   * series, so 100 (not 200) keeps the default run near five minutes.
   */
  readonly baselineScrapes: number;
  /** Series the scale scenario aims at; scopes are added to reach it. */
  readonly series: number;
  /** Only cluster metrics (no import jobs, Spark jobs, inventory): more scopes, longer cycles. */
  readonly metricsOnly: boolean;
  /**
   * Percentages of one key's budget (600 metric targets at PT30S) to run as rate-budget
   * scenarios instead of the scale scenario; empty: not run.
   */
  readonly budget: readonly number[];
  /** Simulator window modes of the budget scenarios (each runs once per mode, modes in parallel). */
  readonly modes: readonly RateLimitMode[];
  /** Complete cycles observed per budget scenario after the first. */
  readonly cycles: number;
  /** Measure only the start-up stall (2,000 targets) instead of the scale scenario. */
  readonly startupStall: boolean;
  /** Process settings of the exporter (malloc, heap): as deployed, or Node's defaults. */
  readonly runtime: Runtime;
  /** `CxN`: instead, C clusters x N collections discovered through the data plane; absent: not run. */
  readonly collections?: CollectionsShape;
  /** Instead: the steady state of 1,000 clusters polled hard, scraped on fresh connections. */
  readonly steady: boolean;
  /** With --steady: a CPU profile of the exporter over the measured cycle, written here. */
  readonly profile?: string;
  /**
   * With --steady: the clusters split over this many keys at the documented rate limit (20 per
   * second per endpoint and key, enforced by the simulator) instead of one key at 1,000.
   */
  readonly keys?: number;
}

export interface SoakArgs {
  readonly help: boolean;
  readonly minutes: number;
  readonly clusters: number;
  /** 0: the small scenario (--clusters at PT30S); else scopes are added to reach this many series. */
  readonly series: number;
  /** Minutes between config reloads (the file is rewritten and POST /-/reload sent); 0: none. */
  readonly reloadMinutes: number;
  readonly runtime: Runtime;
}

export const BENCH_USAGE = `usage: npm run bench -- [--clusters N] [--scrapes N] [--baseline-scrapes N] [--series N] [--metrics-only] [--runtime R]
       npm run bench -- --budget P[,P...] [--rate-limit-mode M[,M...]] [--cycles N]
       npm run bench -- --startup-stall
       npm run bench -- --collections CxN [--scrapes N]
       npm run bench -- --steady [--keys N] [--scrapes N] [--profile FILE]
  --clusters N           clusters of the scale scenario (default: up to 1000, fewer where every
                         collector's own series would pass --series)
  --scrapes N            timed scrapes per variant, exporter and static floor (default 200, at least 1)
  --baseline-scrapes N   timed scrapes per variant of the prom-client baseline (default 100: ~0.2 s each)
  --series N             series to reach, adding collection scopes if needed (default 100000)
  --runtime R            the exporter's process settings: deployed (default: its runtime settings, as every
                         way of starting it has them, docs/runtime.md) or node-defaults (VDBCLOUD_RUNTIME=off)
  --metrics-only         disable import jobs, Spark jobs and inventory (scopes make up the series;
                         cycles get longer: about targets / 17 seconds)
  --budget P,...         instead: rate-budget scenarios at P% of one key's budget (600 metric targets at
                         PT30S), e.g. 90,95,100,110
  --rate-limit-mode M,.. simulator window modes of --budget: sliding, fixed, token_bucket (default all three)
  --cycles N             complete cycles observed per budget scenario after the first (default 3)
  --startup-stall        instead: the longest event-loop stall and /healthz wait while the first cycle of
                         2,000 metric targets (1,000 clusters + one scope each) lands
  --collections CxN      instead: C clusters x N collections discovered through the data plane, each a
                         metrics scope (e.g. 100x50): series, RSS, scrape p50/p99, calls per cycle
  --steady               instead: 1,000 clusters with a scope each at PT30S and rate_limit 1000, import
                         jobs off: steady RSS, and scrapes on fresh connections against the floor, the
                         slow ones lined up with GC, publishes, puts and stalls of the exporter
  --keys N               with --steady: the clusters split over N keys at the documented rate limit (20
                         requests per second per endpoint and key, enforced by the simulator), every
                         interval the shortest 30 s step the budget fits, instead of one key at 1000
  --profile FILE         with --steady: a CPU profile of the exporter over the measured cycle (a
                         .cpuprofile for Chrome's DevTools), its heaviest functions in the report`;

export const SOAK_USAGE = `usage: npm run soak -- [--minutes N] [--clusters N] [--series N] [--reload-every M] [--runtime R]
  --minutes N       how long to run, faults included (default 3, at least 2; fractions allowed)
  --clusters N      simulated clusters (default 20)
  --series N        series to reach, adding collection scopes (default 0: no scopes added, PT30S);
                    with it the interval is what the rate budget allows, e.g. 100000 with 1000 clusters
  --reload-every M  reload the config every M minutes (rewritten file + POST /-/reload; default 2, 0: never)
  --runtime R       deployed (default) or node-defaults, as for the bench
  Prints the RSS slope over the last half of the run (least squares, MB per hour).`;

function parse(argv: readonly string[], options: Record<string, { type: "string" | "boolean" }>) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new BenchError("bad_arguments", (err as Error).message, { cause: err });
  }
}

function number(
  raw: string | boolean | undefined,
  flag: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (typeof raw !== "string" || raw.trim() === "" || !Number.isFinite(n) || n < min || n > max) {
    throw new BenchError(
      "bad_arguments",
      `${flag} must be a number from ${min} to ${max}, got ${String(raw)}`,
    );
  }
  return n;
}

function integer(
  raw: string | boolean | undefined,
  flag: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const n = number(raw, flag, fallback, min, max);
  if (!Number.isInteger(n))
    throw new BenchError("bad_arguments", `${flag} must be a whole number, got ${String(raw)}`);
  return n;
}

function list<T>(
  raw: string | boolean | undefined,
  flag: string,
  fallback: readonly T[],
  item: (text: string) => T,
): readonly T[] {
  if (raw === undefined) return fallback;
  const items = typeof raw === "string" ? raw.split(",").map((s) => s.trim()) : [];
  if (items.length === 0 || items.some((s) => s === "")) {
    throw new BenchError("bad_arguments", `${flag} must be a comma-separated list, got ${String(raw)}`);
  }
  return [...new Set(items.map(item))];
}

function runtime(raw: string | boolean | undefined): Runtime {
  if (raw === undefined) return DEPLOYED_RUNTIME;
  const r = RUNTIMES.find((x) => x.name === raw);
  if (r === undefined) {
    throw new BenchError(
      "bad_arguments",
      `--runtime takes ${RUNTIMES.map((x) => x.name).join(", ")}, got ${String(raw)}`,
    );
  }
  return r;
}

function rateLimitMode(text: string): RateLimitMode {
  const mode = RATE_LIMIT_MODES.find((m) => m === text);
  if (mode === undefined) {
    throw new BenchError(
      "bad_arguments",
      `--rate-limit-mode takes ${RATE_LIMIT_MODES.join(", ")}, got ${text}`,
    );
  }
  return mode;
}

/** Parses the benchmark's flags. Throws BenchError (bad_arguments). */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const v = parse(argv, {
    clusters: { type: "string" },
    scrapes: { type: "string" },
    "baseline-scrapes": { type: "string" },
    series: { type: "string" },
    "metrics-only": { type: "boolean" },
    budget: { type: "string" },
    "rate-limit-mode": { type: "string" },
    cycles: { type: "string" },
    "startup-stall": { type: "boolean" },
    runtime: { type: "string" },
    collections: { type: "string" },
    steady: { type: "boolean" },
    profile: { type: "string" },
    keys: { type: "string" },
    help: { type: "boolean" },
  });
  const budget = list(v.budget, "--budget", [], (p) => number(p, "--budget", 0, 1, 300));
  const startupStall = v["startup-stall"] === true;
  if (budget.length > 0 && startupStall) {
    throw new BenchError("bad_arguments", "--budget and --startup-stall are separate runs: give one");
  }
  const scrapes = integer(v.scrapes, "--scrapes", 200, 1, 100_000);
  return {
    help: v.help === true,
    clusters: integer(v.clusters, "--clusters", 1000, 1, 100_000),
    fitClusters: v.clusters === undefined,
    scrapes,
    baselineScrapes: integer(v["baseline-scrapes"], "--baseline-scrapes", 100, 1, 100_000),
    series: integer(v.series, "--series", 100_000, 1, 10_000_000),
    metricsOnly: v["metrics-only"] === true,
    budget,
    modes: list(v["rate-limit-mode"], "--rate-limit-mode", RATE_LIMIT_MODES, rateLimitMode),
    cycles: integer(v.cycles, "--cycles", 3, 1, 100),
    startupStall,
    runtime: runtime(v.runtime),
    ...(typeof v.collections === "string" ? { collections: parseCollectionsShape(v.collections) } : {}),
    steady: v.steady === true,
    ...(typeof v.profile === "string" ? { profile: v.profile } : {}),
    ...(v.keys === undefined ? {} : { keys: integer(v.keys, "--keys", 1, 1, 100) }),
  };
}

/** Parses the soak's flags. Throws BenchError (bad_arguments). */
export function parseSoakArgs(argv: readonly string[]): SoakArgs {
  const v = parse(argv, {
    minutes: { type: "string" },
    clusters: { type: "string" },
    series: { type: "string" },
    "reload-every": { type: "string" },
    runtime: { type: "string" },
    help: { type: "boolean" },
  });
  return {
    help: v.help === true,
    minutes: number(v.minutes, "--minutes", 3, 2, 24 * 60),
    clusters: integer(v.clusters, "--clusters", 20, 1, 10_000),
    series: integer(v.series, "--series", 0, 0, 10_000_000),
    reloadMinutes: number(v["reload-every"], "--reload-every", 2, 0, 24 * 60),
    runtime: runtime(v.runtime),
  };
}
