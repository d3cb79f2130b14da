/**
 * Billing: Query Daily Usage (POST /v2/usage/query) and List Invoices (GET /v2/invoices), in
 * the reference's shapes, amounts in cents (some as JSON numbers with decimals, some as decimal
 * strings, so a reader must scale both exactly).
 *
 * Usage: every UTC day up to today (today's partial day grows with the hours) holds one row per
 * cluster and cost type (compute, storage and backup on dedicated plans; read_vcu, write_vcu and
 * storage_serverless on serverless and free ones) and, every third day, one organization-level
 * row without a cluster. Rows are paged (`pageSize` 1..100, default 10, in the body) and each
 * page groups its rows by day, so a day cut by a page boundary appears on two pages.
 *
 * Invoices: one per month for the last eight months, oldest first: the current month unbilled,
 * the previous one unpaid (overdue from the 15th), one free, one overdue from long ago, the rest
 * paid.
 */
import { ApiCode, SimApiError } from "./errors.js";
import { hashString, mix } from "./random.js";
import { intParam, type RouteDef } from "./route.js";
import { DAY_MS, HOUR_MS } from "./time.js";
import type { SimCluster } from "./world.js";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The currency every amount of the simulator is in. */
const SIM_CURRENCY = "USD";
/** Invoices listed: this many months, the current one included. */
const SIM_INVOICE_MONTHS = 8;

/** One item of a usage answer, as the service sends it. */
interface WireUsageItem {
  readonly costType: string;
  readonly properties?: {
    readonly projectId: string;
    readonly regionId: string;
    readonly cuType: string;
    readonly plan: string;
    readonly clusterId: string;
  };
  readonly quantity: string | number;
  readonly unit: string;
  readonly listPrice: { readonly unitPrice: string };
  readonly price: { readonly unitPrice: string };
  /** Cents. */
  readonly amount: string | number;
}

/** One row of usage: its day and its item. */
export interface SimUsageRow {
  readonly day: string;
  readonly item: WireUsageItem;
}

/** One invoice, as List Invoices sends it (amounts in cents). */
export interface WireInvoice {
  readonly id: string;
  readonly orgId: string;
  readonly periodStart: string;
  readonly periodEnd: string;
  readonly invoiceDate: string;
  readonly dueDate: string;
  readonly currency: string;
  readonly status: string;
  readonly usageAmount: number | string;
  readonly creditsApplied: number;
  readonly alreadyBilledAmount: number;
  readonly subtotal: number | string;
  readonly tax: number;
  readonly total: number | string;
  readonly advancePayAmount: number;
  readonly amountDue: number | string;
}

const DEDICATED_TYPES = [
  ["compute", "CU-hour"],
  ["storage", "GB-day"],
  ["backup", "GB-day"],
] as const;
const SERVERLESS_TYPES = [
  ["read_vcu", "vCU"],
  ["write_vcu", "vCU"],
  ["storage_serverless", "GB-day"],
] as const;

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Hundredths of a cent as decimal text of cents: 1234567 -> "12345.67". */
function centsText(hundredths: number): string {
  const whole = Math.floor(hundredths / 100);
  const frac = String(hundredths % 100).padStart(2, "0");
  return `${whole}.${frac}`;
}

/** Usage rows of one day at `nowMs` (today's: the part of the day gone by), in a stable order. */
function usageRowsOfDay(
  seed: number,
  clusters: readonly SimCluster[],
  day: string,
  nowMs: number,
): SimUsageRow[] {
  const today = dayOf(nowMs);
  if (day > today) return [];
  // Today's rows grow hour by hour; a complete day is all 24 hours.
  const hours = day === today ? Math.floor((nowMs - Date.parse(`${day}T00:00:00Z`)) / HOUR_MS) + 1 : 24;
  const dayHash = mix(seed, hashString(day));
  const rows: SimUsageRow[] = [];
  const row = (key: string, costType: string, unit: string, properties: WireUsageItem["properties"]) => {
    const h = mix(dayHash, hashString(`${key}/${costType}`));
    const fullHundredths = 1_000 + (h % 2_000_000);
    const hundredths = Math.floor((fullHundredths * hours) / 24);
    const text = centsText(hundredths);
    const quantity = ((h >>> 8) % 100_000) / 1000;
    rows.push({
      day,
      item: {
        costType,
        ...(properties ? { properties } : {}),
        // Both documented spellings: a JSON number with decimals, and decimal text.
        quantity: h % 2 === 0 ? quantity : String(quantity),
        unit,
        listPrice: { unitPrice: "0.159" },
        price: { unitPrice: "0.159" },
        amount: h % 3 === 0 ? text : Number(text),
      },
    });
  };
  for (const c of clusters) {
    const types = c.cuSize > 0 ? DEDICATED_TYPES : SERVERLESS_TYPES;
    const properties = {
      projectId: c.projectId,
      regionId: c.regionId,
      cuType: c.cuType,
      plan: c.plan,
      clusterId: c.id,
    };
    for (const [costType, unit] of types) row(c.id, costType, unit, properties);
  }
  if (dayHash % 3 === 0) row("organization", "migration_cross_region", "GB", undefined);
  return rows;
}

/** A day's rows as of an hour: a past day never changes, today's changes hourly. */
type DayCache = Map<string, SimUsageRow[]>;
const MAX_CACHED_DAYS = 2000;

/**
 * Usage rows of the days `start`..`end` (both included, none after today), in order. `cache`
 * keeps days already made (a paged answer asks for the same days once per page).
 */
export function usageRows(
  seed: number,
  clusters: readonly SimCluster[],
  start: string,
  end: string,
  nowMs: number,
  cache?: DayCache,
): SimUsageRow[] {
  const rows: SimUsageRow[] = [];
  const today = dayOf(nowMs);
  for (let t = Date.parse(`${start}T00:00:00Z`); dayOf(t) <= end; t += DAY_MS) {
    const day = dayOf(t);
    const key = day === today ? `${day}@${Math.floor(nowMs / HOUR_MS)}` : day;
    let made = cache?.get(key);
    if (made === undefined) {
      made = usageRowsOfDay(seed, clusters, day, nowMs);
      if (cache && cache.size >= MAX_CACHED_DAYS) cache.clear();
      cache?.set(key, made);
    }
    for (const row of made) rows.push(row);
  }
  return rows;
}

function monthStartMs(nowMs: number, monthsBack: number): number {
  const d = new Date(nowMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsBack, 1);
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** The invoices at `nowMs`, oldest first. */
export function simInvoices(seed: number, nowMs: number): WireInvoice[] {
  const out: WireInvoice[] = [];
  for (let back = SIM_INVOICE_MONTHS - 1; back >= 0; back--) {
    const start = monthStartMs(nowMs, back);
    const end = monthStartMs(nowMs, back - 1);
    const due = end + 14 * DAY_MS;
    const id = `inv-${iso(start).slice(0, 7).replace("-", "")}`;
    const status =
      back === 0
        ? "unbilled"
        : back === 1
          ? nowMs < due
            ? "unpaid"
            : "overdue"
          : back === 4
            ? "free"
            : back === 6
              ? "overdue"
              : "paid";
    const hundredths = status === "free" ? 0 : 10_000_000 + (mix(seed, hashString(id)) % 90_000_000);
    // Cents as a JSON number on even months, as decimal text on odd ones.
    const total = back % 2 === 0 ? Number(centsText(hundredths)) : centsText(hundredths);
    const open = status !== "paid" && status !== "free";
    out.push({
      id,
      orgId: "org-sim",
      periodStart: iso(start),
      periodEnd: iso(end),
      invoiceDate: iso(end),
      dueDate: iso(due),
      currency: SIM_CURRENCY,
      status,
      usageAmount: total,
      creditsApplied: 0,
      alreadyBilledAmount: 0,
      subtotal: total,
      tax: 0,
      total,
      advancePayAmount: 0,
      amountDue: open ? total : 0,
    });
  }
  return out;
}

function dayField(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  if (typeof v !== "string" || !DAY.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) {
    throw new SimApiError(ApiCode.INVALID_PARAMETER, `${name} must be a date as YYYY-MM-DD`);
  }
  return v;
}

function pageField(body: Record<string, unknown>, name: string, fallback: number, max: number): number {
  const v = body[name];
  return intParam({ [name]: v === undefined ? undefined : String(v) }, name, fallback, 1, max);
}

/** The billing routes over `clusters`; `seed` makes the amounts. */
export function billingRoutes(seed: number, clusters: readonly SimCluster[]): RouteDef[] {
  const cache: DayCache = new Map();
  return [
    {
      method: "POST",
      path: "/v2/usage/query",
      template: "POST /v2/usage/query",
      version: 2,
      mutating: false,
      billing: true,
      dataShape: "object",
      handle: (r) => {
        const body = (typeof r.body === "object" && r.body !== null ? r.body : {}) as Record<string, unknown>;
        const start = dayField(body, "start");
        const end = dayField(body, "end");
        if (end < start) throw new SimApiError(ApiCode.INVALID_PARAMETER, "end must not be before start");
        const pageSize = pageField(body, "pageSize", 10, 100);
        const currentPage = pageField(body, "currentPage", 1, Number.MAX_SAFE_INTEGER);
        const rows = usageRows(seed, clusters, start, end, r.nowMs, cache);
        const page = rows.slice((currentPage - 1) * pageSize, currentPage * pageSize);
        const results: {
          intervalStart: string;
          intervalEnd: string;
          total: number;
          currency: string;
          items: WireUsageItem[];
        }[] = [];
        for (const row of page) {
          let last = results[results.length - 1];
          if (last === undefined || !last.intervalStart.startsWith(row.day)) {
            const startMs = Date.parse(`${row.day}T00:00:00Z`);
            last = {
              intervalStart: iso(startMs),
              intervalEnd: iso(startMs + DAY_MS),
              total: 0,
              currency: SIM_CURRENCY,
              items: [],
            };
            results.push(last);
          }
          last.items.push(row.item);
          last.total = Math.round((last.total + Number(row.item.amount)) * 100) / 100;
        }
        return { results, currentPage, pageSize, total: rows.length };
      },
    },
    {
      method: "GET",
      path: "/v2/invoices",
      template: "GET /v2/invoices",
      version: 2,
      mutating: false,
      billing: true,
      dataShape: "object",
      handle: (r) => {
        const pageSize = intParam(r.query, "pageSize", 10, 1, 100);
        const currentPage = intParam(r.query, "currentPage", 1, 1, Number.MAX_SAFE_INTEGER);
        const all = simInvoices(seed, r.nowMs);
        const invoices = all.slice((currentPage - 1) * pageSize, currentPage * pageSize);
        return { count: all.length, currentPage, pageSize, invoices };
      },
    },
  ];
}
