/**
 * Cost against the simulator: daily usage paged and split across pages, the month to date,
 * invoices, the billing key kept to the billing endpoints, and a key without the billing role.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { SimUsageRow } from "../src/simulator/index.js";
import { type Harness, parseSamples, startHarness, TEST_API_KEY } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";
import { promtoolLint } from "./helpers/promtoolLint.js";
import { sectionsOff } from "./helpers/sectionsOff.js";
import { toolOrSkip, toolPath } from "./helpers/tools.js";

const promtool = toolOrSkip("promtool");

const USAGE = "POST /v2/usage/query";
const INVOICES = "GET /v2/invoices";
const BILLING_KEY = "sk-billing-fedcba9876543210-SECRET";
/** 10:30 UTC on the 15th: yesterday is the 14th, the month began on the 1st. */
const NOW = Date.parse("2026-03-15T10:30:00Z");
const HOUR = 3_600_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** An exporter polling billing (and groups, as the other collector), on a manual clock. */
async function start(
  billing: Record<string, unknown>,
  opts: {
    logs?: string[];
    clusters?: number;
    shard?: { index: number; total: number };
    /** Each Query Daily Usage request's body. */
    onUsage?: (body: Record<string, unknown>) => void;
  } = {},
) {
  const clock = new ManualClock(NOW);
  h = await startHarness({
    clock,
    ...(opts.logs ? { logs: opts.logs } : {}),
    ...(opts.shard ? { shard: opts.shard } : {}),
    sim: {
      clusters: opts.clusters ?? 40,
      now: () => clock.now(),
      billingKeys: [BILLING_KEY],
      onRequestDone: (done) => {
        if (done.template === USAGE) opts.onUsage?.(done.body as Record<string, unknown>);
      },
    },
    config: (raw) => {
      raw.metrics = { enabled: false };
      Object.assign(raw, sectionsOff("billing"));
      raw.spark_jobs = { jobs: [], discovery: { enabled: false } };
      raw.jobs = { ids: [] };
      // The other collector beside billing: one call an hour, with the monitoring key.
      raw.groups = { ids: ["grp-admins"], interval: "PT1H" };
      raw.billing = { enabled: true, ...billing };
    },
  });
  await clock.advance(0);
  await h.settle();
  return { harness: h, clock };
}

/** Cents text ("1234.5", "7") as hundredths of a cent: exact integers to sum. */
function hundredths(amount: string | number): bigint {
  const [whole = "0", frac = ""] = String(amount).split(".");
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, "0").slice(0, 2));
}

/** Hundredths of a cent as the double of the major unit (cents / 100), through exact text. */
function major(h: bigint): number {
  const text = h.toString().padStart(5, "0");
  return Number(`${text.slice(0, -4)}.${text.slice(-4)}`);
}

/** Expected cost per series key from simulator rows. */
function expectedCost(rows: readonly SimUsageRow[]): Map<string, number> {
  const sums = new Map<string, bigint>();
  for (const { item } of rows) {
    const p = item.properties;
    const key = [p?.clusterId ?? "", p?.projectId ?? "", p?.regionId ?? "", item.costType, "USD"].join("|");
    sums.set(key, (sums.get(key) ?? 0n) + hundredths(item.amount));
  }
  return new Map([...sums].map(([k, v]) => [k, major(v)]));
}

function exported(text: string, family: string): Map<string, number> {
  return new Map(
    parseSamples(text)
      .filter((s) => s.name === family)
      .map((s) => [
        [
          s.labels.cluster_id,
          s.labels.project_id,
          s.labels.region_id,
          s.labels.cost_type,
          s.labels.currency,
        ].join("|"),
        s.value,
      ]),
  );
}

describe("cost against the simulator", () => {
  it("exports yesterday's cost per cluster and cost type and the month to date, exact across split pages", async () => {
    const { harness } = await start({ api_key: BILLING_KEY });
    const text = await harness.metrics();
    const yesterday = harness.sim.billing.usageRows("2026-03-14", "2026-03-14");
    const month = harness.sim.billing.usageRows("2026-03-01", "2026-03-15");
    // 40 clusters x 3 cost types: every day is more than a page, so days are cut by pages.
    expect(yesterday.length).toBeGreaterThan(100);
    expect(
      yesterday.some((r) => r.item.properties === undefined) || month.some((r) => !r.item.properties),
    ).toBe(true);
    expect(exported(text, "vdbcloud_daily_cost")).toEqual(expectedCost(yesterday));
    expect(exported(text, "vdbcloud_month_to_date_cost")).toEqual(expectedCost(month));
    const stamp = parseSamples(text).find((s) => s.name === "vdbcloud_daily_cost_timestamp_seconds");
    expect(stamp?.value).toBe(Date.parse("2026-03-14T00:00:00Z") / 1000);
    // Usage: one series per cluster, cost type and unit, the quantity as sent.
    const usage = parseSamples(text).filter((s) => s.name === "vdbcloud_daily_usage");
    expect(usage).toHaveLength(yesterday.length);
    const first = yesterday[0];
    const seen = usage.find(
      (s) =>
        s.labels.cluster_id === first?.item.properties?.clusterId &&
        s.labels.cost_type === first?.item.costType,
    );
    expect(seen?.value).toBe(Number(first?.item.quantity));
    expect(seen?.labels.unit).toBe(first?.item.unit);
    // An organization-level item (no properties) has cluster_id "".
    expect(month.some((r) => r.item.properties === undefined)).toBe(true);
    expect(exported(text, "vdbcloud_month_to_date_cost").has("|||migration_cross_region|USD")).toBe(true);
    // The whole window, every page once: ceil(rows / 100) calls, pageSize 100 in the body.
    const window = harness.sim.billing.usageRows("2026-03-01", "2026-03-16");
    expect(harness.sim.stats.byEndpoint[USAGE]).toBe(Math.ceil(window.length / 100));
    expect(harness.sim.stats.lastRequest[USAGE]?.body).toMatchObject({
      start: "2026-03-01",
      end: "2026-03-16",
      pageSize: 100,
    });
  });

  it("exports invoice status, amount and amount due exactly: the newest three and every open one", async () => {
    const { harness } = await start({ api_key: BILLING_KEY });
    const text = await harness.metrics();
    const invoices = harness.sim.billing.invoices();
    const status = parseSamples(text).filter((s) => s.name === "vdbcloud_invoice_status" && s.value === 1);
    const current = Object.fromEntries(status.map((s) => [s.labels.invoice_id, s.labels.status]));
    const newest = invoices.slice(-3);
    const open = invoices.filter((i) => i.status !== "paid" && i.status !== "free");
    const wanted = new Set([...newest, ...open].map((i) => i.id));
    expect(Object.keys(current).sort()).toEqual([...wanted].sort());
    // The one overdue since long ago is kept although it is not among the newest.
    expect(current["inv-202509"]).toBe("overdue");
    expect(current["inv-202603"]).toBe("unbilled");
    expect(current["inv-202602"]).toBe("overdue");
    // Each money family by invoice: its value, in the invoice's currency.
    const byInvoice = (family: string) =>
      Object.fromEntries(
        parseSamples(text)
          .filter((s) => s.name === family)
          .map((s) => [s.labels.invoice_id, [s.value, s.labels.currency]]),
      );
    const amount = byInvoice("vdbcloud_invoice_amount");
    const due = byInvoice("vdbcloud_invoice_amount_due");
    expect(Object.keys(amount).sort()).toEqual([...wanted].sort());
    for (const id of wanted) {
      const invoice = invoices.find((i) => i.id === id);
      expect(amount[id]).toEqual([major(hundredths(invoice?.total ?? 0)), invoice?.currency]);
      expect(due[id]).toEqual([major(hundredths(invoice?.amountDue ?? 0)), invoice?.currency]);
    }
    // Seven states each, one of them 1.
    expect(parseSamples(text).filter((s) => s.name === "vdbcloud_invoice_status")).toHaveLength(
      wanted.size * 7,
    );
  });

  it("sends the billing key to the billing endpoints only, and no other key there", async () => {
    const { harness, clock } = await start({ api_key: BILLING_KEY });
    await clock.advance(HOUR);
    await harness.settle();
    const keys = harness.sim.stats.byEndpointKey;
    expect(Object.keys(keys[USAGE] ?? {})).toEqual([BILLING_KEY]);
    expect(Object.keys(keys[INVOICES] ?? {})).toEqual([BILLING_KEY]);
    const others = Object.entries(keys).filter(([endpoint]) => endpoint !== USAGE && endpoint !== INVOICES);
    expect(others.length).toBeGreaterThan(0);
    for (const [, byKey] of others) expect(Object.keys(byKey)).toEqual([TEST_API_KEY]);
    const text = await harness.metrics();
    expect(text).not.toContain(BILLING_KEY);
    expect(text).toMatch(/vdbcloud_collector_up\{collector="billing",target="usage"\} 1/);
  });

  it("re-reads only the newest days each hour, and the whole month once a day", async () => {
    // Every usage window asked (page 1 of each poll), in order.
    const windows: string[] = [];
    const { harness, clock } = await start(
      { api_key: BILLING_KEY },
      {
        onUsage: (body) => {
          if (body.currentPage === 1) windows.push(`${body.start}..${body.end}`);
        },
      },
    );
    expect(windows).toEqual(["2026-03-01..2026-03-16"]);
    const full = harness.sim.stats.byEndpoint[USAGE] ?? 0;
    // Time moves a quarter hour at a time, each poll finishing before the next (its calls take
    // real time); the hourly slot is between half an hour and an hour and a half away.
    const advance = async (ms: number) => {
      for (let t = 0; t < ms; t += HOUR / 4) {
        await clock.advance(HOUR / 4);
        await harness.settle();
      }
    };
    await advance(1.5 * HOUR);
    expect(windows).toEqual(["2026-03-01..2026-03-16", "2026-03-12..2026-03-16"]);
    const recent = harness.sim.billing.usageRows("2026-03-12", "2026-03-16");
    expect((harness.sim.stats.byEndpoint[USAGE] ?? 0) - full).toBe(Math.ceil(recent.length / 100));
    // Still exact: the cached days and the re-read ones together.
    const text = await harness.metrics();
    expect(exported(text, "vdbcloud_month_to_date_cost")).toEqual(
      expectedCost(harness.sim.billing.usageRows("2026-03-01", "2026-03-15")),
    );
    // Hourly recent reads until midnight; the next UTC day starts with a whole-month read.
    await advance(14 * HOUR);
    const firstOfNextDay = windows.findIndex((w) => w.endsWith("2026-03-17"));
    expect(windows.slice(2, firstOfNextDay).every((w) => w === "2026-03-12..2026-03-16")).toBe(true);
    expect(firstOfNextDay).toBeGreaterThanOrEqual(12);
    expect(windows[firstOfNextDay]).toBe("2026-03-01..2026-03-17");
    expect(windows.slice(firstOfNextDay + 1).every((w) => w === "2026-03-13..2026-03-17")).toBe(true);
    const next = await harness.metrics();
    expect(exported(next, "vdbcloud_daily_cost")).toEqual(
      expectedCost(harness.sim.billing.usageRows("2026-03-15", "2026-03-15")),
    );
  });

  it("a key without the billing role costs one warning line and nothing else", async () => {
    const logs: string[] = [];
    // No billing key of its own: the monitoring key, which the simulator refuses on billing.
    const { harness, clock } = await start({ interval: "PT5M" }, { logs });
    for (let i = 0; i < 6; i++) {
      await clock.advance(5 * 60_000);
      await harness.settle();
    }
    const warnings = () =>
      logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => (l.level as number) >= 40);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ collector: "billing", credential: "billing" });
    expect(String(warnings()[0]?.msg)).toContain("Organization Owner or Billing Admin");
    expect(logs.join("\n")).not.toContain(TEST_API_KEY);
    // Every other collector is unaffected.
    const text = await harness.metrics();
    const up = parseSamples(text).filter((s) => s.name === "vdbcloud_collector_up");
    expect(up.filter((s) => s.labels.collector !== "billing").every((s) => s.value === 1)).toBe(true);
    expect(up.filter((s) => s.labels.collector === "groups")).toHaveLength(1);
    expect(parseSamples(text).find((s) => s.name === "vdbcloud_group_members")?.value).toBe(3);
    expect(parseSamples(text).filter((s) => s.name.startsWith("vdbcloud_daily"))).toEqual([]);
    // Nothing else: billing itself is shown not permitted, not down (no failing-target alert).
    expect(up.filter((s) => s.labels.collector === "billing").map((s) => s.value)).toEqual([1, 1]);
    const notPermitted = parseSamples(text).filter((s) => s.name === "vdbcloud_collector_not_permitted");
    expect(
      notPermitted.map((s) => [s.labels.collector, s.labels.target, s.labels.credential, s.value]),
    ).toEqual([
      ["billing", "usage", "billing", 1],
      ["billing", "invoices", "billing", 1],
    ]);
    // An hour later, still the one line: the refusal is shown by the series, not repeated in the log.
    for (let i = 0; i < 8; i++) {
      await clock.advance(5 * 60_000);
      await harness.settle();
    }
    expect(warnings()).toHaveLength(1);
  });

  it("runs billing on shard 0 only", async () => {
    const { harness } = await start({ api_key: BILLING_KEY }, { shard: { index: 1, total: 2 } });
    expect(harness.sim.stats.byEndpoint[USAGE] ?? 0).toBe(0);
    expect(parseSamples(await harness.metrics()).filter((s) => s.name === "vdbcloud_daily_cost")).toEqual([]);
  });

  it.skipIf(promtool.skip)("passes promtool check metrics", async () => {
    const { harness } = await start({ api_key: BILLING_KEY });
    const text = await harness.metrics();
    expect(text).toContain("\nvdbcloud_invoice_amount{");
    // `promtool check metrics` exits non-zero on any lint problem and prints it: nothing may be reported.
    expect(promtoolLint(toolPath(promtool), text)).toEqual([]);
  });
});
