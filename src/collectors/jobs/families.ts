/** The jobs collector's families (docs/metrics.md): Describe Job v2 per listed job ID. */
import { gauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** The labels that name a job: every family has them, so they join on them. */
const JOB = ["job_id", "type"] as const;

/** Jobs by ID: status, progress, start and end. */
export const CLOUD_JOB_FAMILY = {
  jobStatus: gauge("vdbcloud_job_status", {
    help: "Job status, one series per known status, 1 for the job's current status at the last poll (upstream Describe Job status).",
    labels: [...JOB, "status"],
    source: `${ENDPOINT.describeJob} status`,
    absent:
      "the job is not in jobs.ids or jobs.ids_file, was never answered, or finished more than jobs.retention ago",
  }),
  jobProgress: gauge("vdbcloud_job_progress_ratio", {
    help: "Progress of the job, 0 to 1 (upstream Describe Job progress, percent / 100).",
    labels: JOB,
    source: `${ENDPOINT.describeJob} progress`,
    absent: "the answer gives no readable progress, or as vdbcloud_job_status",
  }),
  jobStart: gauge("vdbcloud_job_start_timestamp_seconds", {
    help: "When the job started, Unix time in seconds (upstream Describe Job startTime).",
    labels: JOB,
    source: `${ENDPOINT.describeJob} startTime`,
    absent: "the job has not started (no startTime), or as vdbcloud_job_status",
  }),
  jobEnd: gauge("vdbcloud_job_end_timestamp_seconds", {
    help: "When the job ended, Unix time in seconds (upstream Describe Job endTime).",
    labels: JOB,
    source: `${ENDPOINT.describeJob} endTime`,
    absent: "the job has not ended (no endTime), or as vdbcloud_job_status",
  }),
} as const;
