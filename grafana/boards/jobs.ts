/**
 * Jobs: import jobs per state and collection with their progress, Spark jobs with status, timing,
 * prechecks and failures, Spark jobs listed per cluster and status, and jobs watched by ID
 * (migrations, backups, restores, clones) with status and progress.
 */
import type { DashboardSpec, StatSpec } from "../lib/panels.js";
import { DATASOURCE_VARIABLE, LIMITS, steps, TAG, UID, upDown } from "./common.js";

const IMPORT = 'cluster_id=~"$cluster"';
const SPARK = 'project_id=~"$project"';
const LISTED = 'cluster_id=~"$spark_cluster"';
const BY_ID = 'type=~"$job_type"';

/** A job's current status with its labels, value 1, one series per job by ID. */
const JOB_STATUS = `vdbcloud_job_status{${BY_ID}} == 1`;

/** One per-job value of a job by ID, with its status label, so the table merges rows per job. */
function jobColumn(valueExpr: string): string {
  return `max by (job_id, type) (${valueExpr}) * on (job_id, type) group_left (status) (${JOB_STATUS})`;
}

const JOB_STATUS_COLORS = [
  { value: "successful", color: "green" },
  { value: "failed", color: "red" },
  { value: "pending|in_progress", color: "blue", regex: true },
  { value: ".*", color: "orange", regex: true },
];

function jobStatusStat(status: string, description: string, bad: boolean): StatSpec {
  return {
    kind: "stat",
    title: `Jobs by ID ${status.replace("_", " ")}`,
    description,
    queries: [{ expr: `count(vdbcloud_job_status{${BY_ID}, status="${status}"} == 1) or vector(0)` }],
    unit: "none",
    thresholds: bad ? LIMITS.anyIsBad : steps(),
    colorMode: bad ? "background" : "value",
    w: 6,
  };
}

/** The Spark job's descriptive labels plus its current status, value 1, one series per job. */
const SPARK_INFO =
  `max by (project_id, job_id, type, region_id, cluster_id, status) (vdbcloud_spark_job_info{${SPARK}}` +
  ` * on (project_id, job_id) group_left (status) max by (project_id, job_id, status) (vdbcloud_spark_job_status == 1))`;

/** One per-job value with the labels of {@link SPARK_INFO}, so the table merges rows per job. */
function sparkColumn(valueExpr: string): string {
  return (
    `max by (project_id, job_id) (${valueExpr})` +
    ` * on (project_id, job_id) group_left (type, region_id, cluster_id, status) ${SPARK_INFO}`
  );
}

function importStateStat(state: string, description: string, bad: boolean): StatSpec {
  return {
    kind: "stat",
    title: `Import jobs ${state}`,
    description,
    queries: [{ expr: `sum(vdbcloud_import_jobs{${IMPORT}, state="${state}"}) or vector(0)` }],
    unit: "none",
    thresholds: bad ? LIMITS.anyIsBad : steps(),
    colorMode: bad ? "background" : "value",
    w: 6,
  };
}

const SPARK_STATUS_COLORS = [
  { value: "succeeded", color: "green" },
  { value: "failed", color: "red" },
  { value: "timeout", color: "red" },
  { value: "pending|preparing|running", color: "blue", regex: true },
  { value: ".*", color: "orange", regex: true },
];

const IMPORT_STATE_COLORS = [
  { value: "completed", color: "green" },
  { value: "failed", color: "red" },
  { value: "pending|running", color: "blue", regex: true },
  { value: ".*", color: "orange", regex: true },
];

/** The jobs dashboard (uid vdbcloud-jobs). */
export const jobs: DashboardSpec = {
  uid: UID.jobs,
  title: "Vector DB Cloud / Jobs",
  description:
    "Import jobs (List Import Jobs, Get Import Job Progress), Spark jobs (Describe Spark Job, List Spark Jobs) and jobs by ID (Describe Job): states, progress, timing, prechecks, failures.",
  tags: [TAG],
  variables: [
    DATASOURCE_VARIABLE,
    {
      kind: "query",
      name: "cluster",
      label: "Import cluster",
      query: "label_values(vdbcloud_import_jobs, cluster_id)",
      multi: true,
      includeAll: true,
      allValue: ".*",
    },
    {
      kind: "query",
      name: "project",
      label: "Spark project",
      query: "label_values(vdbcloud_spark_job_info, project_id)",
      multi: true,
      includeAll: true,
      allValue: ".*",
    },
    {
      kind: "query",
      name: "spark_cluster",
      label: "Spark cluster",
      query: "label_values(vdbcloud_spark_jobs, cluster_id)",
      multi: true,
      includeAll: true,
      allValue: ".*",
    },
    {
      kind: "query",
      name: "job_type",
      label: "Job type",
      query: "label_values(vdbcloud_job_status, type)",
      multi: true,
      includeAll: true,
      allValue: ".*",
    },
  ],
  annotations: [
    {
      name: "Job alerts",
      expr: 'ALERTS{alertname=~"VdbcloudImportJob.+|VdbcloudSparkJob.+|VdbcloudSparkPrecheckFailed|VdbcloudJobFailed", alertstate="firing"}',
      titleFormat: "{{alertname}}",
      textFormat: "{{job_id}}",
      iconColor: "red",
    },
  ],
  rows: [
    {
      title: "Import jobs",
      panels: [
        importStateStat("pending", "Listed import jobs waiting to start.", false),
        importStateStat("running", "Listed import jobs in progress.", false),
        importStateStat(
          "completed",
          "Listed import jobs that completed (kept for the retention period).",
          false,
        ),
        importStateStat(
          "failed",
          "Listed import jobs that failed (kept for the retention period). Each one also raises VdbcloudImportJobFailed.",
          true,
        ),
        {
          kind: "timeseries",
          title: "Import jobs per state",
          description: "Number of listed import jobs per state over time, all selected clusters together.",
          queries: [{ expr: `sum by (state) (vdbcloud_import_jobs{${IMPORT}})`, legend: "{{state}}" }],
          unit: "none",
          min: 0,
          stack: true,
        },
        {
          kind: "timeseries",
          title: "Import jobs per collection and state",
          description: "Number of listed import jobs per cluster, collection and state.",
          queries: [
            {
              expr: `sum by (cluster_id, collection_name, state) (vdbcloud_import_jobs{${IMPORT}}) > 0`,
              legend: "{{cluster_id}} {{collection_name}} {{state}}",
            },
          ],
          unit: "none",
          min: 0,
        },
        {
          kind: "table",
          title: "Import jobs",
          description:
            "Every exposed import job with its current state (terminal jobs stay for the retention period).",
          queries: [{ expr: `vdbcloud_import_job_state{${IMPORT}} == 1` }],
          hide: ["Value"],
          columns: [{ field: "state", colored: true, mappings: IMPORT_STATE_COLORS }],
        },
        {
          kind: "timeseries",
          title: "Import progress",
          description:
            "How far each unfinished import job is, 0 to 100% (Get Import Job Progress V2). A flat line on a running job for 30 minutes raises VdbcloudImportJobStalled. Only the newest import_jobs.progress_max unfinished jobs per cluster are asked.",
          queries: [
            {
              expr: `vdbcloud_import_job_progress_ratio{${IMPORT}}`,
              legend: "{{cluster_id}} {{collection_name}} {{job_id}}",
            },
          ],
          unit: "percentunit",
          min: 0,
          max: 1,
          w: 12,
        },
        {
          kind: "timeseries",
          title: "Rows imported",
          description:
            "Rows each unfinished import job has imported so far (Get Import Job Progress V2 totalRows).",
          queries: [
            {
              expr: `vdbcloud_import_job_imported_rows{${IMPORT}}`,
              legend: "{{cluster_id}} {{collection_name}} {{job_id}}",
            },
          ],
          unit: "short",
          min: 0,
          w: 12,
        },
      ],
    },
    {
      title: "Spark jobs",
      panels: [
        {
          kind: "bargauge",
          title: "Spark jobs per status",
          description: "Number of watched Spark jobs per current status.",
          queries: [
            { expr: `count by (status) (vdbcloud_spark_job_status{${SPARK}} == 1)`, legend: "{{status}}" },
          ],
          unit: "none",
          min: 0,
          thresholds: steps(),
          w: 8,
        },
        {
          kind: "stat",
          title: "Spark jobs failed or timed out",
          description:
            "Watched Spark jobs whose status is failed or timeout. Each one raises VdbcloudSparkJobFailed.",
          queries: [
            {
              expr: `count(vdbcloud_spark_job_status{${SPARK}, status=~"failed|timeout"} == 1) or vector(0)`,
            },
          ],
          unit: "none",
          thresholds: LIMITS.anyIsBad,
          w: 4,
          h: 8,
        },
        {
          kind: "stat",
          title: "Spark prechecks failed",
          description:
            "Watched Spark jobs whose precheck report did not pass. Each one raises VdbcloudSparkPrecheckFailed.",
          queries: [{ expr: `count(vdbcloud_spark_job_precheck_passed{${SPARK}} == 0) or vector(0)` }],
          unit: "none",
          thresholds: LIMITS.anyIsBad,
          w: 4,
          h: 8,
        },
        {
          kind: "timeseries",
          title: "Spark job duration",
          description: "Duration reported by the service per Spark job (durationSeconds).",
          queries: [{ expr: `vdbcloud_spark_job_duration_seconds{${SPARK}}`, legend: "{{job_id}}" }],
          unit: "s",
          min: 0,
          w: 8,
        },
        {
          kind: "table",
          title: "Spark jobs",
          description:
            "Every watched Spark job: type, region, target cluster, status, duration, timestamps and precheck results.",
          h: 9,
          queries: [
            { expr: SPARK_INFO },
            { expr: sparkColumn(`vdbcloud_spark_job_duration_seconds{${SPARK}}`) },
            { expr: sparkColumn(`vdbcloud_spark_job_created_timestamp_seconds{${SPARK}} * 1000`) },
            { expr: sparkColumn(`vdbcloud_spark_job_started_timestamp_seconds{${SPARK}} * 1000`) },
            { expr: sparkColumn(`vdbcloud_spark_job_finished_timestamp_seconds{${SPARK}} * 1000`) },
            { expr: sparkColumn(`vdbcloud_spark_job_precheck_passed{${SPARK}}`) },
            { expr: sparkColumn(`vdbcloud_spark_job_precheck_errors{${SPARK}}`) },
            { expr: sparkColumn(`vdbcloud_spark_job_precheck_checked_rows{${SPARK}}`) },
            { expr: sparkColumn(`vdbcloud_spark_job_submitted_timestamp_seconds{${SPARK}} * 1000`) },
          ],
          hide: ["Value #A"],
          columns: [
            { field: "status", colored: true, mappings: SPARK_STATUS_COLORS },
            { field: "Value #B", displayName: "Duration", unit: "s" },
            { field: "Value #C", displayName: "Created", unit: "dateTimeAsIso" },
            { field: "Value #D", displayName: "Started", unit: "dateTimeAsIso" },
            { field: "Value #E", displayName: "Finished", unit: "dateTimeAsIso" },
            {
              field: "Value #F",
              displayName: "Precheck",
              colored: true,
              mappings: upDown("passed", "failed"),
            },
            {
              field: "Value #G",
              displayName: "Precheck errors",
              unit: "none",
              colored: true,
              thresholds: LIMITS.anyIsBad,
            },
            { field: "Value #H", displayName: "Rows checked", unit: "short" },
            { field: "Value #I", displayName: "Submitted", unit: "dateTimeAsIso" },
          ],
        },
        {
          kind: "table",
          title: "Spark job failures",
          description:
            "Failure reason of failed Spark jobs: code, and whether the service says a retry may succeed.",
          h: 6,
          queries: [{ expr: `vdbcloud_spark_job_failure_info{${SPARK}}` }],
          hide: ["Value"],
        },
        {
          kind: "timeseries",
          title: "Spark jobs listed per cluster and status",
          description:
            "Every Spark job the service lists per cluster (List Spark Jobs), per status, finished ones of any age included: discovered and configured jobs alike.",
          queries: [
            {
              expr: `sum by (cluster_id, status) (vdbcloud_spark_jobs{${LISTED}}) > 0`,
              legend: "{{cluster_id}} {{status}}",
            },
          ],
          unit: "none",
          min: 0,
          w: 16,
        },
        {
          kind: "bargauge",
          title: "Spark jobs listed per status",
          description:
            "All selected clusters' listed Spark jobs per status at the last poll (List Spark Jobs).",
          queries: [{ expr: `sum by (status) (vdbcloud_spark_jobs{${LISTED}})`, legend: "{{status}}" }],
          unit: "none",
          min: 0,
          thresholds: steps(),
          w: 8,
        },
      ],
    },
    {
      title: "Jobs by ID",
      panels: [
        jobStatusStat("pending", "Jobs of jobs.ids waiting to start.", false),
        jobStatusStat("in_progress", "Jobs of jobs.ids running now.", false),
        jobStatusStat("successful", "Jobs of jobs.ids that succeeded (kept for jobs.retention).", false),
        jobStatusStat(
          "failed",
          "Jobs of jobs.ids that failed (kept for jobs.retention). Each one also raises VdbcloudJobFailed.",
          true,
        ),
        {
          kind: "timeseries",
          title: "Job progress",
          description: "Progress of each job by ID, 0 to 100% (Describe Job progress).",
          queries: [{ expr: `vdbcloud_job_progress_ratio{${BY_ID}}`, legend: "{{type}} {{job_id}}" }],
          unit: "percentunit",
          min: 0,
          max: 1,
        },
        {
          kind: "table",
          title: "Jobs by ID",
          description:
            "Every job of jobs.ids: type, status, progress, start and end (finished jobs stay for jobs.retention).",
          queries: [
            { expr: JOB_STATUS },
            { expr: jobColumn(`vdbcloud_job_progress_ratio{${BY_ID}}`) },
            { expr: jobColumn(`vdbcloud_job_start_timestamp_seconds{${BY_ID}} * 1000`) },
            { expr: jobColumn(`vdbcloud_job_end_timestamp_seconds{${BY_ID}} * 1000`) },
          ],
          hide: ["Value #A"],
          columns: [
            { field: "status", colored: true, mappings: JOB_STATUS_COLORS },
            { field: "Value #B", displayName: "Progress", unit: "percentunit" },
            { field: "Value #C", displayName: "Started", unit: "dateTimeAsIso" },
            { field: "Value #D", displayName: "Ended", unit: "dateTimeAsIso" },
          ],
        },
      ],
    },
  ],
};
