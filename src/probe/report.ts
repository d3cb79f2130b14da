/**
 * What `--probe` found, as data, and how it is printed and turned into an exit code. Pure:
 * the calls are made by probe.ts.
 */
import type { MetricQuery } from "../upstream/types.js";

/** One call's outcome: answered, or the error's stable code and (redacted) message. */
export type CallResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** A call not made, and why (no region, collector disabled, the key or cluster failed first). */
export interface Skipped {
  readonly skipped: string;
}

/** The metric queries of one cluster: accepted (in which form) and refused (with the message). */
export interface MetricsProbe {
  readonly accepted: readonly MetricQuery[];
  /** Accepted only in the other request form: the configured query and the form that worked. */
  readonly switched: readonly { readonly query: MetricQuery; readonly as: MetricQuery }[];
  readonly refused: readonly { readonly query: MetricQuery; readonly message: string }[];
}

/** One configured cluster. */
export interface ClusterProbe {
  readonly clusterId: string;
  readonly credential: string;
  readonly region?: string;
  /** Describe Cluster. */
  readonly describe: CallResult | Skipped;
  /** List Import Jobs page 1 through the cluster's regional controller. */
  readonly controller: CallResult | Skipped;
  /** Query Cluster Metrics with the configured queries; a failure that is not a refusal. */
  readonly metrics: MetricsProbe | CallResult | Skipped;
}

/** One Spark job of the config (or its jobs file): Describe Spark Job. */
export interface SparkJobProbe {
  readonly projectId: string;
  readonly jobId: string;
  readonly result: CallResult | Skipped;
}

/** One credential: refused (an auth error), accepted (some call answered), or unknown. */
export interface KeyProbe {
  readonly credential: string;
  readonly state: "accepted" | "refused" | "unknown";
  /** The service's message when refused. */
  readonly message?: string;
}

/**
 * Billing (when billing.enabled): Query Daily Usage page 1 with the billing key. `readable`
 * says whether that key holds the Organization Owner or Billing Admin role.
 */
export interface BillingProbe {
  readonly credential: string;
  readonly result: CallResult | Skipped;
}

/** Everything `--probe` found. */
export interface ProbeReport {
  /** Present when billing is enabled. */
  readonly billing?: BillingProbe;
  readonly keys: readonly KeyProbe[];
  readonly clusters: readonly ClusterProbe[];
  readonly sparkJobs: readonly SparkJobProbe[];
  /** List Clusters page 1, when the config lists no cluster (the key is checked with it). */
  readonly discovery?: { readonly result: CallResult; readonly seen: number };
}

export const PROBE_OK = 0;
export const PROBE_FAILED = 1;

function isSkipped(x: object): x is Skipped {
  return "skipped" in x;
}

function isMetrics(x: object): x is MetricsProbe {
  return "accepted" in x;
}

function failed(x: CallResult | Skipped | MetricsProbe): boolean {
  return "ok" in x && !x.ok;
}

/**
 * 0 when every key is accepted and every call answered (refused metric queries are listed, not
 * fatal); 1 when a key is refused or not confirmed, or a cluster, its controller or a Spark job
 * failed.
 */
export function probeExitCode(report: ProbeReport): number {
  if (report.keys.some((k) => k.state !== "accepted")) return PROBE_FAILED;
  if (report.discovery !== undefined && !report.discovery.result.ok) return PROBE_FAILED;
  for (const c of report.clusters) {
    if (isSkipped(c.describe) || failed(c.describe) || failed(c.controller) || failed(c.metrics)) {
      return PROBE_FAILED;
    }
  }
  if (report.billing !== undefined && failed(report.billing.result)) return PROBE_FAILED;
  return report.sparkJobs.some((j) => failed(j.result)) ? PROBE_FAILED : PROBE_OK;
}

const queryText = (q: MetricQuery): string => (q.stat === undefined ? q.name : `${q.name} stat=${q.stat}`);

function cell(x: CallResult | Skipped): string {
  if (isSkipped(x)) return `- (${x.skipped})`;
  return x.ok ? "ok" : x.code;
}

function metricsCell(x: MetricsProbe | CallResult | Skipped): string {
  if (!isMetrics(x)) return cell(x);
  return `${x.accepted.length} accepted, ${x.refused.length} refused`;
}

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}

/** A refused key in one line: what a user with a wrong key sees, and all they need. */
function keyLine(k: KeyProbe): string {
  if (k.state === "accepted") return `API key ${k.credential}: accepted`;
  if (k.state === "refused") return `API key ${k.credential}: refused by the service: ${k.message ?? ""}`;
  return `API key ${k.credential}: not confirmed (no call answered)`;
}

/** Whether the billing key reads billing data, in one line. */
export function billingLine(b: BillingProbe): string {
  const r = b.result;
  if (isSkipped(r)) return `Billing (key ${b.credential}): not probed (${r.skipped})`;
  if (r.ok) return `Billing (key ${b.credential}): readable (Query Daily Usage answered)`;
  const why =
    r.code === "auth_error"
      ? "not readable: the key needs the Organization Owner or Billing Admin role"
      : `not readable (${r.code})`;
  return `Billing (key ${b.credential}): ${why}: ${r.message}`;
}

/**
 * The printed report. When every key is refused it is those lines alone (nothing else could
 * be probed); otherwise the keys, a table per cluster, the refused metric queries with the
 * service's messages, the failures with theirs, the Spark jobs and the verdict.
 */
export function formatProbe(report: ProbeReport): string {
  const keys = report.keys.map(keyLine);
  if (report.keys.length > 0 && report.keys.every((k) => k.state === "refused"))
    return `${keys.join("\n")}\n`;
  const out = [...keys];
  if (report.billing !== undefined) out.push(billingLine(report.billing));
  if (report.discovery !== undefined) {
    const d = report.discovery;
    out.push(`List Clusters: ${d.result.ok ? `ok, ${d.seen} cluster(s) on page 1` : d.result.code}`);
  }
  if (report.clusters.length > 0) {
    out.push(
      "",
      ...table([
        ["CLUSTER", "KEY", "REACHABLE", "REGIONAL CONTROLLER", "METRIC QUERIES"],
        ...report.clusters.map((c) => [
          c.clusterId,
          c.credential,
          cell(c.describe),
          isSkipped(c.controller) ? cell(c.controller) : `${cell(c.controller)} (${c.region ?? ""})`,
          metricsCell(c.metrics),
        ]),
      ]),
    );
  }
  const refused = report.clusters.flatMap((c) =>
    isMetrics(c.metrics)
      ? c.metrics.refused.map((r) => `  ${c.clusterId} ${queryText(r.query)}: ${r.message}`)
      : [],
  );
  if (refused.length > 0) out.push("", "Refused metric queries (listed, not fatal):", ...refused);
  const switched = report.clusters.flatMap((c) =>
    isMetrics(c.metrics)
      ? c.metrics.switched.map(
          (s) => `  ${c.clusterId} ${queryText(s.query)}: accepted as ${queryText(s.as)}`,
        )
      : [],
  );
  if (switched.length > 0) out.push("", "Accepted in the other request form:", ...switched);
  const problems = report.clusters.flatMap((c) =>
    (
      [
        ["Describe Cluster", c.describe],
        ["List Import Jobs", c.controller],
        ["Query Cluster Metrics", c.metrics],
      ] as const
    ).flatMap(([what, x]) => ("ok" in x && !x.ok ? [`  ${c.clusterId} ${what}: ${x.message}`] : [])),
  );
  if (report.discovery !== undefined && !report.discovery.result.ok) {
    problems.push(`  List Clusters: ${report.discovery.result.message}`);
  }
  for (const j of report.sparkJobs) {
    const r = j.result;
    if ("ok" in r && !r.ok) problems.push(`  Spark job ${j.projectId}/${j.jobId}: ${r.message}`);
  }
  if (problems.length > 0) out.push("", "Failures:", ...problems);
  if (report.sparkJobs.length > 0) {
    const answered = report.sparkJobs.filter((j) => "ok" in j.result && j.result.ok).length;
    out.push("", `Spark jobs: ${answered} of ${report.sparkJobs.length} answered`);
  }
  const code = probeExitCode(report);
  out.push(
    "",
    code === PROBE_OK
      ? "Result: the key is accepted and everything answered"
      : "Result: something was refused or unreachable (see above)",
  );
  return `${out.join("\n")}\n`;
}
