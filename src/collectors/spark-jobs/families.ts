/** The Spark jobs collectors' families (docs/metrics.md): Describe Spark Job and List Spark Jobs v2. */
import { gauge } from "../../metrics/define.js";

/** When a Spark job's families have no series, whatever else a family's own entry adds. */
const SETTLED =
  "no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled";

/** A field-fed family's absence: the answer left the field out (null or missing), or as every other. */
function missing(field: string): string {
  return `while the answer's ${field} is null or missing; ${SETTLED}`;
}

/** Spark jobs, configured and discovered: status, times, prechecks and failures. */
export const SPARK_JOB_FAMILY = {
  sparkStatus: gauge("vdbcloud_spark_job_status", {
    help: "Spark job status, one series per known status, 1 for the job's current status at the last poll (upstream Describe Spark Job status).",
    labels: ["project_id", "job_id", "status"],
    source: "GET /v2/projects/{projectId}/jobs/{jobId} status",
    absent: SETTLED,
  }),
  sparkInfo: gauge("vdbcloud_spark_job_info", {
    help: "Spark job description in labels, always 1 (upstream Describe Spark Job).",
    labels: ["project_id", "job_id", "type", "region_id", "cluster_id"],
    source: "GET /v2/projects/{projectId}/jobs/{jobId} type, regionId, clusterId",
    absent: SETTLED,
  }),
  sparkDuration: gauge("vdbcloud_spark_job_duration_seconds", {
    help: "Run time of the Spark job in seconds, as last reported (upstream Describe Spark Job durationSeconds).",
    labels: ["project_id", "job_id"],
    source: "GET /v2/projects/{projectId}/jobs/{jobId} durationSeconds",
    absent: missing("durationSeconds"),
  }),
  sparkCreated: gauge("vdbcloud_spark_job_created_timestamp_seconds", {
    help: "When the Spark job was created, Unix time in seconds (upstream Describe Spark Job createdAt).",
    labels: ["project_id", "job_id"],
    source: "GET /v2/projects/{projectId}/jobs/{jobId} createdAt",
    absent: missing("createdAt"),
  }),
  sparkSubmitted: gauge("vdbcloud_spark_job_submitted_timestamp_seconds", {
    help: "When the Spark job was submitted, Unix time in seconds (upstream Describe Spark Job submittedAt).",
    labels: ["project_id", "job_id"],
    source: "GET /v2/projects/{projectId}/jobs/{jobId} submittedAt",
    absent: missing("submittedAt"),
  }),
  sparkStarted: gauge("vdbcloud_spark_job_started_timestamp_seconds", {
    help: "When the Spark job started running, Unix time in seconds (upstream Describe Spark Job startedAt).",
    labels: ["project_id", "job_id"],
    source: "GET /v2/projects/{projectId}/jobs/{jobId} startedAt",
    absent: missing("startedAt"),
  }),
  sparkFinished: gauge("vdbcloud_spark_job_finished_timestamp_seconds", {
    help: "When the Spark job finished, Unix time in seconds (upstream Describe Spark Job finishedAt).",
    labels: ["project_id", "job_id"],
    source: "GET /v2/projects/{projectId}/jobs/{jobId} finishedAt",
    absent: missing("finishedAt"),
  }),
  sparkPrecheckPassed: gauge("vdbcloud_spark_job_precheck_passed", {
    help: "1 if the Spark job's precheck passed, 0 if it failed (upstream Describe Spark Job precheckReport.passed).",
    labels: ["project_id", "job_id"],
    unit: "1 or 0",
    source: "GET /v2/projects/{projectId}/jobs/{jobId} precheckReport.passed",
    absent: missing("precheckReport.passed"),
  }),
  sparkPrecheckErrors: gauge("vdbcloud_spark_job_precheck_errors", {
    help: "Problems the Spark job's precheck found in its input, as last reported (upstream Describe Spark Job precheckReport.errors, count).",
    labels: ["project_id", "job_id"],
    unit: "count",
    source: "GET /v2/projects/{projectId}/jobs/{jobId} precheckReport.errors",
    absent: `${missing("precheckReport.errors")} (no errors list: no series, never 0)`,
  }),
  sparkPrecheckCheckedRows: gauge("vdbcloud_spark_job_precheck_checked_rows", {
    help: "Input rows the Spark job's precheck examined, as last reported (upstream Describe Spark Job precheckReport.checkedRows, count).",
    labels: ["project_id", "job_id"],
    unit: "count",
    source: "GET /v2/projects/{projectId}/jobs/{jobId} precheckReport.checkedRows",
    absent: missing("precheckReport.checkedRows"),
  }),
  sparkFailureInfo: gauge("vdbcloud_spark_job_failure_info", {
    help: "Spark job failure reason in labels, 1 when the job reports one (upstream Describe Spark Job failureReason).",
    labels: ["project_id", "job_id", "code", "retryable"],
    source:
      "GET /v2/projects/{projectId}/jobs/{jobId} failureReason.code, failureReason.retryable (true, false, or unknown when the answer does not say)",
    absent: `while the job reports no failure reason; ${SETTLED}`,
  }),
  sparkJobs: gauge("vdbcloud_spark_jobs", {
    help: "Spark jobs the cluster lists per status at the last poll, finished ones of any age included (upstream List Spark Jobs status, count).",
    labels: ["cluster_id", "status"],
    unit: "count",
    source: "GET /v2/jobs?type=SPARK items[].status",
    absent:
      "spark_jobs.discovery disabled, or the cluster's listing never answered; each known status is present (0 when none)",
  }),
} as const;
