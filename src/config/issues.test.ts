import { describe, expect, it } from "vitest";
import { describeUnknownKey, editDistance, knownKeysAt } from "./issues.js";
import { configFileSchema } from "./schema.js";

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["abc", "abc", 0],
    ["granulartiy", "granularity", 2],
    ["regoin", "region", 2],
    ["kitten", "sitting", 3],
  ])("%s vs %s = %d", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });
});

describe("describeUnknownKey", () => {
  it.each([
    ["granulartiy", ["enabled", "granularity", "interval"], 'unknown key (did you mean "granularity"?)'],
    ["Interval", ["enabled", "granularity", "interval"], 'unknown key (did you mean "interval"?)'],
    ["zzz", ["a_key", "b_key"], "unknown key (allowed: a_key, b_key)"],
    ["zzz", undefined, "unknown key"],
  ])("%s", (key, known, message) => {
    expect(describeUnknownKey(key, known)).toBe(message);
  });
});

describe("knownKeysAt", () => {
  it.each([
    [
      [],
      [
        "api",
        "clusters",
        "metrics",
        "import_jobs",
        "spark_jobs",
        "jobs",
        "inventory",
        "collections",
        "groups",
        "backups",
        "global_clusters",
        "alert_rules",
        "private_endpoints",
        "on_demand_compute",
        "storage_integrations",
        "api_keys",
        "pipelines",
        "canary",
        "billing",
        "slo",
        "native_export",
        "families",
        "server",
        "staleness_intervals",
      ],
    ],
    [
      ["clusters", 0, "data_plane"],
      ["endpoint", "token_file"],
    ],
    [["families"], ["allow", "deny"]],
    [
      ["inventory", "discovery"],
      ["enabled", "project_ids", "region_ids", "max_clusters"],
    ],
    [
      ["clusters", 3, "scopes", 0],
      ["db_name", "collection_name", "queries"],
    ],
    [
      ["clusters", 0, "scopes", 1, "queries", 0],
      ["name", "stat"],
    ],
    [
      ["metrics", "queries", 1],
      ["name", "stat"],
    ],
  ] as const)("%j", (path, keys) => {
    expect(knownKeysAt(configFileSchema(), path)).toEqual(keys);
  });

  it("is undefined where there is no object", () => {
    expect(knownKeysAt(configFileSchema(), ["api", "rate_limit"])).toBeUndefined();
    expect(knownKeysAt(configFileSchema(), ["nope"])).toBeUndefined();
  });
});
