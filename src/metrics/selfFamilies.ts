/**
 * The exporter's own families (re-exported by metrics/families.ts, the one catalog): per target,
 * written by polling/health.ts and the cluster metrics mapping, and process-wide, kept by
 * exposition/selfMetrics.ts.
 */

import { ENDPOINT } from "../upstream/types.js";
import { counter, gauge, histogram } from "./define.js";

/** The source of the API client's families: every upstream call, each attempt counted. */
const API_CLIENT = `exporter: its API client (endpoint is the path template, e.g. ${ENDPOINT.queryClusterMetrics})`;
/** When an API client family has no series: never, each endpoint's starts at 0. */
const EVERY_ENDPOINT = "never: every endpoint's series exists at 0 from the start";

/**
 * Self families that collectors emit as samples, per target, into the sample store (written by
 * polling/health.ts and the cluster metrics mapping). The process-wide ones follow.
 */
export const TARGET_SELF_FAMILIES = {
  collectorUp: gauge("vdbcloud_collector_up", {
    help: "1 if the last poll of this collector and target succeeded, 0 if it failed (source: the exporter's own polls).",
    labels: ["collector", "target"],
    unit: "1 or 0",
    source: "exporter: the outcome of its last poll of the target",
    absent:
      "before the target's first poll finished; a target that leaves the config (reload, discovery) loses its series",
  }),
  collectorLastSuccess: gauge("vdbcloud_collector_last_success_timestamp_seconds", {
    help: "When the last successful poll of this collector and target ended, Unix time in seconds (source: the exporter's own polls).",
    labels: ["collector", "target"],
    source: "exporter: the end of its last successful poll of the target",
    absent: "until the target's first successful poll",
  }),
  collectorNotPermitted: gauge("vdbcloud_collector_not_permitted", {
    help: "1 while the service refuses this collector's calls for this target because the credential lacks the permission they need (the poll is complete, so vdbcloud_collector_up stays 1) (source: the exporter's own polls).",
    labels: ["collector", "target", "credential"],
    unit: "1",
    source: "exporter",
    absent: "the credential is permitted, or the last poll failed for another reason",
  }),
  newestBucket: gauge("vdbcloud_metrics_newest_bucket_timestamp_seconds", {
    help: "Start of the newest non-null bucket Query Cluster Metrics returned for this target, Unix time in seconds: how old the data is (upstream Query Cluster Metrics timestamps).",
    labels: ["cluster_id", "db_name", "collection_name"],
    source: `${ENDPOINT.queryClusterMetrics} timestamp of the newest non-null bucket`,
    absent: "for a target whose answers held no non-null bucket in the window",
  }),
  metricQueryRejected: gauge("vdbcloud_metric_query_rejected", {
    help: "1 per metric query the service refused in every request form; it is not asked again until metrics.quarantine has passed (source: the exporter's Query Cluster Metrics refusals).",
    labels: ["cluster_id", "db_name", "collection_name", "metric", "stat"],
    unit: "1 (info)",
    source: `exporter: its quarantine of queries ${ENDPOINT.queryClusterMetrics} refused in every request form`,
    absent: "while no query of the target is in quarantine (the usual case)",
  }),
  metricsQueryForm: gauge("vdbcloud_metrics_query_form", {
    help: "Request form of Query Cluster Metrics each API key's server accepts, one series per form, 1 for the form sent (current: name only; 2024: name and stat); learned once per key, or pinned by metrics.form (source: the exporter's Query Cluster Metrics calls).",
    labels: ["credential", "form"],
    unit: "1 (state set)",
    source: `exporter: which form of ${ENDPOINT.queryClusterMetrics} the service answered for the key (metrics.form)`,
    absent: "before a key's first metrics poll, and with metrics.enabled false",
  }),
} as const;

/**
 * Process-wide self families kept by the exposition layer (prom-client, exposition/selfMetrics.ts).
 * Declared here, and only here, so that their names and HELP live beside every other family;
 * the two histograms are PROCESS_SELF_HISTOGRAMS below.
 */
export const PROCESS_SELF_FAMILIES = {
  schedulerSkippedRuns: counter("vdbcloud_scheduler_skipped_runs_total", {
    help: "Scheduled polls skipped because the previous poll of the same target was still running, by collector, since the exporter started (source: the exporter's scheduler).",
    labels: ["collector"],
    source: "exporter: its scheduler",
    absent: "never: every collector's series exists at 0 from the start",
  }),
  apiRequests: counter("vdbcloud_api_requests_total", {
    help: "HTTP requests the exporter sent to the upstream API (each attempt and retry counts once), by endpoint template and outcome, since the exporter started (source: the exporter's API client).",
    labels: ["endpoint", "outcome"],
    source: API_CLIENT,
    absent: EVERY_ENDPOINT,
  }),
  apiRetries: counter("vdbcloud_api_retries_total", {
    help: "Upstream API requests retried after a failed attempt, by endpoint template, since the exporter started (source: the exporter's API client).",
    labels: ["endpoint"],
    source: API_CLIENT,
    absent: EVERY_ENDPOINT,
  }),
  apiRateLimited: counter("vdbcloud_api_rate_limited_total", {
    help: "Upstream answers that signalled rate limiting (HTTP 429 or a rate-limit code or message), by endpoint template, since the exporter started (source: the exporter's API client).",
    labels: ["endpoint"],
    source: API_CLIENT,
    absent: EVERY_ENDPOINT,
  }),
  apiSchemaErrors: counter("vdbcloud_api_schema_errors_total", {
    help: "Upstream answers whose shape the exporter did not understand, by endpoint template, since the exporter started (source: the exporter's API client).",
    labels: ["endpoint"],
    source: API_CLIENT,
    absent: EVERY_ENDPOINT,
  }),
  apiPagingErrors: counter("vdbcloud_api_paging_errors_total", {
    help: "Listings whose pages did not add up, by endpoint template and reason (repeated_page, empty_page, page_cap, short_of_total, long_page, shrinking_total), since the exporter started: each failed its poll, whose target kept its last good values (source: the exporter's pager).",
    labels: ["endpoint", "reason"],
    source: `exporter: its one pager of every paged listing (endpoint is the path template, e.g. ${ENDPOINT.listClusters})`,
    absent: "never: every paged endpoint's series exists at 0 for every reason from the start",
  }),
  apiInvalidIds: counter("vdbcloud_api_invalid_ids_total", {
    help: "Items of upstream listings dropped because their ID fails the rule of configured IDs (letters, digits and -), by endpoint template, since the exporter started: such an ID never reaches a request path or /sd/native-export (source: the exporter's readers of listed clusters, projects, jobs and global clusters).",
    labels: ["endpoint"],
    source: `exporter: the IDs its listings found (${ENDPOINT.listClusters}, ${ENDPOINT.listProjectsV2}, ${ENDPOINT.listSparkJobs}, ${ENDPOINT.listGlobalClusters})`,
    absent: "until a listing's first bad ID",
  }),
  samplesDropped: counter("vdbcloud_samples_dropped_total", {
    help: "Upstream data points not exposed, by reason, since the exporter started (source: the exporter's mapping of upstream answers).",
    labels: ["reason"],
    source: "exporter: its mapping of upstream answers",
    absent: "never: every reason's series exists at 0 from the start",
  }),
  internalErrors: counter("vdbcloud_internal_errors_total", {
    help: "Failures of the exporter's own background work (publishing, start-up, jobs file, closing clients), by where they happened, since the exporter started; it keeps serving the last good state (source: the exporter).",
    labels: ["where"],
    source: "exporter: its background work",
    absent: "never: every site's series exists at 0 from the start",
  }),
  configLastReloadSuccessful: gauge("vdbcloud_config_last_reload_successful", {
    help: "1 if the last configuration load or reload succeeded, 0 otherwise (source: the exporter's config file).",
    labels: [],
    unit: "1 or 0",
    source: "exporter: its config file (load and reloads)",
    absent: "never",
  }),
  buildInfo: gauge("vdbcloud_exporter_build_info", {
    help: "Exporter version and Node.js version in labels, always 1 (source: the exporter's build).",
    labels: ["version", "nodejs_version"],
    source: "exporter: its package version and Node.js",
    absent: "never",
  }),
  configLastReloadSuccessTimestamp: gauge("vdbcloud_config_last_reload_success_timestamp_seconds", {
    help: "When the configuration was last loaded or reloaded successfully, Unix time in seconds (source: the exporter's config file).",
    labels: [],
    source: "exporter: its config file (load and reloads)",
    absent: "never (the first load sets it)",
  }),
  exporterSeries: gauge("vdbcloud_exporter_series", {
    help: "Series held in the exporter's sample store at the last publish, self-metrics excluded (source: the exporter, count).",
    labels: [],
    unit: "count",
    source: "exporter: its sample store",
    absent: "until the first publish",
  }),
  shardOrdinal: gauge("vdbcloud_shard_ordinal", {
    help: "This exporter's shard, 0-based (source: --shard or the host name's ordinal).",
    labels: [],
    unit: "count (0-based ordinal)",
    source: "exporter: --shard, VDBCLOUD_SHARD or the host name's ordinal",
    absent: "never",
  }),
  totalShards: gauge("vdbcloud_total_shards", {
    help: "Number of shards the targets are split across (source: --total-shards).",
    labels: [],
    unit: "count",
    source: "exporter: --total-shards or VDBCLOUD_TOTAL_SHARDS",
    absent: "never",
  }),
} as const;

/** The process-wide self histograms (exposition/selfMetrics.ts). */
export const PROCESS_SELF_HISTOGRAMS = {
  apiDuration: histogram("vdbcloud_api_request_duration_seconds", {
    help: "Duration in seconds of each HTTP request attempt to the upstream API, by endpoint template, since the exporter started (source: the exporter's API client).",
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    labels: ["endpoint"],
    unit: "seconds (histogram)",
    source: "exporter: its API client, each attempt",
    absent: "never: every endpoint's series exists from the start",
  }),
  collectorDuration: histogram("vdbcloud_collector_duration_seconds", {
    help: "Duration in seconds of one poll of one target, retries and waits included, by collector, since the exporter started (source: the exporter's polls).",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    labels: ["collector"],
    unit: "seconds (histogram)",
    source: "exporter: its polls, retries and waits included",
    absent: "never: every collector's series exists from the start",
  }),
} as const;

/**
 * The exporter's health families: `families.allow` and `families.deny` cannot remove them (the
 * config check refuses a rule that would). Per target, whether each poll works, when it last did
 * and whether the key lacks a permission; per process, whether the running config is the file's
 * and which build runs. Each is small (one series per target or per process), and without them
 * nobody could tell a trimmed exporter from a broken one, or see that a reload was refused.
 */
export const HEALTH_FAMILY_NAMES: readonly string[] = [
  TARGET_SELF_FAMILIES.collectorUp.name,
  TARGET_SELF_FAMILIES.collectorLastSuccess.name,
  TARGET_SELF_FAMILIES.collectorNotPermitted.name,
  PROCESS_SELF_FAMILIES.configLastReloadSuccessful.name,
  PROCESS_SELF_FAMILIES.buildInfo.name,
];
