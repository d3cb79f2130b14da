/** Exporter health: is it polling, how fresh is the data, and how is the upstream API treating it. */
import type { DashboardSpec, TimeseriesSpec } from "../lib/panels.js";
import { DATASOURCE_VARIABLE, LIMITS, steps, TAG, UID, upDown } from "./common.js";

const I = 'job=~"$job", instance=~"$instance"';
const IC = `${I}, collector=~"$collector"`;

function rateByLabel(
  title: string,
  description: string,
  counter: string,
  label: string,
  extra: Partial<TimeseriesSpec> = {},
): TimeseriesSpec {
  return {
    kind: "timeseries",
    title,
    description,
    queries: [
      { expr: `sum by (${label}) (rate(${counter}{${I}}[$__rate_interval]))`, legend: `{{${label}}}` },
    ],
    unit: "ops",
    min: 0,
    w: 8,
    ...extra,
  };
}

/** The exporter health dashboard (uid vdbcloud-exporter). */
export const exporter: DashboardSpec = {
  uid: UID.exporter,
  title: "Vector DB Cloud / Exporter health",
  description:
    "The exporter itself: scrape status, per-target collector health and data freshness, upstream API " +
    "requests, latency, retries, rate limiting, schema errors, dropped samples, skipped runs, reloads.",
  tags: [TAG],
  variables: [
    DATASOURCE_VARIABLE,
    {
      kind: "query",
      name: "job",
      label: "Job",
      query: "label_values(vdbcloud_exporter_build_info, job)",
      multi: true,
      includeAll: true,
      allValue: ".*",
    },
    {
      kind: "query",
      name: "instance",
      label: "Instance",
      query: 'label_values(vdbcloud_exporter_build_info{job=~"$job"}, instance)',
      multi: true,
      includeAll: true,
    },
    {
      kind: "query",
      name: "collector",
      label: "Collector",
      query: 'label_values(vdbcloud_collector_up{job=~"$job", instance=~"$instance"}, collector)',
      multi: true,
      includeAll: true,
      allValue: ".*",
    },
  ],
  annotations: [
    {
      name: "Exporter alerts",
      expr: 'ALERTS{alertname=~"VdbcloudExporter.+|VdbcloudCollector.+|VdbcloudApi.+|VdbcloudConfigReloadFailed", alertstate="firing"}',
      titleFormat: "{{alertname}}",
      textFormat: "{{instance}} {{collector}} {{target}} {{endpoint}}",
      iconColor: "orange",
    },
  ],
  rows: [
    {
      title: "Status",
      panels: [
        {
          kind: "stat",
          title: "Scrape",
          description: "Whether Prometheus can scrape the exporter (up). Pages after 5 minutes down.",
          queries: [{ expr: `up{${I}}`, legend: "{{instance}}" }],
          mappings: upDown("UP", "DOWN"),
          thresholds: [
            { color: "red", value: null },
            { color: "green", value: 1 },
          ],
        },
        {
          kind: "stat",
          title: "Version",
          description: "Exporter build version (vdbcloud_exporter_build_info).",
          queries: [{ expr: `vdbcloud_exporter_build_info{${I}}`, legend: "{{version}}" }],
          textMode: "name",
          colorMode: "none",
        },
        {
          kind: "stat",
          title: "Last config reload",
          description:
            "Whether the last config (re)load succeeded. A failed reload keeps the previous config running.",
          queries: [{ expr: `vdbcloud_config_last_reload_successful{${I}}`, legend: "{{instance}}" }],
          mappings: upDown("OK", "FAILED"),
          thresholds: [
            { color: "red", value: null },
            { color: "green", value: 1 },
          ],
        },
        {
          kind: "stat",
          title: "Config age",
          description: "Time since the configuration was last loaded or reloaded successfully.",
          queries: [{ expr: `time() - vdbcloud_config_last_reload_success_timestamp_seconds{${I}}` }],
          unit: "s",
          colorMode: "none",
        },
        {
          kind: "stat",
          title: "Series",
          description: "Series held by the exporter (vdbcloud_exporter_series), self-metrics excluded.",
          queries: [{ expr: `sum(vdbcloud_exporter_series{${I}})` }],
          unit: "none",
          colorMode: "none",
        },
        {
          kind: "stat",
          title: "Targets failing",
          description: "Collector targets whose last poll failed (vdbcloud_collector_up == 0).",
          queries: [{ expr: `count(vdbcloud_collector_up{${IC}} == 0) or vector(0)` }],
          unit: "none",
          thresholds: LIMITS.anyIsBad,
        },
        {
          kind: "stat",
          title: "Oldest successful poll",
          description: "Time since the least recently successful collector target last succeeded.",
          queries: [{ expr: `max(time() - vdbcloud_collector_last_success_timestamp_seconds{${IC}})` }],
          unit: "s",
          thresholds: steps(["orange", 300], ["red", 900]),
        },
        {
          kind: "stat",
          title: "Shard",
          description:
            "This instance's shard ordinal and the total number of shards (--shard/--total-shards); " +
            "targets are split between shards.",
          queries: [
            { expr: `vdbcloud_shard_ordinal{${I}}`, legend: "shard {{instance}}" },
            { expr: `vdbcloud_total_shards{${I}}`, legend: "of" },
          ],
          unit: "none",
          colorMode: "none",
          textMode: "value_and_name",
        },
      ],
    },
    {
      title: "Targets",
      panels: [
        {
          kind: "table",
          title: "Collector targets",
          description:
            "Every collector target (cluster, cluster/db/collection scope, project/job, or global): result of " +
            "the last poll and the time since the last success.",
          h: 9,
          queries: [
            { expr: `max by (collector, target) (vdbcloud_collector_up{${IC}})` },
            {
              expr: `max by (collector, target) (time() - vdbcloud_collector_last_success_timestamp_seconds{${IC}})`,
            },
          ],
          columns: [
            { field: "Value #A", displayName: "Last poll", colored: true, mappings: upDown("OK", "FAILED") },
            {
              field: "Value #B",
              displayName: "Since last success",
              unit: "s",
              colored: true,
              thresholds: steps(["orange", 300], ["red", 900]),
            },
          ],
        },
        {
          kind: "timeseries",
          title: "Collector up per target",
          description: "1 when the last poll of a target succeeded, 0 when it failed. Alert after 10m at 0.",
          queries: [{ expr: `vdbcloud_collector_up{${IC}}`, legend: "{{collector}} {{target}}" }],
          unit: "none",
          min: 0,
          max: 1,
          legendCalcs: ["lastNotNull", "min"],
        },
        {
          kind: "timeseries",
          title: "Time since last success per target",
          description: "Seconds since each target's last successful poll. It grows when polls fail or stall.",
          queries: [
            {
              expr: `time() - vdbcloud_collector_last_success_timestamp_seconds{${IC}}`,
              legend: "{{collector}} {{target}}",
            },
          ],
          unit: "s",
          min: 0,
          thresholds: steps(["orange", 300], ["red", 900]),
        },
        {
          kind: "table",
          title: "Refused metric queries",
          description:
            "Metric queries the service refused in both request forms (vdbcloud_metric_query_rejected): " +
            "not asked until metrics.quarantine has passed, then tried once more. The exporter's log has the " +
            "service's message. A misspelt name never gets here: the config check refuses it.",
          h: 6,
          queries: [{ expr: `vdbcloud_metric_query_rejected{${I}}` }],
          hide: ["Value", "__name__"],
        },
        {
          kind: "table",
          title: "Metric query form per key",
          description:
            "The request form of Query Cluster Metrics each API key's server accepts (vdbcloud_metrics_query_form): " +
            "current (a name only, the statistic inside latency names) or 2024 (a name and a stat). Learned once " +
            "per key with metrics.form: auto; a key on 2024 is asked the current form again hourly, and the " +
            "names only the current reference has are not asked of it.",
          h: 6,
          queries: [{ expr: `vdbcloud_metrics_query_form{${I}} == 1` }],
          hide: ["Value", "__name__"],
        },
        {
          kind: "timeseries",
          title: "Metrics data age",
          description:
            "Age of the newest metric bucket per cluster (and collection scope). The upstream lags a minute " +
            "or two; a growing age means the service stopped reporting. Alert above 5 minutes.",
          queries: [
            {
              expr: `time() - vdbcloud_metrics_newest_bucket_timestamp_seconds{${I}}`,
              legend: "{{cluster_id}} {{db_name}} {{collection_name}}",
            },
          ],
          unit: "s",
          min: 0,
          thresholds: LIMITS.dataAge,
        },
        {
          kind: "timeseries",
          title: "Collector run duration (p99)",
          description: "99th percentile duration of one collector run over 5 minutes, per collector.",
          queries: [
            {
              expr: `vdbcloud:collector_duration_seconds:p99_rate5m{${IC}}`,
              legend: "{{collector}}",
            },
          ],
          unit: "s",
          min: 0,
        },
      ],
    },
    {
      title: "Upstream API",
      panels: [
        {
          kind: "timeseries",
          title: "API requests by outcome",
          description: "Requests to the upstream API per second, by outcome.",
          queries: [
            {
              expr: `sum by (outcome) (rate(vdbcloud_api_requests_total{${I}}[$__rate_interval]))`,
              legend: "{{outcome}}",
            },
          ],
          unit: "reqps",
          min: 0,
          stack: true,
        },
        {
          kind: "timeseries",
          title: "API requests by endpoint",
          description:
            "Requests per second per endpoint. The service allows 20 requests per second per endpoint; " +
            "the exporter's rate limiter stays below its configured budget.",
          queries: [
            {
              expr: `sum by (endpoint) (rate(vdbcloud_api_requests_total{${I}}[$__rate_interval]))`,
              legend: "{{endpoint}}",
            },
          ],
          unit: "reqps",
          min: 0,
          thresholds: steps(["red", 20]),
        },
        {
          kind: "timeseries",
          title: "API failure ratio by endpoint",
          description: "Share of upstream requests that did not succeed, per endpoint, over 5 minutes.",
          queries: [
            {
              expr: `vdbcloud:api_request_failures:ratio_rate5m{${I}}`,
              legend: "{{endpoint}}",
            },
          ],
          unit: "percentunit",
          min: 0,
          thresholds: steps(["orange", 0.05], ["red", 0.25]),
        },
        {
          kind: "timeseries",
          title: "API latency by endpoint",
          description: "Median and 99th percentile upstream request latency per endpoint, over 5 minutes.",
          queries: [
            { expr: `vdbcloud:api_request_duration_seconds:p99_rate5m{${I}}`, legend: "p99 {{endpoint}}" },
            { expr: `vdbcloud:api_request_duration_seconds:p50_rate5m{${I}}`, legend: "p50 {{endpoint}}" },
          ],
          unit: "s",
          min: 0,
        },
        {
          kind: "heatmap",
          title: "API latency distribution",
          description: "Histogram of upstream request latency, all endpoints together.",
          queries: [
            {
              expr: `sum by (le) (increase(vdbcloud_api_request_duration_seconds_bucket{${I}}[$__rate_interval]))`,
              legend: "{{le}}",
              format: "heatmap",
            },
          ],
          unit: "s",
        },
        {
          kind: "heatmap",
          title: "Collector run duration distribution",
          description: "Histogram of collector run durations, all collectors together.",
          queries: [
            {
              expr: `sum by (le) (increase(vdbcloud_collector_duration_seconds_bucket{${IC}}[$__rate_interval]))`,
              legend: "{{le}}",
              format: "heatmap",
            },
          ],
          unit: "s",
        },
      ],
    },
    {
      title: "Retries, limits and losses",
      panels: [
        rateByLabel(
          "Retries",
          "Retried upstream requests per second, per endpoint (timeouts, 5xx, rate limiting).",
          "vdbcloud_api_retries_total",
          "endpoint",
        ),
        rateByLabel(
          "Rate limited",
          "Upstream answers that said rate limited (HTTP 429 or an error code), per second, per endpoint. " +
            "Alert when it lasts 15m.",
          "vdbcloud_api_rate_limited_total",
          "endpoint",
          { thresholds: steps(["red", 0.001]) },
        ),
        rateByLabel(
          "Schema errors",
          "Upstream answers whose shape the exporter does not understand, per second, per endpoint: " +
            "the API changed. Alert on any.",
          "vdbcloud_api_schema_errors_total",
          "endpoint",
          { thresholds: steps(["red", 0.001]) },
        ),
        rateByLabel(
          "Paging errors",
          "Listings whose pages did not add up, per second, by endpoint and reason (repeated_page, " +
            "empty_page, short_of_total, page_cap): each failed its poll rather than show part of a " +
            "listing, or a row twice. Alert on any.",
          "vdbcloud_api_paging_errors_total",
          "endpoint, reason",
          {
            thresholds: steps(["red", 0.001]),
            queries: [
              {
                expr: `sum by (endpoint, reason) (rate(vdbcloud_api_paging_errors_total{${I}}[$__rate_interval]))`,
                legend: "{{endpoint}} {{reason}}",
              },
            ],
          },
        ),
        rateByLabel(
          "Invalid upstream IDs",
          "Listed items dropped for an ID that fails the ID rule, per second, per endpoint: never polled, " +
            "never part of a request path. Alert on any (VdbcloudApiInvalidIds).",
          "vdbcloud_api_invalid_ids_total",
          "endpoint",
          { thresholds: steps(["red", 0.001]) },
        ),
        {
          kind: "stat",
          title: "Discovered clusters not polled",
          description:
            "Clusters List Clusters found beyond inventory.discovery.max_clusters, which no collector polls " +
            "(vdbcloud_discovered_clusters_not_polled). Alert above 0 for 15m (VdbcloudDiscoveryCapReached).",
          queries: [{ expr: `max(vdbcloud_discovered_clusters_not_polled{${I}})` }],
          thresholds: steps(["red", 1]),
          w: 8,
        },
        rateByLabel(
          "Dropped samples",
          "Samples not exposed, per second, by reason (unknown unit, unparsable value, job cap, ...).",
          "vdbcloud_samples_dropped_total",
          "reason",
        ),
        rateByLabel(
          "Skipped runs",
          "Collector runs skipped because the previous run had not finished, per second, per collector: " +
            "the interval is too short for the number of targets.",
          "vdbcloud_scheduler_skipped_runs_total",
          "collector",
          { thresholds: steps(["red", 0.001]) },
        ),
        rateByLabel(
          "Internal errors",
          "Failures of the exporter's own background work, per second, by where (publish, first_cycle, " +
            "jobs_file, client_close). The exporter keeps serving its last good state; any rate above 0 " +
            'deserves a look at its logs ("background work failed").',
          "vdbcloud_internal_errors_total",
          "where",
          { thresholds: steps(["red", 0.001]) },
        ),
      ],
    },
  ],
};
