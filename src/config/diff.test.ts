import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration } from "../shared/duration.js";
import { configChanges } from "./diff.js";
import { ConfigError } from "./errors.js";
import { configJsonSchema } from "./jsonSchema.js";
import { buildConfig } from "./load.js";

const base = {
  api: { api_key: "sk-one" },
  clusters: [{ id: "in01-a" }, { id: "in01-b", region: "gcp-us-west1" }],
  metrics: { queries: [{ name: "CU_COMPUTATION" }, { name: "STORAGE_USE" }] },
};

type Raw = typeof base & Record<string, unknown>;
const edit = (f: (raw: Raw) => void): Raw => {
  const raw = structuredClone(base) as Raw;
  f(raw);
  return raw;
};

describe("configChanges", () => {
  it.each([
    { name: "nothing", next: edit(() => {}), changes: {} },
    {
      name: "clusters added and removed",
      next: edit((r) => {
        r.clusters = [{ id: "in01-b", region: "gcp-us-west1" }, { id: "in01-c" }];
      }),
      changes: { clusters_added: ["in01-c"], clusters_removed: ["in01-a"] },
    },
    {
      name: "a cluster's settings",
      next: edit((r) => {
        r.clusters = [{ id: "in01-a" }, { id: "in01-b", region: "aws-us-east-1" }];
      }),
      changes: { clusters_changed: ["in01-b"] },
    },
    {
      name: "the metric queries",
      next: edit((r) => {
        r.metrics = { queries: [{ name: "CU_COMPUTATION" }, { name: "CU_CAPACITY" }] };
      }),
      // A current-form name stays as written (issue 44).
      changes: { queries_changed: { added: ["CU_CAPACITY"], removed: ["STORAGE_USE"] } },
    },
    {
      name: "intervals",
      next: edit((r) => {
        r.metrics = { ...r.metrics, granularity: "PT30S", interval: "PT30S" } as Raw["metrics"];
        r.inventory = { interval: "PT5M" };
      }),
      changes: {
        intervals: {
          "metrics.granularity": "PT1M -> PT30S",
          "metrics.interval": "PT1M -> PT30S",
          "inventory.interval": "PT1M -> PT5M",
        },
      },
    },
    {
      name: "the key (never shown) and another api setting",
      next: edit((r) => {
        r.api = { api_key: "sk-two", max_retries: 1 } as Raw["api"];
      }),
      changes: { api_key_changed: true, other: ["api"] },
    },
    {
      name: "billing switched on with a key of its own (never shown), its interval",
      next: edit((r) => {
        r.billing = { enabled: true, api_key: "sk-billing", interval: "PT30M" };
      }),
      changes: {
        billing_key_changed: true,
        intervals: { "billing.interval": "PT1H -> PT30M" },
        other: ["billing"],
      },
    },
    {
      name: "other settings, by their keys in the file; a retention among the durations",
      next: edit((r) => {
        r.import_jobs = { enabled: false, retention: "PT2H" };
        r.staleness_intervals = 3;
      }),
      changes: {
        intervals: { "import_jobs.retention": "PT1H -> PT2H" },
        other: ["import_jobs", "staleness_intervals"],
      },
    },
  ])("$name", async ({ next, changes }) => {
    const got = configChanges(await buildConfig(base), await buildConfig(next));
    expect(got).toEqual(changes);
    expect(JSON.stringify(got)).not.toContain("sk-");
  });
});

/** `raw` with `value` at `path` (sections made as needed). */
function withValue(
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
async function durationSettings(): Promise<{ readonly key: string; readonly value: string }[]> {
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

const DURATIONS = await durationSettings();

describe("configChanges reports every duration the file accepts", () => {
  it("finds them in the schema, every collector's interval among them", () => {
    const keys = DURATIONS.map((d) => d.key);
    // A floor, so that a broken search cannot pass the table below by finding nothing.
    expect(keys).toEqual(
      expect.arrayContaining([
        "metrics.interval",
        "backups.policy_interval",
        "spark_jobs.discovery.interval",
        "alert_rules.interval",
        "collections.interval",
        "jobs.interval",
      ]),
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(DURATIONS)("$key", async ({ key, value }) => {
    const before = await buildConfig(base);
    const got = configChanges(before, await buildConfig(withValue(base, key.split("."), value)));
    expect(got.intervals?.[key]).toMatch(new RegExp(` -> ${formatDuration(parseDuration(value))}$`));
    // A duration is reported as one, not as its section among the other settings.
    expect(got.other).toBeUndefined();
  });
});
