/**
 * Normalized results of the billing endpoints (Query Daily Usage, List Invoices), re-exported by
 * types.ts. Amounts stay decimal text: the unit (cents or the major unit) is the caller's to know.
 */
import type { PageInfo } from "./pageTypes.js";

/**
 * One item of Query Daily Usage: a cost type of one cluster (or of the organization: clusterId
 * "") on one day. `quantity` and `amount` are decimal text as the service sent them (null when
 * absent or unreadable); the unit of `amount` is the caller's to know (cents per the reference).
 */
export interface UsageItem {
  readonly costType: string;
  readonly clusterId: string;
  readonly projectId: string;
  readonly regionId: string;
  readonly quantity: string | null;
  readonly unit: string | null;
  readonly amount: string | null;
}

/** One interval (a UTC day) of a Query Daily Usage page: possibly only part of its items. */
export interface UsageDay {
  readonly intervalStartMs: number;
  readonly currency: string | null;
  readonly items: readonly UsageItem[];
}

/**
 * One page of Query Daily Usage. `total` counts rows (items) of every page; `listed` the items
 * on this one.
 */
export interface UsagePage extends PageInfo {
  readonly days: readonly UsageDay[];
}

/** One invoice of List Invoices. Amounts are decimal text (cents per the reference) or null. */
export interface Invoice {
  readonly id: string;
  /** As the service sent it (unbilled, unconfirmed, disputed, unpaid, overdue, paid, free); "" if absent. */
  readonly status: string;
  readonly currency: string;
  readonly periodStartMs: number | null;
  readonly dueDateMs: number | null;
  readonly invoiceDateMs: number | null;
  readonly total: string | null;
  readonly amountDue: string | null;
}

/** One page of List Invoices; `total` is the documented `count`. */
export interface InvoicePage extends PageInfo {
  readonly invoices: readonly Invoice[];
}
