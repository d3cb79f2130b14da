/**
 * SLO: the error budgets of config/prometheus/rules/slo.yml (docs/slo.md): the budget left over
 * the period per SLI, the burn rate per alert window, and the canary's latency percentiles beside
 * the P99 the service reports. Every budget and burn rate is a recorded `slo:` series, so the
 * panels follow whatever objectives, period and windows the rules were rendered with.
 */
import type { DashboardSpec, PanelSpec, ThresholdStep } from "../lib/panels.js";
import { CLUSTER_SCOPE, DATASOURCE_VARIABLE, TAG, UID } from "./common.js";

const SEL = 'cluster_id=~"$cluster"';
const CANARY_LEGEND = "{{cluster_id}} {{db_name}}/{{collection_name}} ({{operation}})";

/** The SLIs of slo.yml: the `<sli>` of their recorded names, their title and their legend. */
const SLIS = [
  { id: "canary_availability", title: "Canary availability", legend: CANARY_LEGEND },
  { id: "canary_latency", title: "Canary latency", legend: CANARY_LEGEND },
  { id: "service_availability", title: "Service availability", legend: "{{cluster_id}}" },
] as const;

/** Budget left: red once overspent, orange in its last quarter. */
const BUDGET_STEPS: ThresholdStep[] = [
  { color: "red", value: null },
  { color: "orange", value: 0 },
  { color: "green", value: 0.25 },
];

/** The alerts' burn rates: 1 spends the budget in exactly the period, 6 and 14.4 page. */
const BURN_STEPS: ThresholdStep[] = [
  { color: "green", value: null },
  { color: "orange", value: 1 },
  { color: "red", value: 6 },
];

/** The canary's latency: the default threshold of slo.canary.latency (PT0.5S). */
const LATENCY_STEPS: ThresholdStep[] = [
  { color: "green", value: null },
  { color: "red", value: 0.5 },
];

function budgetBars(sli: (typeof SLIS)[number]): PanelSpec {
  return {
    kind: "bargauge",
    title: `${sli.title}: budget left`,
    description: `The error budget of ${sli.title.toLowerCase()} left over the period (slo:${sli.id}:error_budget_remaining_ratio): 100% untouched, 0 spent, below 0 overspent. Lower bars first.`,
    queries: [
      {
        expr: `sort(slo:${sli.id}:error_budget_remaining_ratio{${SEL}})`,
        legend: sli.legend,
        instant: true,
      },
    ],
    unit: "percentunit",
    max: 1,
    thresholds: BUDGET_STEPS,
    w: 8,
    h: 7,
  };
}

function burnRates(sli: (typeof SLIS)[number]): PanelSpec {
  return {
    kind: "timeseries",
    title: `${sli.title}: burn rate per window`,
    description: `The error ratio over each window of the alerts, and over the period, divided by the error budget (slo:${sli.id}:burn_rate, label window). At 1 the budget lasts exactly the period; the page fires at 14.4 over 1h and 5m or 6 over 6h and 30m, the ticket at 3 over 1d and 2h or 1 over 3d and 6h (the defaults).`,
    queries: [{ expr: `slo:${sli.id}:burn_rate{${SEL}}`, legend: `${sli.legend} {{window}}` }],
    unit: "none",
    min: 0,
    thresholds: BURN_STEPS,
    thresholdStyle: "line",
    w: 8,
  };
}

/** A canary latency percentile per target, from the histogram. */
function canaryQuantile(q: number): { expr: string; legend: string } {
  return {
    expr: `histogram_quantile(${q}, sum by (cluster_id, db_name, collection_name, operation, le) (rate(vdbcloud_canary_duration_seconds_bucket{${SEL}}[$__rate_interval])))`,
    legend: `canary p${Math.round(q * 100)} ${CANARY_LEGEND}`,
  };
}

/** The SLO dashboard (uid vdbcloud-slo). */
export const slo: DashboardSpec = {
  uid: UID.slo,
  title: "Vector DB Cloud / SLO",
  description:
    "Error budgets (config/prometheus/rules/slo.yml, docs/slo.md): what the canary's probes and the service's own failure ratio left of each budget, how fast it burns per window, and the canary's latency beside the service's reported P99.",
  tags: [TAG],
  time: { from: "now-7d", to: "now" },
  variables: [
    DATASOURCE_VARIABLE,
    {
      kind: "query",
      name: "cluster",
      label: "Cluster",
      query: "label_values(vdbcloud_cluster_info, cluster_id)",
      multi: true,
      includeAll: true,
      allValue: ".*",
    },
  ],
  annotations: [
    {
      name: "Error-budget alerts",
      expr: 'ALERTS{alertname=~"Vdbcloud.+BudgetBurn", alertstate="firing"}',
      titleFormat: "{{alertname}} ({{severity}})",
      textFormat: "{{cluster_id}} {{collection_name}}",
      iconColor: "red",
    },
  ],
  rows: [
    {
      title: "Error budget left over the period",
      panels: [
        ...SLIS.map(budgetBars),
        {
          kind: "timeseries",
          title: "Budget left over time",
          description:
            "Each SLI's budget left over the period, per canary target or cluster (slo:<sli>:error_budget_remaining_ratio): a steep drop is a fast burn, a steady slope a slow one.",
          queries: SLIS.map((sli) => ({
            expr: `slo:${sli.id}:error_budget_remaining_ratio{${SEL}}`,
            legend: `${sli.title.toLowerCase()} ${sli.legend}`,
          })),
          unit: "percentunit",
          max: 1,
          thresholds: BUDGET_STEPS,
          thresholdStyle: "line",
          w: 18,
        },
        {
          kind: "stat",
          title: "Objectives",
          description:
            "The objective of each SLI (slo:<sli>:objective_ratio), as slo.yml was rendered with (slo.canary.availability, slo.canary.latency.objective, slo.service.availability).",
          queries: SLIS.map((sli) => ({ expr: `slo:${sli.id}:objective_ratio`, legend: sli.title })),
          unit: "percentunit",
          decimals: 2,
          colorMode: "none",
          textMode: "value_and_name",
          w: 6,
        },
      ],
    },
    {
      title: "Burn rate",
      panels: SLIS.map(burnRates),
    },
    {
      title: "Latency and probes",
      panels: [
        {
          kind: "timeseries",
          title: "Canary latency percentiles and the service's P99",
          description:
            "The canary's p50, p90 and p99 per target (vdbcloud_canary_duration_seconds, from the request's first byte written to the answer's last byte read), beside the P99 the service reports for search and query (vdbcloud_request_latency_seconds, the cluster's own series). The canary slow and the service not: the path to the cluster. The line is the default latency threshold of the SLO (0.5s).",
          queries: [
            canaryQuantile(0.5),
            canaryQuantile(0.9),
            canaryQuantile(0.99),
            {
              expr: `max by (cluster_id, request_type) (vdbcloud_request_latency_seconds{${SEL}, ${CLUSTER_SCOPE}, stat="p99", request_type=~"search|query"})`,
              legend: "service p99 {{cluster_id}} {{request_type}}",
            },
          ],
          unit: "s",
          min: 0,
          thresholds: LATENCY_STEPS,
          thresholdStyle: "line",
          w: 16,
        },
        {
          kind: "timeseries",
          title: "Canary probes by outcome",
          description:
            "Canary probes per second per target and outcome (vdbcloud_canary_requests_total): success, error, timeout, refused. Anything but success spends the availability budget.",
          queries: [
            {
              expr: `sum by (cluster_id, db_name, collection_name, operation, outcome) (rate(vdbcloud_canary_requests_total{${SEL}}[$__rate_interval]))`,
              legend: `${CANARY_LEGEND} {{outcome}}`,
            },
          ],
          unit: "reqps",
          min: 0,
          stack: true,
          w: 8,
        },
      ],
    },
  ],
};
