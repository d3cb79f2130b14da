/**
 * The billing collector's upstream calls per day at 100 clusters (printed by `npm run bench`):
 * one simulated UTC day of hourly polls (billing.interval PT1H) through the real client, the
 * collector's own usage cache and paging, against the simulator, counting the requests it
 * receives. Days of a month cost differently (the once-a-day read covers the month so far), so
 * the middle and the last day of a 31-day month are both measured, beside what re-reading the
 * whole month every hour would cost.
 */
import { BILLING_STATE, oldestNeeded } from "../src/collectors/billing/cache.js";
import { addDays, dayOf } from "../src/collectors/billing/days.js";
import { listAllInvoices, pollUsage } from "../src/collectors/billing/tasks.js";
import { USAGE_PAGE_SIZE } from "../src/collectors/billing/usage.js";
import { startSimulator } from "../src/simulator/index.js";
import { createCloudClient } from "../src/upstream/client.js";
import { ENDPOINT } from "../src/upstream/types.js";
import { table } from "./report.js";

const HOUR = 3_600_000;
const USAGE = ENDPOINT.queryDailyUsage;
const INVOICES = ENDPOINT.listInvoices;

/** Calls of one simulated day. */
export interface CostDay {
  readonly day: string;
  readonly usage: number;
  readonly invoices: number;
  /** Usage calls if every hourly poll re-read the whole month (no cache). */
  readonly uncached: number;
}

/** Runs the polls of the UTC day `day` (YYYY-MM-DD) with `clusters` simulated clusters. */
export async function costCallsOfDay(day: string, clusters: number): Promise<CostDay> {
  let now = Date.parse(`${day}T00:30:00Z`);
  const sim = await startSimulator({ clusters, rateLimitPerSecond: 0, now: () => now });
  const client = createCloudClient({
    baseUrl: sim.baseUrl,
    controllerUrl: sim.controllerUrlTemplate,
    apiKey: "bench-billing-key",
    requestTimeoutMs: 10_000,
    rateLimit: 1000,
    maxRetries: 0,
    maxResponseBytes: 64 * 1024 ** 2,
    maxInFlight: 4,
  });
  try {
    const state = BILLING_STATE.create();
    // The day before's last poll, as a running exporter left the cache: not counted.
    await pollUsage(client, state, now - HOUR, "cents");
    sim.stats.reset();
    let uncached = 0;
    for (let h = 0; h < 24; h++, now += HOUR) {
      await pollUsage(client, state, now, "cents");
      await listAllInvoices(client);
      // Without the cache every poll would read the whole window: its pages, counted, not asked.
      const today = dayOf(now);
      const rows = sim.billing.usageRows(oldestNeeded(today), addDays(today, 1), now).length;
      uncached += Math.ceil(rows / USAGE_PAGE_SIZE);
    }
    const usage = sim.stats.byEndpoint[USAGE] ?? 0;
    return { day, usage, invoices: sim.stats.byEndpoint[INVOICES] ?? 0, uncached };
  } finally {
    await client.close();
    await sim.close();
  }
}

/** The report's section: calls per day at `clusters` clusters, mid-month and on the last day. */
export async function renderCostCalls(progress: (m: string) => void, clusters = 100): Promise<string> {
  progress(`cost: one day of hourly billing polls at ${clusters} clusters`);
  const days = [await costCallsOfDay("2026-03-15", clusters), await costCallsOfDay("2026-03-31", clusters)];
  return [
    `billing calls per day at ${clusters} clusters (billing.interval PT1H, 3 cost types per cluster, pages of 100 rows)`,
    table([
      ["day", "Query Daily Usage", "List Invoices", "total", "usage without the day cache"],
      ...days.map((d) => [
        d.day,
        String(d.usage),
        String(d.invoices),
        String(d.usage + d.invoices),
        String(d.uncached),
      ]),
    ]),
  ].join("\n");
}

/** `report` with the billing section appended to its text. */
export function withCostCalls<R extends { readonly text: string }>(report: R, section: string): R {
  return { ...report, text: `${report.text}\n${section}\n` };
}
