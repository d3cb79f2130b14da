/** The Spark jobs collectors' families (docs/metrics.md): Describe Spark Job and List Spark Jobs v2. */
import { type FamilySpec, gauge } from "../../metrics/define.js";
import type { FamilyDef } from "../../metrics/sample.js";
import { ENDPOINT } from "../../upstream/types.js";

/** The answer every family but the listing's reads. */
const DESCRIBE = ENDPOINT.describeSparkJob;
/** A job's own labels, first in each of its families. */
const JOB = ["project_id", "job_id"] as const;

/** When a Spark job's families have no series, whatever else a family's own entry adds. */
const SETTLED =
  "no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled";

/** A field-fed family's absence: the answer left the field out (null or missing), or as every other. */
function missing(field: string): string {
  return `while the answer's ${field} is null or missing; ${SETTLED}`;
}

/**
 * A family of one field of Describe Spark Job, per job: its source is the field, and it is absent
 * while the answer leaves the field out.
 */
function fieldOf(name: string, field: string, spec: Pick<FamilySpec, "help" | "unit">): FamilyDef {
  return gauge(name, { labels: [...JOB], source: `${DESCRIBE} ${field}`, absent: missing(field), ...spec });
}

/** When the job did what one of Describe Spark Job's timestamps (`field`) records. */
function stepOf(name: string, field: string, did: string): FamilyDef {
  return fieldOf(name, field, {
    help: `When the Spark job ${did}, Unix time in seconds (upstream Describe Spark Job ${field}).`,
  });
}

/** Spark jobs, configured and discovered: status, times, prechecks and failures. */
export const SPARK_JOB_FAMILY = {
  sparkStatus: gauge("vdbcloud_spark_job_status", {
    help: "Spark job status, one series per known status, 1 for the job's current status at the last poll (upstream Describe Spark Job status).",
    labels: [...JOB, "status"],
    source: `${DESCRIBE} status`,
    absent: SETTLED,
  }),
  sparkInfo: gauge("vdbcloud_spark_job_info", {
    help: "Spark job description in labels, always 1 (upstream Describe Spark Job).",
    labels: [...JOB, "type", "region_id", "cluster_id"],
    source: `${DESCRIBE} type, regionId, clusterId`,
    absent: SETTLED,
  }),
  sparkDuration: fieldOf("vdbcloud_spark_job_duration_seconds", "durationSeconds", {
    help: "Run time of the Spark job in seconds, as last reported (upstream Describe Spark Job durationSeconds).",
  }),
  sparkCreated: stepOf("vdbcloud_spark_job_created_timestamp_seconds", "createdAt", "was created"),
  sparkSubmitted: stepOf("vdbcloud_spark_job_submitted_timestamp_seconds", "submittedAt", "was submitted"),
  sparkStarted: stepOf("vdbcloud_spark_job_started_timestamp_seconds", "startedAt", "started running"),
  sparkFinished: stepOf("vdbcloud_spark_job_finished_timestamp_seconds", "finishedAt", "finished"),
  sparkPrecheckPassed: fieldOf("vdbcloud_spark_job_precheck_passed", "precheckReport.passed", {
    help: "1 if the Spark job's precheck passed, 0 if it failed (upstream Describe Spark Job precheckReport.passed).",
    unit: "1 or 0",
  }),
  sparkPrecheckErrors: gauge("vdbcloud_spark_job_precheck_errors", {
    help: "Problems the Spark job's precheck found in its input, as last reported (upstream Describe Spark Job precheckReport.errors, count).",
    labels: [...JOB],
    unit: "count",
    source: `${DESCRIBE} precheckReport.errors`,
    absent: `${missing("precheckReport.errors")} (no errors list: no series, never 0)`,
  }),
  sparkPrecheckCheckedRows: fieldOf(
    "vdbcloud_spark_job_precheck_checked_rows",
    "precheckReport.checkedRows",
    {
      help: "Input rows the Spark job's precheck examined, as last reported (upstream Describe Spark Job precheckReport.checkedRows, count).",
      unit: "count",
    },
  ),
  sparkFailureInfo: gauge("vdbcloud_spark_job_failure_info", {
    help: "Spark job failure reason in labels, 1 when the job reports one (upstream Describe Spark Job failureReason).",
    labels: [...JOB, "code", "retryable"],
    source: `${DESCRIBE} failureReason.code, failureReason.retryable (true, false, or unknown when the answer does not say)`,
    absent: `while the job reports no failure reason; ${SETTLED}`,
  }),
  sparkJobs: gauge("vdbcloud_spark_jobs", {
    help: "Spark jobs the cluster lists per status at the last poll, finished ones of any age included (upstream List Spark Jobs status, count).",
    labels: ["cluster_id", "status"],
    unit: "count",
    source: `${ENDPOINT.listSparkJobs}?type=SPARK items[].status`,
    absent:
      "spark_jobs.discovery disabled, or the cluster's listing never answered; each known status is present (0 when none)",
  }),
} as const;
