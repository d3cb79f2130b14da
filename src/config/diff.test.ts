import { describe, expect, it } from "vitest";
import { configChanges } from "./diff.js";
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
  ])("$name", async ({ next, changes }) => {
    const got = configChanges(await buildConfig(base), await buildConfig(next));
    expect(got).toEqual(changes);
    expect(JSON.stringify(got)).not.toContain("sk-");
  });
});
