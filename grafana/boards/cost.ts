/**
 * Cost: the month to date and its projection, daily cost by cost type and cluster, usage, and
 * the invoices (Query Daily Usage and List Invoices, read with the billing key; docs/cost.md).
 * Amounts are in the currency's major unit; the currency is in each legend.
 */
import type { DashboardSpec, PanelSpec } from "../lib/panels.js";
import { DATASOURCE_VARIABLE, LIMITS, steps, TAG, UID } from "./common.js";

const SEL = 'project_id=~"$project"';

/** One row per listed invoice: its status and currency as labels, value 1. */
const INVOICE_ROW =
  "max by (invoice_id, status, currency) ((vdbcloud_invoice_status == 1)" +
  " * on (invoice_id) group_left (currency) max by (invoice_id, currency) (vdbcloud_invoice_amount_due))";

/** One per-invoice value with the labels of {@link INVOICE_ROW}, so the table merges rows per invoice. */
function invoiceColumn(valueExpr: string): string {
  return `max by (invoice_id) (${valueExpr}) * on (invoice_id) group_left (status, currency) ${INVOICE_ROW}`;
}

/** Amounts: in the currency's major unit, two decimals (the currency is in the legend). */
const MONEY = { unit: "short", decimals: 2 } as const;

/** A stat of one amount per currency (a recording rule of rules.ts). */
function moneyStat(title: string, description: string, expr: string): PanelSpec {
  return {
    kind: "stat",
    title,
    description,
    queries: [{ expr, legend: "{{currency}}" }],
    ...MONEY,
    thresholds: steps(),
    colorMode: "none",
    w: 6,
  };
}

/** The ten clusters that cost most in `family` (per cluster and currency), as bars. */
function topClusters(title: string, description: string, family: string): PanelSpec {
  return {
    kind: "bargauge",
    title,
    description,
    queries: [
      {
        expr: `topk(10, sum by (cluster_id, currency) (${family}{${SEL}}))`,
        legend: "{{cluster_id}} {{currency}}",
        instant: true,
      },
    ],
    ...MONEY,
    min: 0,
    thresholds: steps(),
    w: 12,
  };
}

const INVOICE_STATUS_COLORS = [
  { value: "paid", color: "green" },
  { value: "free", color: "green" },
  { value: "overdue", color: "red" },
  { value: "disputed", color: "orange" },
  { value: "unbilled|unconfirmed|unpaid", color: "blue", regex: true },
  { value: ".*", color: "orange", regex: true },
];

/** The cost dashboard (uid vdbcloud-cost). */
export const cost: DashboardSpec = {
  uid: UID.cost,
  title: "Vector DB Cloud / Cost",
  description:
    "What the organization spends: month to date and its projection, daily cost per cost type and cluster, usage, invoices (billing collector, docs/cost.md).",
  tags: [TAG],
  time: { from: "now-30d", to: "now" },
  variables: [
    DATASOURCE_VARIABLE,
    {
      kind: "query",
      name: "project",
      label: "Project",
      query: "label_values(vdbcloud_month_to_date_cost, project_id)",
      multi: true,
      includeAll: true,
      allValue: ".*",
    },
  ],
  annotations: [
    {
      name: "Cost alerts",
      expr: 'ALERTS{alertname=~"VdbcloudDailyCostJump|VdbcloudProjectedMonthlyCostOverBudget|VdbcloudInvoiceOverdue", alertstate="firing"}',
      titleFormat: "{{alertname}}",
      textFormat: "{{currency}}{{invoice_id}}",
      iconColor: "orange",
    },
  ],
  rows: [
    {
      title: "This month",
      panels: [
        moneyStat(
          "Month to date",
          "Cost of every day of the current UTC month the service reports, today's partial day included (vdbcloud_month_to_date_cost, all projects), per currency.",
          "vdbcloud:month_to_date_cost:sum",
        ),
        moneyStat(
          "Projected month end",
          "Month to date / days elapsed x days in the month (the first day counts as one whole day): what the month costs at this pace. VdbcloudProjectedMonthlyCostOverBudget compares it with your budget.",
          "vdbcloud:month_end_projected_cost:sum",
        ),
        moneyStat(
          "Yesterday",
          "Cost of the newest complete UTC day (vdbcloud_daily_cost, all projects), per currency. VdbcloudDailyCostJump fires when it is over 1.5 times the 7 days before.",
          "vdbcloud:daily_cost:sum",
        ),
        {
          kind: "stat",
          title: "Cost day",
          description:
            "The UTC day the daily figures cover (vdbcloud_daily_cost_timestamp_seconds): yesterday, once the billing collector has read it.",
          queries: [{ expr: "max(vdbcloud_daily_cost_timestamp_seconds) * 1000" }],
          unit: "dateTimeAsIso",
          thresholds: steps(),
          colorMode: "none",
          noValue: "not read yet (billing disabled or refused?)",
          w: 6,
        },
        {
          kind: "timeseries",
          title: "Month to date per cluster",
          description:
            "Month-to-date cost per cluster (all cost types); an empty cluster is the organization-level cost (items without a cluster).",
          queries: [
            {
              expr: `sum by (cluster_id, currency) (vdbcloud_month_to_date_cost{${SEL}})`,
              legend: "{{cluster_id}} {{currency}}",
            },
          ],
          ...MONEY,
          min: 0,
          stack: true,
          w: 12,
        },
        topClusters(
          "Top clusters this month",
          "The ten clusters (or organization-level items, empty cluster) that cost most this month so far.",
          "vdbcloud_month_to_date_cost",
        ),
      ],
    },
    {
      title: "Daily",
      panels: [
        {
          kind: "timeseries",
          title: "Daily cost by cost type",
          description:
            "Each day's cost per cost type (compute, storage, backup, vCUs, migration...), stacked: the graph steps once a day, when the next day is complete.",
          queries: [
            {
              expr: `sum by (cost_type, currency) (vdbcloud_daily_cost{${SEL}})`,
              legend: "{{cost_type}} {{currency}}",
            },
          ],
          ...MONEY,
          min: 0,
          stack: true,
          w: 12,
        },
        topClusters(
          "Top clusters yesterday",
          "The ten clusters that cost most on the newest complete day, all cost types together.",
          "vdbcloud_daily_cost",
        ),
        {
          kind: "timeseries",
          title: "Daily usage",
          description:
            "Each day's quantity per cluster and cost type, in the unit the service names (CU-hours, GB-days, vCUs...).",
          queries: [
            {
              expr: `vdbcloud_daily_usage{${SEL}}`,
              legend: "{{cluster_id}} {{cost_type}} ({{unit}})",
            },
          ],
          unit: "short",
          min: 0,
          w: 24,
        },
      ],
    },
    {
      title: "Invoices",
      panels: [
        {
          kind: "stat",
          title: "Invoices overdue",
          description: "Listed invoices whose status is overdue. Each one raises VdbcloudInvoiceOverdue.",
          queries: [{ expr: 'count(vdbcloud_invoice_status{status="overdue"} == 1) or vector(0)' }],
          unit: "none",
          thresholds: LIMITS.anyIsBad,
          colorMode: "background",
          w: 6,
          h: 8,
        },
        {
          kind: "table",
          title: "Invoices",
          description:
            "The newest invoices (billing.invoices.keep) and every one not yet paid: status, total and amount due in the currency's major unit, period start and due date.",
          w: 18,
          h: 8,
          queries: [
            { expr: INVOICE_ROW },
            { expr: invoiceColumn("vdbcloud_invoice_amount") },
            { expr: invoiceColumn("vdbcloud_invoice_amount_due") },
            { expr: invoiceColumn("vdbcloud_invoice_period_start_timestamp_seconds * 1000") },
            { expr: invoiceColumn("vdbcloud_invoice_due_timestamp_seconds * 1000") },
          ],
          hide: ["Value #A"],
          columns: [
            { field: "invoice_id", displayName: "Invoice" },
            { field: "status", colored: true, mappings: INVOICE_STATUS_COLORS },
            { field: "currency", displayName: "Currency" },
            { field: "Value #B", displayName: "Total", unit: "short" },
            { field: "Value #C", displayName: "Amount due", unit: "short" },
            { field: "Value #D", displayName: "Period start", unit: "dateTimeAsIso" },
            { field: "Value #E", displayName: "Due", unit: "dateTimeAsIso" },
          ],
        },
      ],
    },
  ],
};
