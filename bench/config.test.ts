import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildConfig } from "../src/config/load.js";
import {
  benchTempDir,
  chooseScopes,
  cycleIntervalMs,
  isoDuration,
  removeBenchTempDir,
  scenarioConfig,
  writeConfigFile,
} from "./config.js";

const col = (dbName: string, collectionName: string) => ({ dbName, collectionName });
const WORLD = {
  baseUrl: "http://127.0.0.1:1",
  controllerUrlTemplate: "http://127.0.0.1:1/ctl/{region}",
  clusters: [
    {
      id: "in01-a",
      regionId: "aws-us-west-2",
      projectId: "proj-1",
      collections: [col("default", "a1"), col("analytics", "a2")],
    },
    { id: "in01-b", regionId: "aws-us-west-2", projectId: "proj-1", collections: [col("default", "b1")] },
    { id: "in01-c", regionId: "gcp-us-west1", projectId: "proj-2", collections: [] },
  ],
  sparkJobs: [{ projectId: "proj-1", jobId: "job-1" }],
};

describe("cycleIntervalMs", () => {
  it.each([
    { targets: 1, rate: 20, want: 30_000 },
    { targets: 360, rate: 20, want: 30_000 },
    { targets: 361, rate: 20, want: 60_000 },
    { targets: 1000, rate: 20, want: 90_000 },
    { targets: 1100, rate: 20, want: 120_000 },
    { targets: 2400, rate: 20, want: 210_000 },
    { targets: 600, rate: 20, utilisation: 1, want: 30_000 },
  ])("$targets targets at $rate/s -> $want ms", ({ targets, rate, utilisation, want }) => {
    expect(cycleIntervalMs(targets, rate, utilisation)).toBe(want);
  });
});

describe("isoDuration", () => {
  it.each([
    { ms: 30_000, want: "PT30S" },
    { ms: 150_000, want: "PT150S" },
  ])("$ms -> $want", ({ ms, want }) => {
    expect(isoDuration(ms)).toBe(want);
  });
});

describe("chooseScopes", () => {
  it.each([
    { count: 0, want: {} },
    { count: 2, want: { "in01-a": ["a1"], "in01-b": ["b1"] } },
    { count: 3, want: { "in01-a": ["a1", "a2"], "in01-b": ["b1"] } },
    { count: 10, want: { "in01-a": ["a1", "a2"], "in01-b": ["b1"] } },
  ])("spreads $count scopes over clusters first", ({ count, want }) => {
    const got = chooseScopes(WORLD.clusters, count);
    expect(Object.fromEntries([...got].map(([id, s]) => [id, s.map((x) => x.collectionName)]))).toEqual(want);
  });
});

describe("scenarioConfig", () => {
  it("is a valid exporter config with the asked intervals, scopes and collectors", async () => {
    const raw = scenarioConfig({
      sim: WORLD,
      apiKey: "k",
      intervalMs: 90_000,
      scopes: chooseScopes(WORLD.clusters, 1),
      collectors: { importJobs: false, sparkJobs: true, inventory: true },
    });
    const config = await buildConfig(raw);
    expect(config.metrics.intervalMs).toBe(90_000);
    expect(config.metrics.granularityMs).toBe(30_000);
    expect(config.importJobs.enabled).toBe(false);
    expect(config.inventory.enabled).toBe(true);
    expect(config.sparkJobs.jobs).toEqual([{ projectId: "proj-1", jobId: "job-1" }]);
    expect(config.clusters.map((c) => [c.id, c.scopes])).toEqual([
      ["in01-a", [{ dbName: "default", collectionName: "a1" }]],
      ["in01-b", []],
      ["in01-c", []],
    ]);
    expect(config.api.rateLimit).toBe(20);
  });

  it("keeps only the asked clusters and applies the rate limit", async () => {
    const raw = scenarioConfig({
      sim: WORLD,
      apiKey: "k",
      intervalMs: 30_000,
      clusterIds: ["in01-b"],
      rateLimit: 1000,
      collectors: { importJobs: true, sparkJobs: false, inventory: false },
    });
    const config = await buildConfig(raw);
    expect(config.clusters.map((c) => c.id)).toEqual(["in01-b"]);
    expect(config.api.rateLimit).toBe(1000);
    expect(config.sparkJobs.jobs).toEqual([]);
  });

  it("round-trips through the YAML file it writes", async () => {
    const raw = scenarioConfig({
      sim: WORLD,
      apiKey: "k",
      intervalMs: 60_000,
      collectors: { importJobs: true, sparkJobs: true, inventory: true },
    });
    const path = await writeConfigFile("t", raw);
    expect(parse(await readFile(path, "utf8"))).toEqual(raw);
    // Every file of a run lives under the run's directory, which goes with it.
    expect(dirname(dirname(path))).toBe(benchTempDir());
    removeBenchTempDir();
    expect(existsSync(path)).toBe(false);
  });
});
