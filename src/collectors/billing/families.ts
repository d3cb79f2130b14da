/**
 * The cost families (billing collector, docs/cost.md), amounts in the currency's major unit (the service's cents / 100, exactly).
 * Amounts are signed: a credit or refund is a negative amount.
 */
import { gauge, signedGauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** Labels of the cost families, in sample order. */
const COST_LABELS = ["cluster_id", "project_id", "region_id", "cost_type", "currency"] as const;
const USAGE_SOURCE = ENDPOINT.queryDailyUsage;
const INVOICE_SOURCE = ENDPOINT.listInvoices;

/** Cost families: Query Daily Usage and List Invoices, read with the billing key. */
export const BILLING_FAMILIES = {
  dailyCost: signedGauge("vdbcloud_daily_cost", {
    help: "Cost of the newest complete UTC day (yesterday) per cluster and cost type, in the currency's major unit; cluster_id is empty for organization-level items (upstream Query Daily Usage amount, cents / 100).",
    labels: COST_LABELS,
    unit: "currency major unit (e.g. USD)",
    source: `${USAGE_SOURCE} results[].items[].amount`,
    absent: "billing disabled, not readable with the billing key, or no item for yesterday",
  }),
  dailyUsage: gauge("vdbcloud_daily_usage", {
    help: "Quantity used on the newest complete UTC day (yesterday) per cluster and cost type, in the unit the unit label names (upstream Query Daily Usage quantity).",
    labels: ["cluster_id", "project_id", "region_id", "cost_type", "unit"],
    unit: "the unit label's",
    source: `${USAGE_SOURCE} results[].items[].quantity`,
    absent: "billing disabled, not readable with the billing key, or no item for yesterday",
  }),
  dailyCostTimestamp: gauge("vdbcloud_daily_cost_timestamp_seconds", {
    help: "Start of the UTC day vdbcloud_daily_cost covers, Unix time in seconds (upstream Query Daily Usage intervalStart).",
    labels: [],
    source: `${USAGE_SOURCE} results[].intervalStart`,
    absent: "billing disabled, or yesterday not read yet",
  }),
  monthToDateCost: signedGauge("vdbcloud_month_to_date_cost", {
    help: "Cost of every day of the current UTC month the service reports, today's partial day included, per cluster and cost type, in the currency's major unit (upstream Query Daily Usage amount, cents / 100, summed).",
    labels: COST_LABELS,
    unit: "currency major unit (e.g. USD)",
    source: `${USAGE_SOURCE} results[].items[].amount`,
    absent: "billing disabled, not readable with the billing key, or no item this month",
  }),
  invoiceStatus: gauge("vdbcloud_invoice_status", {
    help: "Invoice status, one series per known status, 1 for the current one, for the newest billing.invoices.keep invoices and every one not settled (upstream List Invoices status).",
    labels: ["invoice_id", "status"],
    unit: "1 or 0 (state set)",
    source: `${INVOICE_SOURCE} invoices[].status`,
    absent: "billing or billing.invoices disabled, or an older settled invoice",
  }),
  invoiceAmount: signedGauge("vdbcloud_invoice_amount", {
    help: "Invoice total in the currency's major unit (upstream List Invoices total, cents / 100).",
    labels: ["invoice_id", "currency"],
    unit: "currency major unit",
    source: `${INVOICE_SOURCE} invoices[].total`,
    absent: "as vdbcloud_invoice_status, or no total in the answer",
  }),
  invoiceAmountDue: signedGauge("vdbcloud_invoice_amount_due", {
    help: "Amount still due on the invoice in the currency's major unit (upstream List Invoices amountDue, cents / 100).",
    labels: ["invoice_id", "currency"],
    unit: "currency major unit",
    source: `${INVOICE_SOURCE} invoices[].amountDue`,
    absent: "as vdbcloud_invoice_status, or no amountDue in the answer",
  }),
  invoiceDue: gauge("vdbcloud_invoice_due_timestamp_seconds", {
    help: "When the invoice is due, Unix time in seconds (upstream List Invoices dueDate).",
    labels: ["invoice_id"],
    source: `${INVOICE_SOURCE} invoices[].dueDate`,
    absent: "as vdbcloud_invoice_status, or no dueDate in the answer",
  }),
  invoicePeriodStart: gauge("vdbcloud_invoice_period_start_timestamp_seconds", {
    help: "Start of the period the invoice bills, Unix time in seconds (upstream List Invoices periodStart).",
    labels: ["invoice_id"],
    source: `${INVOICE_SOURCE} invoices[].periodStart`,
    absent: "as vdbcloud_invoice_status, or no periodStart in the answer",
  }),
} as const;
