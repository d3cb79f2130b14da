/**
 * 32-bit FNV-1a over UTF-16 code units: small, fast and stable across versions and platforms.
 * Stability matters: shard ownership and schedule offsets derive from it, so changing it would
 * move targets between replicas and slots on upgrade.
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
