import { afterEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "./index.js";

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const NOW = Date.parse("2026-03-15T10:30:00Z");

/** The fields of a billing answer's `data` these tests read. */
interface Data {
  readonly results: readonly { readonly intervalStart: string; readonly items: readonly unknown[] }[];
  readonly invoices: readonly unknown[];
}

async function call(s: Simulator, key: string, path: string, body?: unknown) {
  const res = await fetch(`${s.baseUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as { code: number; message?: string; data: Data } };
}

describe("simulated billing", () => {
  it("keeps the billing key and the monitoring key to their own endpoints", async () => {
    sim = await startSimulator({ clusters: 2, now: () => NOW, billingKeys: ["bill"] });
    const usage = { start: "2026-03-14", end: "2026-03-15" };
    expect((await call(sim, "bill", "/v2/usage/query", usage)).json.code).toBe(0);
    expect((await call(sim, "bill", "/v2/invoices")).json.code).toBe(0);
    const refused = await call(sim, "monitor", "/v2/usage/query", usage);
    expect(refused).toMatchObject({ status: 403, json: { code: 96013 } });
    expect(refused.json.message).toMatch(/Organization Owner or Billing Admin/);
    expect((await call(sim, "monitor", "/v2/invoices")).status).toBe(403);
    expect((await call(sim, "bill", "/v2/regions")).status).toBe(403);
    expect((await call(sim, "monitor", "/v2/regions")).json.code).toBe(0);
    expect(sim.stats.byEndpointKey["POST /v2/usage/query"]).toEqual({ bill: 1, monitor: 1 });
  });

  it("lets any accepted key read billing when no billing key is set", async () => {
    sim = await startSimulator({ clusters: 2, now: () => NOW });
    expect((await call(sim, "any", "/v2/invoices")).json.code).toBe(0);
  });

  it("pages usage rows (default 10), cutting a day across pages, and validates the body", async () => {
    sim = await startSimulator({ clusters: 5, now: () => NOW });
    const rows = sim.billing.usageRows("2026-03-13", "2026-03-14");
    const first = await call(sim, "k", "/v2/usage/query", { start: "2026-03-13", end: "2026-03-14" });
    expect(first.json.data).toMatchObject({ currentPage: 1, pageSize: 10, total: rows.length });
    const pages: Data[] = [];
    for (let p = 1; p <= Math.ceil(rows.length / 7); p++) {
      pages.push(
        (
          await call(sim, "k", "/v2/usage/query", {
            start: "2026-03-13",
            end: "2026-03-14",
            pageSize: 7,
            currentPage: p,
          })
        ).json.data,
      );
    }
    const intervals = pages.flatMap((d) => d.results.map((r) => r.intervalStart));
    // 15 rows a day in pages of 7: each day shows up on more than one page.
    expect(intervals.filter((i) => i.startsWith("2026-03-13")).length).toBeGreaterThan(1);
    expect(pages.flatMap((d) => d.results.flatMap((r) => r.items))).toEqual(rows.map((r) => r.item));
    for (const bad of [
      { start: "13/03/2026", end: "2026-03-14" },
      { start: "2026-03-13", end: "2026-03-14", pageSize: 101 },
    ]) {
      expect((await call(sim, "k", "/v2/usage/query", bad)).json.code).toBe(80003);
    }
    // Nothing after today; today's amounts are the part of the day gone by.
    expect(sim.billing.usageRows("2026-03-16", "2026-03-20")).toEqual([]);
  });

  it("lists eight monthly invoices with the documented statuses, amounts in cents", async () => {
    sim = await startSimulator({ now: () => NOW });
    const page = (await call(sim, "k", "/v2/invoices?pageSize=3&currentPage=3")).json.data;
    expect(page).toMatchObject({ count: 8, currentPage: 3, pageSize: 3 });
    expect(page.invoices).toHaveLength(2);
    const all = sim.billing.invoices();
    expect(all.map((i) => i.status)).toEqual([
      "paid",
      "overdue",
      "paid",
      "free",
      "paid",
      "paid",
      "overdue",
      "unbilled",
    ]);
    expect(
      all.every((i) => (i.status === "paid" || i.status === "free") === (Number(i.amountDue) === 0)),
    ).toBe(true);
  });
});
