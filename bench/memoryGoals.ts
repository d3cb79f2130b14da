/**
 * The memory and tail-latency goals at scale (steady and peak RSS per series held, module
 * footprint, p50 against the static floor), beside report.ts's general targets. Pure.
 */
import type { Check, Latencies } from "./report.js";

const MIB = 1024 * 1024;

export const MEMORY_GOALS = {
  /** Steady RSS: 50 MiB plus 1 MiB per 1,000 series (150 MiB at 100k, 300 MiB at 250k). */
  steadyBaseBytes: 50 * MIB,
  steadyPerSeriesBytes: MIB / 1000,
  /** Peak RSS: the steady goal plus 50 MiB (200 MiB at 100k). */
  peakOverSteadyBytes: 50 * MIB,
  footprintBytes: 60 * MIB,
  floorFactor: 1.5,
} as const;

export interface MemoryInputs {
  readonly series: number;
  /** Highest RSS sampled over the steady window (one full cycle after the first). */
  readonly steadyRssBytes: number;
  /** Highest RSS sampled over the whole run, first cycle included. */
  readonly peakRssBytes: number;
  readonly footprintBytes: number;
  /** Node holding only the runtime dependencies, at rest: the part of the footprint no exporter code can remove. */
  readonly dependenciesFootprintBytes: number;
  readonly latencies: Latencies;
}

const mib = (b: number) => `${(b / MIB).toFixed(0)} MiB`;

/** The steady RSS goal for `series` series, in bytes. */
export function steadyGoalBytes(series: number): number {
  return MEMORY_GOALS.steadyBaseBytes + series * MEMORY_GOALS.steadyPerSeriesBytes;
}

export function evaluateMemoryGoals(inp: MemoryInputs): Check[] {
  const steady = steadyGoalBytes(inp.series);
  const peak = steady + MEMORY_GOALS.peakOverSteadyBytes;
  const ratios = [...inp.latencies.exporter].map(([variant, s]) => {
    const floor = inp.latencies.floor.get(variant)?.p50 ?? Number.NaN;
    return { variant, ratio: s.p50 / floor };
  });
  return [
    {
      name: `steady RSS <= ${mib(steady)} (${inp.series} series)`,
      pass: inp.steadyRssBytes <= steady,
      detail: `max over the steady cycle ${mib(inp.steadyRssBytes)}`,
    },
    {
      name: `peak RSS <= ${mib(peak)}`,
      pass: inp.peakRssBytes <= peak,
      detail: `max over the run ${mib(inp.peakRssBytes)}`,
    },
    {
      name: `module footprint at start <= ${mib(MEMORY_GOALS.footprintBytes)}`,
      pass: inp.footprintBytes <= MEMORY_GOALS.footprintBytes,
      detail: `${mib(inp.footprintBytes)}; node with the runtime dependencies alone ${mib(inp.dependenciesFootprintBytes)}`,
    },
    {
      name: `p50 within ${MEMORY_GOALS.floorFactor}x the static floor`,
      pass: ratios.length > 0 && ratios.every((r) => r.ratio <= MEMORY_GOALS.floorFactor),
      detail: ratios.map((r) => `${r.variant} ${r.ratio.toFixed(2)}x`).join("; "),
    },
  ];
}
