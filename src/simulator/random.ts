/**
 * Deterministic randomness. Values are derived by hashing their coordinates (seed, cluster,
 * metric, bucket time, ...) rather than by drawing from a shared sequence, so a value never
 * depends on which requests came before it and costs a few integer multiplications.
 */

/** Final avalanche of MurmurHash3: spreads every input bit over the 32-bit output. */
function fmix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines two 32-bit values into a well-mixed unsigned 32-bit hash (order matters). */
export function mix(a: number, b: number): number {
  return fmix32((Math.imul(fmix32(a) ^ 0x9e3779b9, 0x165667b1) + (b >>> 0)) >>> 0);
}

/** FNV-1a hash of a string, avalanched; stable across runs and platforms. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** Maps a 32-bit hash to [0, 1). */
export function unit(h: number): number {
  return (h >>> 0) / 4294967296;
}

/** Maps a 32-bit hash to [-1, 1). */
export function signedUnit(h: number): number {
  return unit(h) * 2 - 1;
}

/** A seeded sequence of numbers in [0, 1) (mulberry32): same seed, same sequence. */
export type Rng = () => number;

/** Creates a seeded generator; used where a sequence is natural (world generation, faults). */
export function createRng(seed: number): Rng {
  let state = fmix32(seed ^ 0x6d2b79f5);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` lower-case hex digits drawn from `rng`. */
export function hexString(rng: Rng, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += Math.floor(rng() * 16).toString(16);
  return out;
}

/** `length` lower-case hex digits derived from a hash (stateless variant of hexString). */
export function hexFromHash(h: number, length: number): string {
  let out = "";
  let state = h >>> 0;
  for (let i = 0; i < length; i++) {
    state = mix(state, i);
    out += (state & 15).toString(16);
  }
  return out;
}
