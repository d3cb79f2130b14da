import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration } from "../shared/duration.js";
import { configChanges } from "./diff.js";
import { durationSettings, withValue } from "./durationsTestkit.js";
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

const DURATIONS = await durationSettings(base);

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
