/**
 * The heaviest functions of a V8 CPU profile (Chrome's .cpuprofile), by self time: where a
 * process's CPU went, in a few lines of a report. Samples are weighted by their time deltas.
 */

/** The parts of a .cpuprofile this reads. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      readonly lineNumber: number;
    };
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** One function (by name and place) and its share of the profile's samples. */
export interface HotFunction {
  readonly name: string;
  readonly where: string;
  readonly selfMs: number;
  readonly share: number;
}

/** The `top` functions by self time; idle and program time (V8's own pseudo-nodes) included. */
export function hotFunctions(profile: CpuProfile, top: number): HotFunction[] {
  const frameOf = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const selfUs = new Map<string, { name: string; where: string; us: number }>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const f = frameOf.get(id);
    if (!f || us <= 0) return;
    total += us;
    const where = f.url ? `${shortUrl(f.url)}:${f.lineNumber + 1}` : "";
    const key = `${f.functionName}\u0000${where}`;
    const e = selfUs.get(key) ?? { name: f.functionName || "(anonymous)", where, us: 0 };
    e.us += us;
    selfUs.set(key, e);
  });
  return [...selfUs.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((e) => ({ name: e.name, where: e.where, selfMs: e.us / 1000, share: total > 0 ? e.us / total : 0 }));
}

/** From the repository's dist folders or node_modules on: enough to find the file. */
function shortUrl(url: string): string {
  const m = /(node_modules\/.*|src\/.*|bench\/.*)$/.exec(url);
  return m?.[1] ?? url.replace(/^file:\/\//, "");
}
