/**
 * What `--probe` found, as data, and how it is printed and turned into an exit code. Pure:
 * the calls are made by probe.ts.
 */
import type { QueryForm } from "../upstream/catalog.js";
import type { MetricQuery } from "../upstream/types.js";
import { type CanaryProbe, canaryFailed, canaryLines } from "./canaryReport.js";
import { type ConsoleProbe, consoleLine } from "./consoleReport.js";

export type { ConsoleProbe } from "./consoleReport.js";

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
  /** The request form the service accepted (current: name only; 2024: name and stat), when told. */
  readonly form?: QueryForm;
}

/**
 * A cluster's data plane (collections enabled): List Collections of its first database (List
 * Databases first), List Indexes of the first collection, Describe Index of its first index.
 */
export interface DataPlaneProbe {
  readonly collections: CallResult;
  readonly listIndexes: CallResult | Skipped;
  readonly describeIndex: CallResult | Skipped;
}

/** One configured cluster. */
export interface ClusterProbe {
  readonly clusterId: string;
  readonly credential: string;
  readonly region?: string;
  /** Describe Cluster. */
  readonly describe: CallResult | Skipped;
  /** List Import Jobs (v1) page 1 through the cluster's regional controller. */
  readonly controller: CallResult | Skipped;
  /** List Import Jobs V2 page 1 (absent in reports made before V2 was probed). */
  readonly importListV2?: CallResult | Skipped;
  /** Get Import Job Progress (V2) of the first job the V2 listing gave. */
  readonly importProgress?: CallResult | Skipped;
  /** Query Cluster Metrics with the configured queries; a failure that is not a refusal. */
  readonly metrics: MetricsProbe | CallResult | Skipped;
  /** List Spark Jobs page 1 (Spark job discovery). */
  readonly sparkList: CallResult | Skipped;
  /** The cluster's data plane, when collections are enabled and the cluster answered. */
  readonly dataPlane?: DataPlaneProbe;
  /** One canary probe per target of the cluster (`canary.targets`), when the cluster answered. */
  readonly canary?: readonly CanaryProbe[];
}

/** One Spark job of the config (or its jobs file): Describe Spark Job. */
export interface SparkJobProbe {
  readonly projectId: string;
  readonly jobId: string;
  readonly result: CallResult | Skipped;
}

/** One job of `jobs.ids` (or its IDs file): Describe Job. */
export interface JobProbe {
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
 * List Backups page 1 per credential: permitted, not permitted (the key lacks backup
 * permission: backups and backup policies are not collected, nothing else is affected), or
 * failed for another reason.
 */
export interface BackupProbe {
  readonly credential: string;
  readonly state: "permitted" | "not_permitted" | "failed";
  /** The service's message when not permitted or failed. */
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
  /** List Projects V2, when the inventory collector is on. */
  readonly projects?: CallResult;
  readonly jobs: readonly JobProbe[];
  /** List Clusters page 1, when the config lists no cluster (the key is checked with it). */
  readonly clusterDiscovery?: { readonly result: CallResult; readonly seen: number };
  /** List Backups per credential of the polled clusters, when `backups` is enabled. */
  readonly backups?: readonly BackupProbe[];
  /** The console listings whose collectors are on (absent in reports made before they were probed). */
  readonly console?: readonly ConsoleProbe[];
}

export const PROBE_OK = 0;
export const PROBE_FAILED = 1;

const SKIPPED: Skipped = { skipped: "not probed" };

function isSkipped(x: object): x is Skipped {
  return "skipped" in x;
}

function isMetrics(x: object): x is MetricsProbe {
  return "accepted" in x;
}

function failed(x: CallResult | Skipped | MetricsProbe): boolean {
  return "ok" in x && !x.ok;
}

const answered = (x: CallResult | Skipped | undefined): boolean => x !== undefined && "ok" in x && x.ok;

/**
 * Whether the import listing the exporter would use failed: with V2 probed, the cluster fails
 * only when neither V2 nor its v1 fallback answered (v1 refused beside a working V2 is the
 * deprecated endpoint gone, not a problem), or when progress was refused; else v1 decides.
 */
function importsFailed(c: ClusterProbe): boolean {
  if (c.importListV2 === undefined || isSkipped(c.importListV2)) return failed(c.controller);
  if (c.importProgress !== undefined && failed(c.importProgress)) return true;
  return !answered(c.importListV2) && !answered(c.controller);
}

/**
 * 0 when every key is accepted and every call answered (refused metric queries are listed, not
 * fatal); 1 when a key is refused or not confirmed, or a cluster, its import listing (V2 or
 * the v1 controller), its Spark job listing, its data plane (collections or indexes), List
 * Projects V2, a Spark job, a job by ID, List Backups or a console listing failed (a key without
 * backup permission, or one that is not a project admin, is reported, not a failure).
 */
export function probeExitCode(report: ProbeReport): number {
  if (report.keys.some((k) => k.state !== "accepted")) return PROBE_FAILED;
  if (report.clusterDiscovery !== undefined && !report.clusterDiscovery.result.ok) return PROBE_FAILED;
  if (report.projects !== undefined && !report.projects.ok) return PROBE_FAILED;
  for (const c of report.clusters) {
    if (
      isSkipped(c.describe) ||
      failed(c.describe) ||
      importsFailed(c) ||
      failed(c.metrics) ||
      failed(c.sparkList) ||
      (c.dataPlane !== undefined && Object.values(c.dataPlane).some(failed)) ||
      (c.canary ?? []).some(canaryFailed)
    ) {
      return PROBE_FAILED;
    }
  }
  if (report.jobs.some((j) => failed(j.result))) return PROBE_FAILED;
  // Not permitted is a setting the report names, not a failure: the other collectors work.
  if (report.backups?.some((b) => b.state === "failed")) return PROBE_FAILED;
  if (report.billing !== undefined && failed(report.billing.result)) return PROBE_FAILED;
  if (report.console?.some((c) => c.state === "failed")) return PROBE_FAILED;
  return report.sparkJobs.some((j) => failed(j.result)) ? PROBE_FAILED : PROBE_OK;
}

const queryText = (q: MetricQuery): string => (q.stat === undefined ? q.name : `${q.name} stat=${q.stat}`);

function cell(x: CallResult | Skipped): string {
  if (isSkipped(x)) return `- (${x.skipped})`;
  return x.ok ? "ok" : x.code;
}

function metricsCell(x: MetricsProbe | CallResult | Skipped): string {
  if (!isMetrics(x)) return cell(x);
  const form = x.form === undefined ? "" : `, ${x.form} form`;
  return `${x.accepted.length} accepted, ${x.refused.length} refused${form}`;
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
function billingLine(b: BillingProbe): string {
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
  if (report.clusterDiscovery !== undefined) {
    const d = report.clusterDiscovery;
    out.push(`List Clusters: ${d.result.ok ? `ok, ${d.seen} cluster(s) on page 1` : d.result.code}`);
  }
  if (report.clusters.length > 0) {
    out.push(
      "",
      ...table([
        ["CLUSTER", "KEY", "REACHABLE", "REGIONAL CONTROLLER", "SPARK JOB LIST", "METRIC QUERIES"],
        ...report.clusters.map((c) => [
          c.clusterId,
          c.credential,
          cell(c.describe),
          isSkipped(c.controller) ? cell(c.controller) : `${cell(c.controller)} (${c.region ?? ""})`,
          cell(c.sparkList),
          metricsCell(c.metrics),
        ]),
      ]),
    );
    const v2 = report.clusters.filter((c) => c.importListV2 !== undefined);
    if (v2.length > 0) {
      out.push(
        "",
        ...table([
          ["CLUSTER", "LIST IMPORT JOBS V2", "IMPORT JOB PROGRESS V2"],
          ...v2.map((c) => [c.clusterId, cell(c.importListV2 ?? SKIPPED), cell(c.importProgress ?? SKIPPED)]),
        ]),
      );
    }
    const planes = report.clusters.flatMap((c) =>
      c.dataPlane === undefined ? [] : [[c.clusterId, c.dataPlane] as const],
    );
    if (planes.length > 0) {
      out.push(
        "",
        ...table([
          ["CLUSTER", "DATA PLANE (LIST COLLECTIONS)", "LIST INDEXES", "DESCRIBE INDEX"],
          ...planes.map(([id, p]) => [id, cell(p.collections), cell(p.listIndexes), cell(p.describeIndex)]),
        ]),
      );
    }
  }
  out.push(...canaryLines(report.clusters.flatMap((c) => c.canary ?? [])));
  if (report.projects !== undefined) out.push("", `List Projects V2: ${cell(report.projects)}`);
  const refused = report.clusters.flatMap((c) =>
    isMetrics(c.metrics)
      ? c.metrics.refused.map((r) => `  ${c.clusterId} ${queryText(r.query)}: ${r.message}`)
      : [],
  );
  if (refused.length > 0) out.push("", "Refused metric queries (listed, not fatal):", ...refused);
  const switched = report.clusters.flatMap((c) =>
    // A whole form moved is said once, in the form line, not once per query.
    isMetrics(c.metrics) &&
    !(c.metrics.accepted.length > 1 && c.metrics.switched.length === c.metrics.accepted.length)
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
        ["List Import Jobs V2", c.importListV2 ?? SKIPPED],
        ["Get Import Job Progress", c.importProgress ?? SKIPPED],
        ["List Spark Jobs", c.sparkList],
        ["Query Cluster Metrics", c.metrics],
        ["Data plane (collections)", c.dataPlane?.collections ?? SKIPPED],
        ["List Indexes", c.dataPlane?.listIndexes ?? SKIPPED],
        ["Describe Index", c.dataPlane?.describeIndex ?? SKIPPED],
      ] as const
    ).flatMap(([what, x]) => ("ok" in x && !x.ok ? [`  ${c.clusterId} ${what}: ${x.message}`] : [])),
  );
  if (report.projects !== undefined && !report.projects.ok) {
    problems.push(`  List Projects V2: ${report.projects.message}`);
  }
  if (report.clusterDiscovery !== undefined && !report.clusterDiscovery.result.ok) {
    problems.push(`  List Clusters: ${report.clusterDiscovery.result.message}`);
  }
  for (const j of report.sparkJobs) {
    const r = j.result;
    if ("ok" in r && !r.ok) problems.push(`  Spark job ${j.projectId}/${j.jobId}: ${r.message}`);
  }
  for (const b of report.backups ?? []) {
    if (b.state === "failed") problems.push(`  List Backups (key ${b.credential}): ${b.message ?? ""}`);
  }
  for (const j of report.jobs) {
    const r = j.result;
    if ("ok" in r && !r.ok) problems.push(`  Job ${j.jobId}: ${r.message}`);
  }
  for (const c of report.console ?? []) {
    if (c.state === "failed") problems.push(`  ${c.what} (${c.where ?? ""}): ${c.message ?? ""}`);
  }
  if (problems.length > 0) out.push("", "Failures:", ...problems);
  if (report.backups !== undefined && report.backups.length > 0) {
    out.push(
      "",
      ...report.backups.map((b) =>
        b.state === "permitted"
          ? `Backups (key ${b.credential}): permitted`
          : b.state === "not_permitted"
            ? `Backups (key ${b.credential}): NOT PERMITTED: the key lacks backup permission (a project admin, the organization owner or a role with backup permission); backups and backup policies are not collected, the other collectors are unaffected: ${b.message ?? ""}`
            : `Backups (key ${b.credential}): failed (see above)`,
      ),
    );
  }
  if (report.console !== undefined && report.console.length > 0) {
    out.push("", ...report.console.map(consoleLine));
  }
  if (report.sparkJobs.length > 0) {
    const answered = report.sparkJobs.filter((j) => "ok" in j.result && j.result.ok).length;
    out.push("", `Spark jobs: ${answered} of ${report.sparkJobs.length} answered`);
  }
  if (report.jobs.length > 0) {
    const answered = report.jobs.filter((j) => "ok" in j.result && j.result.ok).length;
    out.push("", `Jobs by ID (Describe Job): ${answered} of ${report.jobs.length} answered`);
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
