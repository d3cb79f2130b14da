/**
 * The job families (import jobs, Spark jobs, jobs by ID), re-exported by families.ts, the catalog
 * everyone imports; each family's third argument is its reference entry (docs/metrics.md).
 */
import { gauge } from "./define.js";

/**
 * Families of import jobs (List Import Jobs V2 or v1, Get Import Job Progress V2), Spark jobs
 * (Describe Spark Job and List Spark Jobs v2) and jobs by ID (Describe Job v2).
 */
export const JOB_FAMILIES = {
  importJobState: gauge(
    "vdbcloud_import_job_state",
    "Import job state, one series per known state, 1 for the job's current state at the last poll (upstream List Import Jobs state).",
    {
      labels: ["cluster_id", "collection_name", "job_id", "state"],
      unit: "1 (state set)",
      source:
        "POST /v2/vectordb/jobs/import/list state (V2), or GET /v1/vector/collections/import/list state (v1)",
      absent:
        'no series with import_jobs.enabled false, or for a cluster without region when import_jobs.api is v1 (or auto falls back to v1); a finished job\'s series disappear import_jobs.retention after it was first seen terminal; jobs beyond import_jobs.max_jobs_per_cluster are counted in vdbcloud_samples_dropped_total{reason="job_cap"}',
    },
  ),
  importJobs: gauge(
    "vdbcloud_import_jobs",
    "Import jobs listed per collection and state at the last poll, terminal ones kept for import_jobs.retention (upstream List Import Jobs, count).",
    {
      labels: ["cluster_id", "collection_name", "state"],
      unit: "count",
      source:
        "POST /v2/vectordb/jobs/import/list or GET /v1/vector/collections/import/list (jobs counted by collectionName and state)",
      absent: "no series for a collection and state without listed jobs",
    },
  ),
  importJobProgress: gauge(
    "vdbcloud_import_job_progress_ratio",
    "How far an unfinished import job is, 0 to 1, at its last progress call this cycle (upstream Get Import Job Progress V2 progress, percent / 100).",
    {
      labels: ["cluster_id", "collection_name", "job_id"],
      unit: "ratio (0..1)",
      source: "POST /v2/vectordb/jobs/import/describe progress",
      absent:
        "for finished jobs, with import_jobs.api v1 or a v1 fallback, and for unfinished jobs beyond import_jobs.progress_max this cycle",
    },
  ),
  importJobImportedRows: gauge(
    "vdbcloud_import_job_imported_rows",
    "Rows an unfinished import job has imported so far, a count, at its last progress call this cycle (upstream Get Import Job Progress V2 totalRows).",
    {
      labels: ["cluster_id", "collection_name", "job_id"],
      unit: "count (rows)",
      source: "POST /v2/vectordb/jobs/import/describe totalRows",
      absent: "as vdbcloud_import_job_progress_ratio, and when the answer gives no totalRows",
    },
  ),
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
  jobStatus: gauge(
    "vdbcloud_job_status",
    "Job status, one series per known status, 1 for the job's current status at the last poll (upstream Describe Job status).",
    {
      labels: ["job_id", "type", "status"],
      unit: "1 (state set)",
      source: "GET /v2/jobs/{jobId} status",
      absent:
        "the job is not in jobs.ids or jobs.ids_file, was never answered, or finished more than jobs.retention ago",
    },
  ),
  jobProgress: gauge(
    "vdbcloud_job_progress_ratio",
    "Progress of the job, 0 to 1 (upstream Describe Job progress, percent / 100).",
    {
      labels: ["job_id", "type"],
      unit: "ratio (0..1)",
      source: "GET /v2/jobs/{jobId} progress",
      absent: "the answer gives no readable progress, or as vdbcloud_job_status",
    },
  ),
  jobStart: gauge(
    "vdbcloud_job_start_timestamp_seconds",
    "When the job started, Unix time in seconds (upstream Describe Job startTime).",
    {
      labels: ["job_id", "type"],
      unit: "Unix seconds",
      source: "GET /v2/jobs/{jobId} startTime",
      absent: "the job has not started (no startTime), or as vdbcloud_job_status",
    },
  ),
  jobEnd: gauge(
    "vdbcloud_job_end_timestamp_seconds",
    "When the job ended, Unix time in seconds (upstream Describe Job endTime).",
    {
      labels: ["job_id", "type"],
      unit: "Unix seconds",
      source: "GET /v2/jobs/{jobId} endTime",
      absent: "the job has not ended (no endTime), or as vdbcloud_job_status",
    },
  ),
} as const;
