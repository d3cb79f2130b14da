/**
 * The three SLIs of the error-budget rules (docs/slo.md), each as the PromQL of its error ratio
 * over a window: the share of bad events among all events, labelled per canary target or per
 * cluster. Recorded names follow `slo:<sli>:error_ratio_rate<window>` (docs/design.md section 5,
 * as Sloth names them).
 *
 * - Canary availability: canary probes whose outcome is not success, over all probes.
 * - Canary latency: probes slower than the threshold, over all probes the histogram counted (its
 *   `_count` less the bucket at the threshold).
 * - Service availability: the service's own failure ratio per request type, weighted by that
 *   type's request rate, from two recorded per-cluster rates (errors and requests per second)
 *   summed over the window. Only the cluster's own series (collection_name=""), and each read as
 *   "the exporter's family, or the recording of a natively scraped cluster" (the native counters
 *   zilliz_requests_total{status}, through config/prometheus/rules/native.yml), as every shipped
 *   rule over a cluster family does. `request_type="all"` (REQ_FAIL_RATE, the 2024 form) has no
 *   request rate of its own, so the per-type product leaves it out; it stands in, times the
 *   cluster's whole request rate, only for a cluster that reports no per-type failure ratio.
 */
import { CANARY_FAMILIES, CANARY_LABELS } from "../collectors/canary/families.js";
import { CLUSTER_FAMILIES } from "../metrics/clusterFamilies.js";

const REQUESTS_TOTAL = CANARY_FAMILIES.requests.name;
const DURATION = CANARY_FAMILIES.duration.name;

/** One SLI: how its rules are named and what its error ratio is. */
export interface Sli {
  /** The `<sli>` of its recorded names: `slo:<sli>:error_ratio_rate5m`. */
  readonly id: "canary_availability" | "canary_latency" | "service_availability";
  /** Its alert's name. */
  readonly alert: string;
  /** The labels of its series (a canary target, or a cluster). */
  readonly labels: readonly string[];
  /** The rules it records first, every evaluation, that its windows read (the service's rates). */
  readonly base: ReadonlyArray<{ readonly record: string; readonly expr: string }>;
  /** The error ratio over a window (a Prometheus duration: "5m"). */
  readonly errorRatio: (window: string) => string;
  /**
   * The error ratio over the budget's period. `shortest` is the recorded name of the shortest
   * window's ratio (undefined without windows): averaging it is far cheaper than a rate over
   * the whole period, and probes come at a steady pace, so the average is the ratio.
   */
  readonly periodRatio: (period: string, shortest: string | undefined) => string;
  /** The bad events, for the alerts' descriptions ("probes that fail (error, ...)"). */
  readonly bad: string;
  /** The bad share in the summary, after the value ("of probes fail"). */
  readonly share: string;
  /** What the alert is about, as an alert template ("Cluster {{ $labels.cluster_id }}"). */
  readonly subject: string;
}

/** `sum by (labels) (inner)`. */
function sumBy(labels: readonly string[], inner: string): string {
  return `sum by (${labels.join(", ")}) (${inner})`;
}

/** `numerator / denominator`, no sample (rather than NaN) where the denominator is 0. */
function ratio(numerator: string, denominator: string): string {
  return `(${numerator}) / (${denominator} > 0)`;
}

/** The name of a recorded error ratio. */
export function errorRatioName(sli: Sli["id"], window: string): string {
  return `slo:${sli}:error_ratio_rate${window}`;
}

/**
 * `le` at a bound, as either exposition writes it: the text format writes 1 as "1", OpenMetrics
 * as "1.0" (and Prometheus 3 normalizes to the latter).
 */
export function leMatcher(seconds: number): string {
  return Number.isInteger(seconds) ? `le=~"${seconds}(\\\\.0)?"` : `le="${seconds}"`;
}

const CANARY_SUBJECT =
  "Canary of {{ $labels.cluster_id }} {{ $labels.db_name }}/{{ $labels.collection_name }} ({{ $labels.operation }})";

/** Canary probes whose outcome is not success, per target. */
export function canaryAvailability(): Sli {
  const total = (w: string, matchers = "") =>
    sumBy(CANARY_LABELS, `rate(${REQUESTS_TOTAL}${matchers}[${w}])`);
  return {
    id: "canary_availability",
    alert: "VdbcloudCanaryAvailabilityBudgetBurn",
    labels: CANARY_LABELS,
    base: [],
    // A target none of whose probes failed yet may have no error series: 0, not no data.
    errorRatio: (w) => ratio(`${total(w, '{outcome!="success"}')} or 0 * ${total(w)}`, total(w)),
    periodRatio: (period, shortest) =>
      shortest === undefined
        ? ratio(`${total(period, '{outcome!="success"}')} or 0 * ${total(period)}`, total(period))
        : `avg_over_time(${shortest}[${period}])`,
    bad: "probes that fail (error, timeout or refused)",
    share: "of probes fail",
    subject: CANARY_SUBJECT,
  };
}

/** Canary probes slower than `thresholdSeconds` (a bucket bound), per target. */
export function canaryLatency(thresholdSeconds: number): Sli {
  const count = (w: string) => sumBy(CANARY_LABELS, `rate(${DURATION}_count[${w}])`);
  const fast = (w: string) =>
    sumBy(CANARY_LABELS, `rate(${DURATION}_bucket{${leMatcher(thresholdSeconds)}}[${w}])`);
  const slow = (w: string) => ratio(`${count(w)} - ${fast(w)}`, count(w));
  return {
    id: "canary_latency",
    alert: "VdbcloudCanaryLatencyBudgetBurn",
    labels: CANARY_LABELS,
    base: [],
    errorRatio: slow,
    periodRatio: (period, shortest) =>
      shortest === undefined ? slow(period) : `avg_over_time(${shortest}[${period}])`,
    bad: `probes slower than ${thresholdSeconds}s`,
    share: `of probes slower than ${thresholdSeconds}s`,
    subject: CANARY_SUBJECT,
  };
}

const FAILURE = CLUSTER_FAMILIES.failure.name;
const REQUESTS = CLUSTER_FAMILIES.requests.name;
/** The join of the two families and their native recordings (their labels but db_name). */
const JOIN = "on (cluster_id, collection_name, request_type)";

/**
 * "The exporter's family, or its native recording" of the cluster's own series, exactly as
 * scripts/native.ts writes it for every shipped rule (a test holds the two equal).
 */
function eitherSource(family: string, record: string, matchers: string): string {
  const selector = `{collection_name=""${matchers}}`;
  return `(${family}${selector} or ${JOIN} ${record}${selector})`;
}

const FAILURES_PER_TYPE = eitherSource(
  FAILURE,
  "vdbcloud_cluster:zilliz_request_failures_per_requests:ratio_rate5m",
  "",
);
const FAILURES_ALL = eitherSource(
  FAILURE,
  "vdbcloud_cluster:zilliz_request_failures_per_requests:ratio_rate5m",
  ', request_type="all"',
);
const RATES = eitherSource(REQUESTS, "vdbcloud_cluster:zilliz_requests:rate5m", "");

/** Per cluster and request type; `max` folds the copies two exporters of an HA pair expose. */
const perType = (expr: string) => `max by (cluster_id, request_type) (${expr})`;
const perCluster = (expr: string) => `max by (cluster_id) (${expr})`;

/** The service's own failure ratio weighted by request rate, per cluster. */
export function serviceAvailability(): Sli {
  const errors = "slo:service_availability:errors_per_second";
  const requests = "slo:service_availability:requests_per_second";
  const over = (w: string) => ratio(`sum_over_time(${errors}[${w}])`, `sum_over_time(${requests}[${w}])`);
  const allRequests = sumBy(["cluster_id"], perType(RATES));
  return {
    id: "service_availability",
    alert: "VdbcloudServiceAvailabilityBudgetBurn",
    labels: ["cluster_id"],
    base: [
      {
        record: errors,
        expr: [
          sumBy(
            ["cluster_id"],
            `${perType(FAILURES_PER_TYPE)} * on (cluster_id, request_type) ${perType(RATES)}`,
          ),
          "or",
          sumBy(["cluster_id"], `${perCluster(FAILURES_ALL)} * on (cluster_id) ${allRequests}`),
        ].join("\n"),
      },
      {
        record: requests,
        expr: [
          sumBy(
            ["cluster_id"],
            `${perType(RATES)} and on (cluster_id, request_type) ${perType(FAILURES_PER_TYPE)}`,
          ),
          "or",
          `(${allRequests} and on (cluster_id) ${perCluster(FAILURES_ALL)})`,
        ].join("\n"),
      },
    ],
    errorRatio: over,
    periodRatio: (period) => over(period),
    bad: "requests that fail (the service's own failure ratio, weighted by request rate)",
    share: "of requests fail",
    subject: "Cluster {{ $labels.cluster_id }}",
  };
}
