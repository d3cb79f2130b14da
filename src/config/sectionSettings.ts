/**
 * What the framework reads of a collector section's settings in a loaded `Config` without
 * naming the section: whether it is on, its own key, the data-plane rate it holds. Apart from
 * section.ts, which `Config` (types.ts) is built from.
 */
import { type ConfigSection, type DataPlaneRate, registeredSections } from "./section.js";
import type { Config } from "./types.js";

/** `section`'s settings in `config` (at its `field`); empty when the config has none. */
export function settingsOf(config: Config, section: ConfigSection): Readonly<Record<string, unknown>> {
  const settings = (config as unknown as Readonly<Record<string, unknown>>)[section.field];
  return typeof settings === "object" && settings !== null ? (settings as Record<string, unknown>) : {};
}

/** Whether `section` is on in `config`: its settings' `enabled` is true. */
export function sectionOn(config: Config, section: ConfigSection): boolean {
  return settingsOf(config, section).enabled === true;
}

/**
 * The key a `credential` section's calls carry in `config`: its `apiKey`, which secrets.ts
 * resolved (the default key when the section gives none). Throws for a section without one.
 */
export function ownKeyOf(config: Config, section: ConfigSection): string {
  const key = settingsOf(config, section).apiKey;
  if (!section.credential || typeof key !== "string") throw new Error(`${section.key} has no key of its own`);
  return key;
}

/** The data-plane rate in `config` of the first registered section that declares one. */
export function declaredDataPlane(config: Config): DataPlaneRate | undefined {
  const section = registeredSections().find((s) => s.dataPlane !== undefined);
  const rate = section?.dataPlane as ((settings: unknown) => DataPlaneRate) | undefined;
  return section === undefined || rate === undefined ? undefined : rate(settingsOf(config, section));
}
