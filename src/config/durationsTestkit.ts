/**
 * Every duration the config file accepts, found in its JSON schema rather than listed by hand,
 * so that a new collector's interval is covered as soon as its section has one. Used by tests
 * only (the build leaves test kits out).
 */
import { ConfigError } from "./errors.js";
import { configJsonSchema } from "./jsonSchema.js";
import { buildConfig } from "./load.js";

/** `raw` with `value` at `path` (sections made as needed). */
export function withValue(
  raw: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): Record<string, unknown> {
  const copy = structuredClone(raw);
  let at = copy;
  for (const key of path.slice(0, -1)) {
    const next = (at[key] ?? {}) as Record<string, unknown>;
    at[key] = next;
    at = next;
  }
  at[path.at(-1) as string] = value;
  return copy;
}

type JsonNode = {
  readonly type?: unknown;
  readonly pattern?: unknown;
  readonly enum?: unknown;
  readonly properties?: Readonly<Record<string, JsonNode>>;
  readonly anyOf?: readonly JsonNode[];
};

/** Every plain-string setting of the JSON schema outside lists, by path: where durations can be. */
function stringSettings(node: JsonNode, path: readonly string[] = []): string[][] {
  const own =
    node.type === "string" && node.pattern === undefined && node.enum === undefined ? [[...path]] : [];
  return [
    ...own,
    ...(node.anyOf ?? []).flatMap((alt) => stringSettings(alt, path)),
    ...Object.entries(node.properties ?? {}).flatMap(([key, child]) => stringSettings(child, [...path, key])),
  ];
}

/** The problems of a config, none when it is valid. */
async function problemsOf(raw: unknown): Promise<readonly { path: string; message: string }[]> {
  try {
    await buildConfig(raw);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

/** Accepted values a duration may be set to; each key takes the first valid one that is new. */
const CANDIDATES = ["PT2M", "PT10M", "PT2H", "PT45S", "P2D", "PT5S", "PT1S", "PT0.5S", "PT0S"];

/**
 * Every duration the config file accepts, from its JSON schema: a string setting the exporter
 * rejects as "not an ISO 8601 duration", with a valid value other than its default. No list is
 * kept by hand, so a new collector's interval is in it as soon as the schema has it.
 */
export async function durationSettings(
  base: Readonly<Record<string, unknown>>,
): Promise<{ readonly key: string; readonly value: string }[]> {
  const found: { key: string; value: string }[] = [];
  const defaults = await buildConfig(base);
  for (const path of stringSettings(configJsonSchema() as JsonNode)) {
    const key = path.join(".");
    const problems = await problemsOf(withValue(base, path, "soon"));
    if (!problems.some((p) => p.path === key && p.message.includes("ISO 8601 duration"))) continue;
    for (const value of CANDIDATES) {
      const raw = withValue(base, path, value);
      if ((await problemsOf(raw)).length > 0) continue;
      if (JSON.stringify(await buildConfig(raw)) === JSON.stringify(defaults)) continue;
      found.push({ key, value });
      break;
    }
  }
  return found;
}
