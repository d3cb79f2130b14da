/** Pure mapping of one Describe Spark Job (v2) answer to samples. */

import { MappingBuilder } from "../../metrics/builder.js";
import type { FamilyDef, MappingResult } from "../../metrics/sample.js";
import { stateSet } from "../../metrics/stateSet.js";
import type { SparkJob } from "../../upstream/types.js";
import { SPARK_JOB_FAMILY as J } from "./families.js";

/** Known Spark job statuses, as exposed. */
export const SPARK_JOB_STATUSES: readonly string[] = [
  "pending",
  "preparing",
  "running",
  "succeeded",
  "failed",
  "timeout",
  "cancelling",
  "canceled",
];

const TERMINAL: ReadonlySet<string> = new Set(["succeeded", "failed", "timeout", "canceled"]);

// Spellings of the same state: British "cancelled" and American "canceling" for the documented
// CANCELED and CANCELLING, so that one state never shows up as two.
const SPELLINGS: Readonly<Record<string, string>> = { cancelled: "canceled", canceling: "cancelling" };

/**
 * Normalizes an upstream Spark job status: trimmed and lowercased ("RUNNING" -> "running"),
 * with other spellings of a documented state read as that state ("CANCELING" -> "cancelling",
 * "cancelled" -> "canceled"); "unknown" when empty, so that it is always a usable label value.
 */
export function normalizeSparkStatus(raw: string): string {
  const s = raw.trim().toLowerCase();
  return SPELLINGS[s] ?? (s === "" ? "unknown" : s);
}

/** True for succeeded, failed, timeout and canceled (raw or normalized); unknown ones are not terminal. */
export function isTerminalSparkStatus(status: string): boolean {
  return TERMINAL.has(normalizeSparkStatus(status));
}

/** The families `mapSparkJob` writes: every per-job family of a Spark job. */
export const SPARK_JOB_FAMILIES: readonly FamilyDef[] = [
  J.sparkStatus,
  J.sparkInfo,
  J.sparkDuration,
  J.sparkCreated,
  J.sparkSubmitted,
  J.sparkStarted,
  J.sparkFinished,
  J.sparkPrecheckPassed,
  J.sparkPrecheckErrors,
  J.sparkPrecheckCheckedRows,
  J.sparkFailureInfo,
];

/**
 * Maps a Spark job to: its status state set; vdbcloud_spark_job_info (cluster_id "" when the
 * job has none); duration, the four timestamps in Unix seconds, precheck passed (1/0), precheck
 * error count (only when the report carries an error list) and checked rows, each only when the
 * upstream gives a value (null is no sample, never 0); and vdbcloud_spark_job_failure_info when
 * a failure reason exists, with retryable "true", "false" or "unknown" (not said). Every series
 * is labelled project_id, job_id first.
 */
export function mapSparkJob(job: SparkJob): MappingResult {
  const out = new MappingBuilder();
  const id = { project_id: job.projectId, job_id: job.jobId };
  const optional = (family: FamilyDef, value: number | null): void => {
    if (value !== null) out.add(family, id, value);
  };
  const seconds = (ms: number | null): number | null => (ms === null ? null : ms / 1000);

  out.addSamples(
    J.sparkStatus,
    stateSet(J.sparkStatus, id, "status", SPARK_JOB_STATUSES, normalizeSparkStatus(job.status)),
  );
  out.add(
    J.sparkInfo,
    { ...id, type: job.type, region_id: job.regionId, cluster_id: job.clusterId ?? "" },
    1,
  );
  optional(J.sparkDuration, job.durationSeconds);
  optional(J.sparkCreated, seconds(job.createdAtMs));
  optional(J.sparkSubmitted, seconds(job.submittedAtMs));
  optional(J.sparkStarted, seconds(job.startedAtMs));
  optional(J.sparkFinished, seconds(job.finishedAtMs));

  const precheck = job.precheck;
  if (precheck !== null) {
    optional(J.sparkPrecheckPassed, precheck.passed === null ? null : Number(precheck.passed));
    optional(J.sparkPrecheckErrors, precheck.errors === null ? null : precheck.errors.length);
    optional(J.sparkPrecheckCheckedRows, precheck.checkedRows);
  }

  const failure = job.failureReason;
  if (failure !== null) {
    // An alert may route on retryable="false"; a reason that does not say must not claim it.
    const retryable = failure.retryable === null ? "unknown" : String(failure.retryable);
    const labels = { ...id, code: failure.code, retryable };
    out.add(J.sparkFailureInfo, labels, 1);
  }
  return out.result();
}
