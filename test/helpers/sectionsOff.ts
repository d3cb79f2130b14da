/**
 * A config in which only some collectors poll: `enabled: false` for every registered section
 * that can be switched off, but the ones kept. Read from the registry, so that a test of one
 * collector keeps its calls to itself as collectors are added. Used by tests only.
 */
import { CONFIG_SECTIONS } from "../../src/collectors/registry.js";

/** `{<section>: {enabled: false}}` for each registered section with `enabled`, but `keep`. */
export function sectionsOff(...keep: readonly string[]): Record<string, { enabled: false }> {
  const off = { enabled: false } as const;
  return Object.fromEntries(
    CONFIG_SECTIONS.filter(
      (s) => !keep.includes(s.key) && s.schema({ resolvePath: (p) => p }).safeParse(off).success,
    ).map((s) => [s.key, off]),
  );
}
