/**
 * Pure mappings of billing data to samples: yesterday's cost and usage, the month to date, and
 * the invoices. Amounts are exact decimals until the end (shared/decimal.ts): the service's
 * cents become the currency's major unit without binary noise, and sums stay exact.
 */
import { MappingBuilder } from "../../metrics/builder.js";
import type { MappingResult } from "../../metrics/sample.js";
import { stateSet } from "../../metrics/stateSet.js";
import { add, type Decimal, parseDecimal, shift, toNumber } from "../../shared/decimal.js";
import type { Invoice, UsageItem } from "../../upstream/types.js";
import { addDays, dayStartMs, monthStart } from "./days.js";
import { BILLING_FAMILIES as B } from "./families.js";
import type { DayUsage } from "./usage.js";

/** How the service states amounts: cents (the reference) or the currency's major unit. */
export type AmountUnit = "cents" | "major";

/** Invoice statuses of the reference, in its order: the state set's known states. */
const INVOICE_STATUSES = [
  "unbilled",
  "unconfirmed",
  "disputed",
  "unpaid",
  "overdue",
  "paid",
  "free",
] as const;

/** Statuses with nothing left to pay: such an invoice is shown only while among the newest. */
const SETTLED: ReadonlySet<string> = new Set(["paid", "free"]);

/** An amount in the currency's major unit, exactly; undefined when it is not a number. */
function majorAmount(text: string | null, unit: AmountUnit): Decimal | undefined {
  const d = text === null ? undefined : parseDecimal(text);
  return d === undefined ? undefined : unit === "cents" ? shift(d, 2) : d;
}

interface Sum {
  readonly labels: Readonly<Record<string, string>>;
  total: Decimal;
}

/** Sums decimals per label set, in order of first appearance. */
class Sums {
  readonly #sums = new Map<string, Sum>();

  add(labels: Readonly<Record<string, string>>, value: Decimal): void {
    const key = JSON.stringify(Object.values(labels));
    const sum = this.#sums.get(key);
    if (sum) sum.total = add(sum.total, value);
    else this.#sums.set(key, { labels, total: value });
  }

  values(): Iterable<Sum> {
    return this.#sums.values();
  }
}

/** Where an item was used and what for: the labels its cost and its usage share. */
function itemLabels(item: UsageItem): Record<string, string> {
  return {
    cluster_id: item.clusterId,
    project_id: item.projectId,
    region_id: item.regionId,
    cost_type: item.costType,
  };
}

/**
 * Maps the read days at `today` (YYYY-MM-DD, UTC): vdbcloud_daily_cost and
 * vdbcloud_daily_usage of yesterday with vdbcloud_daily_cost_timestamp_seconds (when yesterday
 * was read), and vdbcloud_month_to_date_cost over every read day of today's month. Items with
 * the same labels on one day (a page boundary, a second CU type) are summed; an amount that is
 * not a number is dropped and counted.
 */
export function mapUsage(
  days: ReadonlyMap<string, DayUsage>,
  today: string,
  unit: AmountUnit,
): MappingResult {
  const out = new MappingBuilder();
  const yesterday = addDays(today, -1);
  const first = monthStart(today);
  const daily = new Sums();
  const usage = new Sums();
  const month = new Sums();
  for (const [day, read] of days) {
    const isYesterday = day === yesterday;
    const inMonth = day >= first && day <= today;
    if (!isYesterday && !inMonth) continue;
    for (const item of read.items) {
      const amount = majorAmount(item.amount, unit);
      const where = itemLabels(item);
      const cost = { ...where, currency: read.currency };
      if (amount === undefined) out.drop("unparsable_value");
      else {
        if (isYesterday) daily.add(cost, amount);
        if (inMonth) month.add(cost, amount);
      }
      const quantity = item.quantity === null ? undefined : parseDecimal(item.quantity);
      if (isYesterday && quantity !== undefined) usage.add({ ...where, unit: item.unit ?? "" }, quantity);
    }
  }
  for (const s of daily.values()) out.add(B.dailyCost, s.labels, toNumber(s.total));
  for (const s of usage.values()) out.add(B.dailyUsage, s.labels, toNumber(s.total));
  if (days.has(yesterday)) out.add(B.dailyCostTimestamp, {}, dayStartMs(yesterday) / 1000);
  for (const s of month.values()) out.add(B.monthToDateCost, s.labels, toNumber(s.total));
  return out.result();
}

/** When an invoice was issued, for "newest": its invoice date, else its period start. */
function issuedMs(invoice: Invoice): number {
  return invoice.invoiceDateMs ?? invoice.periodStartMs ?? Number.NEGATIVE_INFINITY;
}

/** Whether an invoice still asks for money (any status but paid and free). */
function isOpen(invoice: Invoice): boolean {
  return !SETTLED.has(invoice.status.trim().toLowerCase());
}

/**
 * The invoices worth a series: the newest `keep` (by invoice date, else period start) and every
 * one still open; newest first. `invoices` holds each invoice once: the pager keeps an
 * invoice listed twice once (tasks.ts `listAllInvoices`, keyed by invoice ID).
 */
export function selectInvoices(invoices: readonly Invoice[], keep: number): Invoice[] {
  const newest = [...invoices].sort((a, b) => issuedMs(b) - issuedMs(a) || (a.id < b.id ? 1 : -1));
  return newest.filter((invoice, index) => index < keep || isOpen(invoice));
}

/**
 * Maps invoices: the status state set (an unknown status is added lowercased), total and
 * amount due in the currency's major unit, and the due date and period start.
 */
export function mapInvoices(invoices: readonly Invoice[], unit: AmountUnit): MappingResult {
  const out = new MappingBuilder();
  for (const invoice of invoices) {
    const id = { invoice_id: invoice.id };
    out.addSamples(
      B.invoiceStatus,
      stateSet(B.invoiceStatus, id, "status", INVOICE_STATUSES, invoice.status),
    );
    const money = { ...id, currency: invoice.currency };
    const total = majorAmount(invoice.total, unit);
    if (total !== undefined) out.add(B.invoiceAmount, money, toNumber(total));
    else if (invoice.total !== null) out.drop("unparsable_value");
    const due = majorAmount(invoice.amountDue, unit);
    if (due !== undefined) out.add(B.invoiceAmountDue, money, toNumber(due));
    else if (invoice.amountDue !== null) out.drop("unparsable_value");
    if (invoice.dueDateMs !== null) out.add(B.invoiceDue, id, invoice.dueDateMs / 1000);
    if (invoice.periodStartMs !== null) out.add(B.invoicePeriodStart, id, invoice.periodStartMs / 1000);
  }
  return out.result();
}
