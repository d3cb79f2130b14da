/**
 * End to end: cost history backfilled by the built CLI with billing enabled (the billing key of
 * its own), turned into blocks by the real `promtool tsdb create-blocks-from openmetrics`,
 * served by a real Prometheus: at each day's start it holds exactly that day's cost per cluster
 * and cost type, as the simulator's rows add up, under the live exporter's names and labels.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import { BackfilledPrometheus } from "./helpers/backfillPrometheus.js";
import { tempDir } from "./helpers/tempDir.js";
import { toolOrSkip } from "./helpers/tools.js";

const DAY = 86_400_000;
const BILLING_KEY = "sk-billing-history";

const promtool = toolOrSkip("promtool");
const prometheusTool = toolOrSkip("prometheus");

/** Cents text as hundredths of a cent, and those as the major unit's double through exact text. */
const hundredths = (amount: string | number) => {
  const [whole = "0", frac = ""] = String(amount).split(".");
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, "0").slice(0, 2));
};
const major = (h: bigint) => {
  const text = h.toString().padStart(5, "0");
  return Number(`${text.slice(0, -4)}.${text.slice(-4)}`);
};

describe.skipIf(promtool.skip || prometheusTool.skip)("cost backfill into a real Prometheus", () => {
  let sim: Simulator;
  let dir: string;
  const prometheus = new BackfilledPrometheus({ promtool, prometheus: prometheusTool });
  const today = Math.floor(Date.now() / DAY) * DAY;
  // Four whole days; the window's end is today's start, so every day in it has ended.
  const from = today - 4 * DAY;
  const to = today;

  const instant = (query: string, atMs: number) => prometheus.instant(query, atMs);

  beforeAll(async () => {
    // 40 clusters: every day is more than one page of usage.
    sim = await startSimulator({ clusters: 40, rateLimitPerSecond: 0, billingKeys: [BILLING_KEY] });
    dir = tempDir("backfill-cost-");
    const config = {
      api: {
        base_url: sim.baseUrl,
        controller_url: sim.controllerUrlTemplate,
        api_key: "k",
        rate_limit: 200,
      },
      clusters: [],
      billing: { enabled: true, api_key: BILLING_KEY },
    };
    await prometheus.start({ dir, config, fromMs: from, toMs: to });
  }, 120_000);

  afterAll(async () => {
    await prometheus.stop();
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("holds each day's cost per cluster and cost type at the day's start, exactly", async () => {
    for (let t = from; t < to; t += DAY) {
      const day = new Date(t).toISOString().slice(0, 10);
      const rows = sim.billing.usageRows(day, day);
      expect(rows.length).toBeGreaterThan(100);
      const expected = new Map<string, bigint>();
      for (const { item } of rows) {
        const key = `${item.properties?.clusterId ?? ""}|${item.costType}`;
        expected.set(key, (expected.get(key) ?? 0n) + hundredths(item.amount));
      }
      const got = await instant("vdbcloud_daily_cost", t);
      expect(
        new Map(got.map((v) => [`${v.metric.cluster_id}|${v.metric.cost_type}`, Number(v.value[1])])),
      ).toEqual(new Map([...expected].map(([k, v]) => [k, major(v)])));
      // Stamped at the day's start: one sample per day, none in between.
      const count = await instant(
        `count_over_time(vdbcloud_daily_cost{cost_type="compute"}[${DAY / 1000 - 1}s])`,
        t + DAY - 1000,
      );
      expect(count.every((v) => v.value[1] === "1")).toBe(true);
      expect(count.length).toBeGreaterThan(0);
    }
  });

  it("writes the live labels, usage beside cost, and no day outside [from, to)", async () => {
    const series = await instant("vdbcloud_daily_cost", from);
    expect(Object.keys(series[0]?.metric ?? {}).sort()).toEqual(
      ["__name__", "cluster_id", "cost_type", "currency", "project_id", "region_id"].sort(),
    );
    const usage = await instant("vdbcloud_daily_usage", from);
    // One usage series per cost series: each cost type has one unit.
    expect(usage.length).toBe(series.length);
    expect(await instant(`count_over_time(vdbcloud_daily_cost[${DAY / 1000 - 1}s])`, from - 1000)).toEqual(
      [],
    );
    expect(
      await instant(`count_over_time(vdbcloud_daily_cost[${DAY / 1000 - 1}s])`, to + DAY - 1000),
    ).toEqual([]);
  });
});
