/**
 * The benchmark's verdicts and the plain-text formatting of its report. Pure: the numbers
 * come in, lines go out.
 */
import type { CycleCount } from "./cycles.js";
import type { Stalls } from "./stallMeter.js";
import type { Summary } from "./stats.js";

/** One target with its verdict and the figures behind it. */
export interface Check {
  readonly name: string;
  readonly pass: boolean;
  readonly detail: string;
}

/** Latency summaries by variant name, per server. */
export interface Latencies {
  readonly exporter: ReadonlyMap<string, Summary>;
  readonly promClient: ReadonlyMap<string, Summary>;
  readonly floor: ReadonlyMap<string, Summary>;
}

export interface TargetInputs {
  readonly latencies: Latencies;
  /**
   * The longest event-loop stall in each measured window of the exporter's process. Judged is
   * the exporter's own part (less the time its thread waited for a CPU) where the kernel
   * reports that wait, else the whole stall.
   */
  readonly stalls: Readonly<Record<string, Stalls>>;
  readonly maxRssBytes: number;
  /** 429 answers the simulators gave, by scenario. */
  readonly rateLimited: Readonly<Record<string, number>>;
  /** Scenarios whose metric requests were counted per cycle: targets and counted cycles. */
  readonly perCycle: ReadonlyArray<{
    readonly name: string;
    /** Targets: one request each per cycle. */
    readonly targets: number;
    readonly cycles: readonly CycleCount[];
  }>;
}

export const LIMITS = {
  floorFactor: 3,
  promClientFactor: 10,
  p99Ms: 50,
  stallMs: 50,
  rssBytes: 300 * 1024 * 1024,
} as const;

/** The part of a window's stalls its verdict is on (see TargetInputs.stalls). */
export function judgedStall(s: Stalls): number {
  return s.ownMaxMs ?? s.maxMs;
}

/** `35.2 ms (longest stall 63.3, 28.1 of it waiting for a CPU)`. */
export function describeStall(s: Stalls): string {
  if (s.ownMaxMs === null || s.cpuWaitInMaxMs === null) return `${ms(s.maxMs)} ms (wait for a CPU unknown)`;
  return `${ms(s.ownMaxMs)} ms (longest stall ${ms(s.maxMs)}, ${ms(s.cpuWaitInMaxMs)} of it waiting for a CPU)`;
}

/** Milliseconds with two decimals below 10, one above. */
export function ms(v: number): string {
  if (!Number.isFinite(v)) return "-";
  return v < 10 ? v.toFixed(2) : v.toFixed(1);
}

/** Bytes as MB (10^6) with one decimal. */
export function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Aligns rows into columns: the first left-aligned, the others right-aligned. */
export function table(rows: readonly (readonly string[])[], indent = "  "): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows
    .map(
      (row) =>
        indent +
        row
          .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
          .join("  ")
          .trimEnd(),
    )
    .join("\n");
}

function everyVariant(
  latencies: Latencies,
  test: (exporter: Summary, variant: string) => { pass: boolean; detail: string },
): { pass: boolean; detail: string } {
  const parts: string[] = [];
  let pass = latencies.exporter.size > 0;
  for (const [variant, s] of latencies.exporter) {
    const r = test(s, variant);
    pass &&= r.pass;
    parts.push(`${variant} ${r.detail}`);
  }
  return { pass, detail: parts.join("; ") };
}

/** Evaluates every target of the benchmark. */
export function evaluateTargets(inp: TargetInputs): Check[] {
  const { latencies } = inp;
  const floor = everyVariant(latencies, (s, v) => {
    const f = latencies.floor.get(v)?.p50 ?? Number.NaN;
    const ratio = s.p50 / f;
    return { pass: ratio <= LIMITS.floorFactor, detail: `${ratio.toFixed(2)}x` };
  });
  const prom = everyVariant(latencies, (s, v) => {
    const p = latencies.promClient.get(v)?.p50 ?? Number.NaN;
    const ratio = p / s.p50;
    return { pass: ratio >= LIMITS.promClientFactor, detail: `${ratio.toFixed(0)}x` };
  });
  const p99 = everyVariant(latencies, (s) => ({ pass: s.p99 < LIMITS.p99Ms, detail: `${ms(s.p99)} ms` }));
  const stalls = Object.entries(inp.stalls);
  const worstStall = Math.max(...stalls.map(([, v]) => judgedStall(v)));
  const limited = Object.entries(inp.rateLimited);
  const counted = inp.perCycle.filter((p) => p.cycles.length > 0);
  const exact = counted.every((p) =>
    p.cycles.every((c) => c.requests === p.targets && c.distinctTargets === p.targets),
  );
  return [
    { name: `p50 within ${LIMITS.floorFactor}x the static floor`, ...floor },
    { name: `p50 at least ${LIMITS.promClientFactor}x faster than prom-client`, ...prom },
    { name: `p99 < ${LIMITS.p99Ms} ms`, ...p99 },
    {
      name: `no event-loop stall > ${LIMITS.stallMs} ms of the exporter's own (less its wait for a CPU)`,
      pass: stalls.length > 0 && worstStall <= LIMITS.stallMs,
      detail: stalls.map(([k, v]) => `${k} ${describeStall(v)}`).join("; "),
    },
    {
      name: `RSS < ${LIMITS.rssBytes / 1024 / 1024} MiB`,
      pass: inp.maxRssBytes < LIMITS.rssBytes,
      detail: `max ${(inp.maxRssBytes / 1024 / 1024).toFixed(0)} MiB`,
    },
    {
      name: "zero 429s",
      pass: limited.every(([, n]) => n === 0),
      detail: limited.map(([k, n]) => `${k} ${n}`).join("; "),
    },
    {
      name: "exactly one metric request per target per cycle",
      pass: counted.length === inp.perCycle.length && counted.length > 0 && exact,
      detail: inp.perCycle
        .map(
          (p) =>
            `${p.name}: ${
              p.cycles.length === 0
                ? "no complete cycle observed"
                : p.cycles.map((c) => `${c.requests} (${c.distinctTargets} targets)`).join(", ")
            } of ${p.targets}`,
        )
        .join("; "),
    },
  ];
}

/** `[PASS] name: detail` lines. */
export function formatChecks(checks: readonly Check[]): string {
  return checks.map((c) => `  [${c.pass ? "PASS" : "FAIL"}] ${c.name}: ${c.detail}`).join("\n");
}
