import { describe, expect, expectTypeOf, it } from "vitest";
import type * as z from "zod";
import { camelKey, camelSettings, isDurationField, settingsSection } from "./camelSettings.js";
import { boolField, durationField, intField, textField } from "./fields.js";
import { registeredSections } from "./section.js";

describe("camelKey", () => {
  it.each([
    ["enabled", "enabled"],
    ["import_jobs", "importJobs"],
    ["max_jobs_per_cluster", "maxJobsPerCluster"],
  ])("%s -> %s", (key, field) => {
    expect(camelKey(key)).toBe(field);
  });
});

describe("isDurationField", () => {
  it.each<[name: string, schema: unknown, duration: boolean]>([
    ["a duration", durationField({ min: 0 }), true],
    ["with a default", durationField({ min: 0 }).default(1000), true],
    ["optional", durationField({ min: 0 }).optional(), true],
    // zod makes a new schema for a refinement: the mark must come with it.
    [
      "refined, with a default",
      durationField({ min: 0 })
        .refine((ms) => ms % 1000 === 0)
        .default(1000),
      true,
    ],
    ["described", durationField({ min: 0 }).describe("a duration"), true],
    ["an integer", intField(0, 10).default(1), false],
    ["a boolean", boolField().default(true), false],
    ["a text", textField().optional(), false],
    ["a nested section", settingsSection({ interval: durationField({ min: 0 }) }), false],
  ])("%s", (_, schema, duration) => {
    expect(isDurationField(schema)).toBe(duration);
  });
});

describe("settingsSection", () => {
  const schema = settingsSection({
    enabled: boolField().default(true),
    policy_interval: durationField({ min: 0 }).default(60_000),
    max_per_cluster: intField(1, 100).default(5),
    ids_file: textField().optional(),
    discovery: settingsSection({ max_age: durationField({ min: 0 }).default(1000) }),
  });

  it.each<[name: string, file: unknown, settings: object]>([
    [
      "defaults: durations end in Ms, nested sections too, an absent optional is left out",
      undefined,
      { enabled: true, policyIntervalMs: 60_000, maxPerCluster: 5, discovery: { maxAgeMs: 1000 } },
    ],
    [
      "given values",
      { policy_interval: "PT2M", ids_file: "ids.yml", discovery: { max_age: "PT1S" } },
      {
        enabled: true,
        policyIntervalMs: 120_000,
        maxPerCluster: 5,
        idsFile: "ids.yml",
        discovery: { maxAgeMs: 1000 },
      },
    ],
  ])("%s", (_, file, settings) => {
    const parsed = schema.parse(file);
    expect(parsed).toStrictEqual(settings);
    expect("idsFile" in parsed).toBe(Object.hasOwn(settings, "idsFile"));
  });

  it("types the settings as it names them", () => {
    expectTypeOf<z.output<typeof schema>>().toEqualTypeOf<{
      enabled: boolean;
      policyIntervalMs: number;
      maxPerCluster: number;
      idsFile?: string | undefined;
      discovery: { maxAgeMs: number };
    }>();
  });

  it("still refuses an unknown key, naming it", () => {
    const result = schema.safeParse({ policy_intervall: "PT1M" });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain("policy_intervall");
  });
});

describe("camelSettings", () => {
  it("leaves out the keys it is told to", () => {
    const shape = { api_key: textField().optional(), interval: durationField({ min: 0 }) };
    expect(camelSettings(shape, { api_key: "k", interval: 5 }, ["api_key"])).toStrictEqual({ intervalMs: 5 });
  });
});

// Every registered section at its defaults, as the rest of the exporter reads it: no key keeps
// the file's spelling (the registry registers its sections in test/setup.ts).
describe("every registered section", () => {
  const snake = (value: unknown, path: string): string[] =>
    typeof value !== "object" || value === null || Array.isArray(value)
      ? []
      : Object.entries(value).flatMap(([k, v]) =>
          k.includes("_") ? [`${path}.${k}`] : snake(v, `${path}.${k}`),
        );
  it.each(registeredSections().map((s) => [s.key, s] as const))("%s: camelCase settings", (_, section) => {
    const parsed = section.schema({ resolvePath: (p) => `/abs/${p}` }).parse(undefined);
    expect(snake(parsed, section.key)).toEqual([]);
  });
});
