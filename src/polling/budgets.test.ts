import { describe, expect, it } from "vitest";
import { COLLECTORS } from "../collectors/registry.js";
import { buildConfig } from "../config/load.js";
import { shardOf } from "../config/shard.js";
import { ENDPOINT } from "../upstream/types.js";
import { replicaBudgets, SHARD_ZERO_ENDPOINTS, shareOf } from "./budgets.js";
import { credentialLabeler } from "./credentials.js";
import { computeSchedule } from "./schedule.js";

const METRICS = ENDPOINT.queryClusterMetrics;
const REGIONS = ENDPOINT.listRegions;
const DEFAULT_KEY = "default-key";
const TEAM_KEY = "team-key";
/**
 * The API keys collector (on by default) has a key of its own (api_keys.api_key, else the
 * default key) and so a client of its own on shard 0, at the whole budget.
 */
const API_KEYS_LINE = {
  credential: "api_keys",
  endpoints: "api_keys",
  perSecond: 20,
  why: "the whole budget: only shard 0 reads api_keys, with a client of its own",
};

function config(raw: Record<string, unknown> = {}) {
  const { api, ...rest } = raw;
  return buildConfig({ api: { api_key: DEFAULT_KEY, ...(api as object) }, ...rest }, { env: {} });
}

/** Distinct cluster IDs that hash to `shards` of `total` (in that order), one each. */
function clustersOn(shards: readonly number[], total: number): string[] {
  const ids: string[] = [];
  let i = 0;
  for (const want of shards) {
    for (; ; i++) {
      const id = `in01-${String(i).padStart(16, "0")}`;
      if (shardOf(id, total) === want) {
        ids.push(id);
        i++;
        break;
      }
    }
  }
  return ids;
}

describe("shareOf: a replica's whole requests of a shared budget", () => {
  it.each([
    { rate: 20, sharers: 1, ranks: [0], shares: [20] },
    { rate: 20, sharers: 2, ranks: [0, 1], shares: [10, 10] },
    { rate: 20, sharers: 3, ranks: [0, 1, 2], shares: [7, 7, 6] },
    { rate: 20, sharers: 6, ranks: [0, 1, 2, 3, 4, 5], shares: [4, 4, 3, 3, 3, 3] },
    { rate: 20, sharers: 20, ranks: [0, 19], shares: [1, 1] },
    { rate: 7, sharers: 3, ranks: [0, 1, 2], shares: [3, 2, 2] },
  ])(
    "rate $rate, $sharers sharers: $shares by rank, adding up to the budget",
    ({ rate, sharers, ranks, shares }) => {
      expect(ranks.map((r) => shareOf(rate, sharers, r))).toEqual(shares);
      const all = Array.from({ length: sharers }, (_, r) => shareOf(rate, sharers, r));
      expect(all.reduce((a, b) => a + b, 0)).toBe(rate);
    },
  );

  it.each([
    { rate: 20, sharers: 3, share: 6 },
    { rate: 20, sharers: 2, share: 10 },
    { rate: 20, sharers: 7, share: 2 },
  ])(
    "rank unknown: everyone takes the whole part, $share of $rate for $sharers",
    ({ rate, sharers, share }) => {
      expect(shareOf(rate, sharers, undefined)).toBe(share);
      expect(share * sharers).toBeLessThanOrEqual(rate);
    },
  );
});

describe("replicaBudgets: the share of each key this replica spends", () => {
  it.each([
    { name: "one replica", shard: { index: 0, total: 1 }, api: {}, metrics: 20, regions: 20 },
    { name: "shard 0 of 3, one key", shard: { index: 0, total: 3 }, api: {}, metrics: 7, regions: 20 },
    { name: "shard 1 of 3, one key", shard: { index: 1, total: 3 }, api: {}, metrics: 7, regions: 7 },
    { name: "shard 2 of 3, one key", shard: { index: 2, total: 3 }, api: {}, metrics: 6, regions: 6 },
    { name: "shard 1 of 2", shard: { index: 1, total: 2 }, api: {}, metrics: 10, regions: 10 },
    {
      name: "3 replicas, each its own key",
      shard: { index: 2, total: 3 },
      api: { replicas_per_key: 1 },
      metrics: 20,
      regions: 20,
    },
    {
      name: "6 replicas, a key per pair",
      shard: { index: 0, total: 6 },
      api: { replicas_per_key: 2 },
      metrics: 10,
      regions: 20,
    },
    {
      name: "one replica whose key two more exporters use (their shard 0 lists regions too)",
      shard: { index: 0, total: 1 },
      api: { replicas_per_key: 3 },
      metrics: 6,
      regions: 6,
    },
  ])("$name: metrics $metrics, regions $regions", async ({ shard, api, metrics, regions }) => {
    const budgets = replicaBudgets(await config({ api }), shard);
    expect(budgets.rateOf({}, METRICS)).toBe(metrics);
    expect(budgets.rateOf({}, REGIONS)).toBe(regions);
    expect(budgets.problems).toEqual([]);
    const rates = budgets.endpointRates({});
    if (metrics === 20) expect(rates).toEqual({});
    else {
      expect(rates[METRICS]).toBe(metrics);
      expect(rates[REGIONS]).toBe(regions);
    }
  });

  it.each([
    { name: "on one shard", shards: [1, 1], total: 3, share: 20 },
    { name: "on two shards", shards: [1, 2], total: 3, share: 10 },
    { name: "on three shards", shards: [0, 1, 2], total: 3, share: 7 },
  ])("a cluster's own key, its clusters $name: $share on shard 1", async ({ shards, total, share }) => {
    const ids = clustersOn(shards, total);
    const cfg = await config({ clusters: ids.map((id) => ({ id, api_key: TEAM_KEY })) });
    const budgets = replicaBudgets(cfg, { index: 1, total });
    expect(budgets.rateOf({ apiKey: TEAM_KEY }, METRICS)).toBe(share);
    // The default key stays shared by every replica (cluster discovery, jobs by ID, ...).
    expect(budgets.rateOf({}, METRICS)).toBe(shareOf(20, total, 1));
  });

  it("refuses to split a key among more replicas than its rate", async () => {
    const budgets = replicaBudgets(await config(), { index: 3, total: 30 });
    expect(budgets.rateOf({}, METRICS)).toBe(1);
    expect(budgets.problems).toEqual([
      "30 replicas share one key's 20 requests per second (--total-shards 30: every replica uses the key): fewer than one each; give replicas keys of their own (api.replicas_per_key, clusters[].api_key) or use at most 20 replicas per key",
    ]);
  });

  it.each([
    {
      name: "one replica",
      shard: { index: 0, total: 1 },
      lines: [
        {
          credential: "default",
          endpoints: "every endpoint",
          perSecond: 20,
          why: "the whole budget: one replica",
        },
        API_KEYS_LINE,
      ],
    },
    {
      name: "shard 0 of 3",
      shard: { index: 0, total: 3 },
      lines: [
        {
          credential: "default",
          endpoints: [...SHARD_ZERO_ENDPOINTS].join(", "),
          perSecond: 20,
          why: "the whole budget: only shard 0 makes these account-wide calls",
        },
        {
          credential: "default",
          endpoints: "every other endpoint",
          perSecond: 7,
          why: "--total-shards 3: every replica uses the key: 20 / 3 in whole requests, the first 2 by shard taking one more",
        },
        API_KEYS_LINE,
      ],
    },
    {
      name: "shard 2 of 4",
      shard: { index: 2, total: 4 },
      lines: [
        {
          credential: "default",
          endpoints: "every endpoint",
          perSecond: 5,
          why: "--total-shards 4: every replica uses the key: 20 / 4 in whole requests",
        },
      ],
    },
  ])("says which budget each credential uses and why: $name", async ({ shard, lines }) => {
    const cfg = await config();
    const budgets = replicaBudgets(cfg, shard);
    expect(budgets.lines(cfg.clusters, credentialLabeler(DEFAULT_KEY, cfg.clusters))).toEqual(lines);
  });

  it("names cluster keys by label, billing and the data planes, and never a key", async () => {
    const [id] = clustersOn([0], 2);
    const cfg = await config({
      clusters: [{ id, api_key: TEAM_KEY }],
      billing: { enabled: true },
      collections: { enabled: true },
    });
    const lines = replicaBudgets(cfg, { index: 0, total: 2 }).lines(
      cfg.clusters,
      credentialLabeler(DEFAULT_KEY, cfg.clusters),
    );
    expect(lines.map((l) => [l.credential, l.perSecond, l.endpoints])).toEqual([
      ["default", 20, [...SHARD_ZERO_ENDPOINTS].join(", ")],
      ["default", 10, "every other endpoint"],
      ["cluster key #1", 20, "every endpoint"],
      ["api_keys", 20, "api_keys"],
      ["billing", 20, "billing"],
      ["data plane", 10, "each polled cluster's data plane"],
    ]);
    expect(JSON.stringify(lines)).not.toContain(TEAM_KEY);
    expect(JSON.stringify(lines)).not.toContain(DEFAULT_KEY);
  });
});

describe("SHARD_ZERO_ENDPOINTS", () => {
  it("are the endpoints the registry's collectors call on shard 0 only, with every collector on", async () => {
    const cfg = await config({
      clusters: Array.from({ length: 40 }, (_, i) => ({
        id: `in01-${String(i).padStart(16, "0")}`,
        region: "aws-us-west-2",
      })),
      inventory: { discovery: { enabled: true } },
      groups: { ids: ["g1", "g2"] },
      billing: { enabled: true },
      jobs: { ids: Array.from({ length: 20 }, (_, i) => `job-${i}`) },
      spark_jobs: { jobs: Array.from({ length: 20 }, (_, i) => ({ project_id: "p", job_id: `j${i}` })) },
    });
    const endpoints = (index: number) =>
      new Set(
        computeSchedule(COLLECTORS, cfg, { shard: { index, total: 2 } }).tasks.flatMap((t) =>
          t.calls.map((c) => c.endpoint),
        ),
      );
    const zero = endpoints(0);
    const one = endpoints(1);
    // Never called by another shard: shard 0 may spend the whole budget on them.
    expect([...one].filter((e) => SHARD_ZERO_ENDPOINTS.has(e))).toEqual([]);
    // Every endpoint only shard 0 calls is one of them (v1 List Projects is only a fallback).
    const onlyZero = [...zero].filter((e) => !one.has(e)).sort();
    expect(onlyZero).toEqual([...SHARD_ZERO_ENDPOINTS].filter((e) => e !== ENDPOINT.listProjects).sort());
  });
});
