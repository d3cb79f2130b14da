/** The Spark jobs collectors' families (docs/metrics.md): Describe Spark Job and List Spark Jobs v2. */
import { gauge } from "../../metrics/define.js";

/** Spark jobs, configured and discovered: status, times, prechecks and failures. */
export const SPARK_JOB_FAMILY = {
  sparkStatus: gauge(
    "vdbcloud_spark_job_status",
    "Spark job status, one series per known status, 1 for the job's current status at the last poll (upstream Describe Spark Job status).",
    {
      labels: ["project_id", "job_id", "status"],
      unit: "1 (state set)",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} status",
      absent:
        "no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkInfo: gauge(
    "vdbcloud_spark_job_info",
    "Spark job description in labels, always 1 (upstream Describe Spark Job).",
    {
      labels: ["project_id", "job_id", "type", "region_id", "cluster_id"],
      unit: "1 (info)",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} type, regionId, clusterId",
      absent:
        "no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkDuration: gauge(
    "vdbcloud_spark_job_duration_seconds",
    "Run time of the Spark job in seconds, as last reported (upstream Describe Spark Job durationSeconds).",
    {
      labels: ["project_id", "job_id"],
      unit: "seconds",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} durationSeconds",
      absent:
        "while the answer's durationSeconds is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkCreated: gauge(
    "vdbcloud_spark_job_created_timestamp_seconds",
    "When the Spark job was created, Unix time in seconds (upstream Describe Spark Job createdAt).",
    {
      labels: ["project_id", "job_id"],
      unit: "Unix seconds",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} createdAt",
      absent:
        "while the answer's createdAt is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkSubmitted: gauge(
    "vdbcloud_spark_job_submitted_timestamp_seconds",
    "When the Spark job was submitted, Unix time in seconds (upstream Describe Spark Job submittedAt).",
    {
      labels: ["project_id", "job_id"],
      unit: "Unix seconds",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} submittedAt",
      absent:
        "while the answer's submittedAt is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkStarted: gauge(
    "vdbcloud_spark_job_started_timestamp_seconds",
    "When the Spark job started running, Unix time in seconds (upstream Describe Spark Job startedAt).",
    {
      labels: ["project_id", "job_id"],
      unit: "Unix seconds",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} startedAt",
      absent:
        "while the answer's startedAt is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkFinished: gauge(
    "vdbcloud_spark_job_finished_timestamp_seconds",
    "When the Spark job finished, Unix time in seconds (upstream Describe Spark Job finishedAt).",
    {
      labels: ["project_id", "job_id"],
      unit: "Unix seconds",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} finishedAt",
      absent:
        "while the answer's finishedAt is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkPrecheckPassed: gauge(
    "vdbcloud_spark_job_precheck_passed",
    "1 if the Spark job's precheck passed, 0 if it failed (upstream Describe Spark Job precheckReport.passed).",
    {
      labels: ["project_id", "job_id"],
      unit: "1 or 0",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} precheckReport.passed",
      absent:
        "while the answer's precheckReport.passed is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkPrecheckErrors: gauge(
    "vdbcloud_spark_job_precheck_errors",
    "Problems the Spark job's precheck found in its input, as last reported (upstream Describe Spark Job precheckReport.errors, count).",
    {
      labels: ["project_id", "job_id"],
      unit: "count",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} precheckReport.errors",
      absent:
        "while the answer's precheckReport.errors is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled (no errors list: no series, never 0)",
    },
  ),
  sparkPrecheckCheckedRows: gauge(
    "vdbcloud_spark_job_precheck_checked_rows",
    "Input rows the Spark job's precheck examined, as last reported (upstream Describe Spark Job precheckReport.checkedRows, count).",
    {
      labels: ["project_id", "job_id"],
      unit: "count",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} precheckReport.checkedRows",
      absent:
        "while the answer's precheckReport.checkedRows is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkFailureInfo: gauge(
    "vdbcloud_spark_job_failure_info",
    "Spark job failure reason in labels, 1 when the job reports one (upstream Describe Spark Job failureReason).",
    {
      labels: ["project_id", "job_id", "code", "retryable"],
      unit: "1 (info)",
      source:
        "GET /v2/projects/{projectId}/jobs/{jobId} failureReason.code, failureReason.retryable (true, false, or unknown when the answer does not say)",
      absent:
        "while the job reports no failure reason; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkJobs: gauge(
    "vdbcloud_spark_jobs",
    "Spark jobs the cluster lists per status at the last poll, finished ones of any age included (upstream List Spark Jobs status, count).",
    {
      labels: ["cluster_id", "status"],
      unit: "count",
      source: "GET /v2/jobs?type=SPARK items[].status",
      absent:
        "spark_jobs.discovery disabled, or the cluster's listing never answered; each known status is present (0 when none)",
    },
  ),
} as const;
