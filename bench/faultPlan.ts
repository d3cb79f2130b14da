/**
 * The soak's schedule of upstream faults: a quiet warm-up, then episodes in which one or more
 * fault kinds fire in the simulator, separated by short quiet gaps, then a quiet recovery
 * tail. Every kind gets at least one episode when the run is long enough; longer runs repeat
 * them. Episodes stay far shorter than the staleness bound, so no series may be lost.
 */

/**
 * The fault kinds the soak exercises (the simulator's names). The permanent ones come first:
 * the exporter backs off from a target after a permanent failure, and going first leaves
 * the longest time to see those targets come back.
 */
export const SOAK_FAULT_KINDS = [
  "invalid_key",
  "unknown_cluster",
  "http_500",
  "hang",
  "slow_body",
  "truncated",
  "non_json",
  "wrong_shape",
  "rate_limit_429",
  "rate_limit_code",
] as const;
export type SoakFaultKind = (typeof SOAK_FAULT_KINDS)[number];

/** One episode, in milliseconds from the start of the run. */
export interface Episode {
  readonly startMs: number;
  readonly endMs: number;
  readonly kinds: readonly SoakFaultKind[];
}

export interface FaultOptions {
  readonly warmupMs: number;
  readonly tailMs: number;
  readonly gapMs: number;
  readonly minEpisodeMs: number;
  readonly maxEpisodeMs: number;
}

export const DEFAULT_PLAN: FaultOptions = {
  warmupMs: 45_000,
  tailMs: 35_000,
  gapMs: 5_000,
  minEpisodeMs: 15_000,
  maxEpisodeMs: 40_000,
};

/**
 * Plans episodes for a run of `totalMs`: one kind per episode when each can last at least
 * `minEpisodeMs` (at most `maxEpisodeMs`, kinds repeating round-robin when time allows);
 * otherwise as many `minEpisodeMs` episodes as fit (at least one), sharing the kinds.
 */
export function planFaults(
  totalMs: number,
  kinds: readonly SoakFaultKind[] = SOAK_FAULT_KINDS,
  opts: FaultOptions = DEFAULT_PLAN,
): Episode[] {
  const middle = totalMs - opts.warmupMs - opts.tailMs;
  if (middle <= 0 || kinds.length === 0) return [];
  // One kind per episode, as long as possible up to the maximum (repeating kinds when even
  // that leaves room); when that is too short, fewer, minimum-length episodes share kinds.
  let length = Math.min(opts.maxEpisodeMs, middle / kinds.length - opts.gapMs);
  let count: number;
  if (length >= opts.minEpisodeMs) {
    count = Math.floor(middle / (length + opts.gapMs));
  } else {
    count = Math.max(1, Math.floor(middle / (opts.minEpisodeMs + opts.gapMs)));
    length = Math.max(1000, Math.min(opts.maxEpisodeMs, middle / count - opts.gapMs));
  }
  const perEpisode = Math.ceil(kinds.length / count);
  const episodes: Episode[] = [];
  for (let i = 0; i < count; i++) {
    const picked = new Set<SoakFaultKind>();
    for (let j = 0; j < perEpisode; j++)
      picked.add(kinds[(i * perEpisode + j) % kinds.length] as SoakFaultKind);
    const startMs = Math.round(opts.warmupMs + i * (length + opts.gapMs));
    episodes.push({ startMs, endMs: Math.round(startMs + length), kinds: [...picked] });
  }
  return episodes;
}

/** The highest and the median of the samples taken under one kind of fault, or with none. */
export interface KindMemory {
  readonly kind: SoakFaultKind | "none";
  readonly samples: number;
  readonly max: number;
  readonly median: number;
}

/**
 * Memory samples (`atMs` from the start of the run) grouped by the fault kind in force: an
 * episode counts from its start to `afterMs` past its end (a hang is felt until the requests
 * it held time out), later episodes winning where two overlap; the rest is "none". Kinds in
 * the order of SOAK_FAULT_KINDS, "none" last; kinds without a sample are left out.
 */
export function memoryByKind(
  samples: readonly { readonly atMs: number; readonly value: number }[],
  plan: readonly Episode[],
  afterMs: number,
): KindMemory[] {
  const byKind = new Map<SoakFaultKind | "none", number[]>();
  for (const s of samples) {
    const e = plan.findLast((p) => s.atMs >= p.startMs && s.atMs < p.endMs + afterMs);
    for (const kind of e ? e.kinds : (["none"] as const)) {
      const list = byKind.get(kind) ?? [];
      list.push(s.value);
      byKind.set(kind, list);
    }
  }
  const order: (SoakFaultKind | "none")[] = [...SOAK_FAULT_KINDS, "none"];
  return order.flatMap((kind) => {
    const values = byKind.get(kind);
    if (!values) return [];
    const sorted = [...values].sort((a, b) => a - b);
    return [
      {
        kind,
        samples: sorted.length,
        max: sorted.at(-1) as number,
        median: sorted[(sorted.length - 1) >> 1] as number,
      },
    ];
  });
}
