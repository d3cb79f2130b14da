/**
 * The billing endpoints (Organization Owner or Billing Admin only; "public preview" in the
 * guides):
 * - Query Daily Usage: POST /v2/usage/query with `{start, end}` as UTC days (YYYY-MM-DD).
 *   Paging appears only in the answer (`currentPage`, `pageSize` 1..100 default 10, `total`
 *   rows); the request sends `pageSize` and `currentPage` in the body. `data.results` groups
 *   the page's items by interval, so one day's items may come in two pages.
 * - List Invoices: GET /v2/invoices?pageSize=&currentPage=, `data {count, currentPage, pageSize,
 *   invoices}`.
 *
 * Amounts and quantities stay decimal text here (a JSON number becomes its shortest text), so
 * the reader can scale and sum them exactly; what unit they are in is the caller's business.
 */
import { z } from "zod";
import { lenient, lenientText, lenientTextOrEmpty, lenientTimestampMs } from "../lenient.js";
import type { Invoice, InvoicePage, UsageDay, UsagePage } from "../results.js";
import { nullableNumeric, pageDataSchema, pageInfoOf, pageQuery, stringish, timestampMs } from "../wire.js";
import { defineEndpoint, PAGES, V2 } from "./define.js";

/** Arguments of Query Daily Usage: UTC days as YYYY-MM-DD; page numbers start at 1. */
interface QueryDailyUsageArgs {
  readonly start: string;
  readonly end: string;
  readonly pageSize: number;
  readonly currentPage: number;
}

/** Arguments of List Invoices. Page numbers start at 1. */
interface ListInvoicesArgs {
  readonly pageSize: number;
  readonly currentPage: number;
}

const DECIMAL_TEXT = /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** An amount or quantity: a number or decimal text, kept as text; anything else reads as null. */
const decimalText = lenient(
  z.union([
    z.number().refine(Number.isFinite).transform(String),
    z
      .string()
      .regex(DECIMAL_TEXT)
      .transform((s) => s.trim()),
  ]),
);

const usageItemSchema = z.object({
  costType: stringish,
  properties: z
    .object({
      projectId: lenientText,
      regionId: lenientText,
      clusterId: lenientText,
    })
    .nullish(),
  quantity: decimalText,
  unit: lenientText,
  amount: decimalText,
});

const usageResultSchema = z.object({
  intervalStart: timestampMs,
  intervalEnd: lenientTimestampMs,
  currency: lenientText,
  items: z.array(usageItemSchema).nullish(),
});

/** The envelope's `data` of Query Daily Usage. */
export const usageDataSchema = z.object({
  results: z.array(usageResultSchema).nullish(),
  currentPage: nullableNumeric,
  pageSize: nullableNumeric,
  total: nullableNumeric,
});

type UsageData = z.infer<typeof usageDataSchema>;

/** Maps `data` to a page: its intervals with their items, and how many rows it carried. */
export function normalizeUsage(data: UsageData): UsagePage {
  const days: UsageDay[] = (data.results ?? []).map((r) => ({
    intervalStartMs: r.intervalStart,
    currency: r.currency,
    items: (r.items ?? []).map((item) => ({
      costType: item.costType,
      // An organization-level item has no cluster: "" is its cluster_id.
      clusterId: item.properties?.clusterId ?? "",
      projectId: item.properties?.projectId ?? "",
      regionId: item.properties?.regionId ?? "",
      quantity: item.quantity,
      unit: item.unit,
      amount: item.amount,
    })),
  }));
  const listed = days.reduce((n, d) => n + d.items.length, 0);
  return { ...pageInfoOf(data, listed, data.total), days };
}

/** Query Daily Usage (v2). */
export const queryDailyUsageEndpoint = defineEndpoint("POST /v2/usage/query", {
  scope: "account",
  paging: PAGES("total"),
  shardZero: true,
  planOrder: 13,
}).as<QueryDailyUsageArgs, UsageData, UsagePage>({
  request: (args) => ({
    target: V2,
    body: { start: args.start, end: args.end, pageSize: args.pageSize, currentPage: args.currentPage },
  }),
  schema: usageDataSchema,
  normalize: normalizeUsage,
});

const invoiceSchema = z.object({
  id: stringish,
  status: lenientTextOrEmpty,
  currency: lenientTextOrEmpty,
  periodStart: lenientTimestampMs,
  dueDate: lenientTimestampMs,
  invoiceDate: lenientTimestampMs,
  total: decimalText,
  amountDue: decimalText,
});

/** The envelope's `data` of List Invoices. */
export const invoicesDataSchema = pageDataSchema("invoices", invoiceSchema);

type InvoicesData = z.infer<typeof invoicesDataSchema>;

/** Maps `data` to a page of invoices; `count` is null when the answer left it out. */
export function normalizeInvoices(data: InvoicesData): InvoicePage {
  const invoices: Invoice[] = (data.invoices ?? []).map((i) => ({
    id: i.id,
    status: i.status,
    currency: i.currency,
    periodStartMs: i.periodStart,
    dueDateMs: i.dueDate,
    invoiceDateMs: i.invoiceDate,
    total: i.total,
    amountDue: i.amountDue,
  }));
  return { ...pageInfoOf(data, invoices.length), invoices };
}

/** List Invoices (v2). */
export const listInvoicesEndpoint = defineEndpoint("GET /v2/invoices", {
  scope: "account",
  paging: PAGES("count"),
  shardZero: true,
  planOrder: 14,
}).as<ListInvoicesArgs, InvoicesData, InvoicePage>({
  request: (args) => ({ target: V2, query: pageQuery(args) }),
  schema: invoicesDataSchema,
  normalize: normalizeInvoices,
});
