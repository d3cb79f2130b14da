import { describe, expect, it } from "vitest";
import type { CloudApi, Invoice, InvoicePage, UsageItem } from "../../upstream/types.js";
import { mapInvoices, mapUsage, selectInvoices } from "./mapping.js";
import { listAllInvoices } from "./tasks.js";
import type { DayUsage } from "./usage.js";

const item = (over: Partial<UsageItem>): UsageItem => ({
  costType: "compute",
  clusterId: "in01-a",
  projectId: "p1",
  regionId: "aws-us-west-2",
  quantity: "24",
  unit: "CU-hour",
  amount: "100",
  ...over,
});
const day = (...items: UsageItem[]): DayUsage => ({ currency: "USD", items });
const values = (r: ReturnType<typeof mapUsage>, family: string) =>
  r.samples.filter((s) => s.family === family).map((s) => [s.labels, s.value]);

describe("mapUsage", () => {
  const days = new Map([
    ["2026-02-28", day(item({ amount: "999" }))],
    ["2026-03-13", day(item({ amount: "0.1" }))],
    // Yesterday, cut by a page boundary: the same cluster and type twice, summed exactly.
    [
      "2026-03-14",
      day(
        item({ amount: "1.1" }),
        item({ amount: 0.2 as unknown as string }),
        item({
          clusterId: "",
          projectId: "",
          regionId: "",
          costType: "migration_cross_region",
          amount: "5",
          quantity: null,
        }),
      ),
    ],
    ["2026-03-15", day(item({ amount: "0.3" }))],
  ]);

  it("exposes yesterday's cost in the major unit, its start, and the month to date, exactly", () => {
    const r = mapUsage(days, "2026-03-15", "cents");
    const a = {
      cluster_id: "in01-a",
      project_id: "p1",
      region_id: "aws-us-west-2",
      cost_type: "compute",
      currency: "USD",
    };
    const org = {
      cluster_id: "",
      project_id: "",
      region_id: "",
      cost_type: "migration_cross_region",
      currency: "USD",
    };
    expect(values(r, "vdbcloud_daily_cost")).toEqual([
      [a, 0.013],
      [org, 0.05],
    ]);
    // 0.1 + 1.1 + 0.2 + 0.3 cents; February's day is not this month's.
    expect(values(r, "vdbcloud_month_to_date_cost")).toEqual([
      [a, 0.017],
      [org, 0.05],
    ]);
    expect(values(r, "vdbcloud_daily_cost_timestamp_seconds")).toEqual([
      [{}, Date.parse("2026-03-14T00:00:00Z") / 1000],
    ]);
    expect(values(r, "vdbcloud_daily_usage")).toEqual([
      [
        {
          cluster_id: "in01-a",
          project_id: "p1",
          region_id: "aws-us-west-2",
          cost_type: "compute",
          unit: "CU-hour",
        },
        48,
      ],
    ]);
  });

  it("takes amounts as they are with amount_unit major", () => {
    expect(values(mapUsage(days, "2026-03-15", "major"), "vdbcloud_daily_cost")[0]?.[1]).toBe(1.3);
  });

  it("drops an unreadable amount and counts it; no timestamp before yesterday is read", () => {
    const r = mapUsage(new Map([["2026-03-15", day(item({ amount: null }))]]), "2026-03-15", "cents");
    expect(r.samples).toEqual([]);
    expect(r.dropped).toEqual({ unparsable_value: 1 });
  });
});

const invoice = (id: string, status: string, month: number, over: Partial<Invoice> = {}): Invoice => ({
  id,
  status,
  currency: "USD",
  periodStartMs: Date.UTC(2026, month, 1),
  dueDateMs: Date.UTC(2026, month + 1, 15),
  invoiceDateMs: Date.UTC(2026, month + 1, 1),
  total: "123456",
  amountDue: status === "paid" ? "0" : "123456",
  ...over,
});

describe("invoices", () => {
  const all = [
    invoice("old-overdue", "overdue", 0),
    invoice("paid-1", "paid", 1),
    invoice("free-1", "free", 2, { total: "0", amountDue: "0" }),
    invoice("paid-2", "paid", 3),
    invoice("unpaid", "unpaid", 4),
    invoice("unbilled", "unbilled", 5),
  ];

  it.each([
    [3, ["unbilled", "unpaid", "paid-2", "old-overdue"]],
    [0, ["unbilled", "unpaid", "old-overdue"]],
    [10, ["unbilled", "unpaid", "paid-2", "free-1", "paid-1", "old-overdue"]],
  ])("keep %i: the newest and every one not settled, newest first", async (keep, ids) => {
    // Listed through the pager, two a page, the listing moving by one between pages 1 and 2:
    // "paid-1" is listed twice and kept once.
    const pages = [[0, 1], [1, 2], [3, 4], [5]].map((p) => p.map((i) => all[i] as Invoice));
    const client = {
      listInvoices: async (args: { currentPage: number }): Promise<InvoicePage> => {
        const invoices = pages[args.currentPage - 1] ?? [];
        return {
          total: all.length,
          currentPage: args.currentPage,
          pageSize: 2,
          listed: invoices.length,
          invoices,
        };
      },
    } as unknown as CloudApi;
    expect(selectInvoices(await listAllInvoices(client), keep).map((i) => i.id)).toEqual(ids);
  });

  it("maps the status state set (an unknown one added lowercased), amounts in the major unit, dates in seconds", () => {
    const r = mapInvoices(
      [invoice("inv-1", "Overdue", 1), invoice("inv-2", "In_Review", 2, { dueDateMs: null })],
      "cents",
    );
    const status = r.samples.filter((s) => s.family === "vdbcloud_invoice_status");
    expect(status.filter((s) => s.labels.invoice_id === "inv-1")).toHaveLength(7);
    expect(status.filter((s) => s.value === 1).map((s) => s.labels)).toEqual([
      { invoice_id: "inv-1", status: "overdue" },
      { invoice_id: "inv-2", status: "in_review" },
    ]);
    expect(status.filter((s) => s.labels.invoice_id === "inv-2")).toHaveLength(8);
    const of = (family: string) =>
      r.samples.filter((s) => s.family === family).map((s) => [s.labels, s.value]);
    expect(of("vdbcloud_invoice_amount_due")).toEqual([
      [{ invoice_id: "inv-1", currency: "USD" }, 1234.56],
      [{ invoice_id: "inv-2", currency: "USD" }, 1234.56],
    ]);
    expect(of("vdbcloud_invoice_amount")[0]?.[1]).toBe(1234.56);
    expect(of("vdbcloud_invoice_due_timestamp_seconds")).toEqual([
      [{ invoice_id: "inv-1" }, Date.UTC(2026, 2, 15) / 1000],
    ]);
    expect(of("vdbcloud_invoice_period_start_timestamp_seconds")).toHaveLength(2);
  });
});
