/** The import jobs collector's families (docs/metrics.md): List Import Jobs V2 or v1, Get Import Job Progress V2. */
import { gauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** The labels that name an import job: every per-job family has them, so they join on them. */
const JOB = ["cluster_id", "collection_name", "job_id"] as const;

/** Import jobs per cluster: state, counts per state, progress and imported rows. */
export const IMPORT_JOB_FAMILY = {
  importJobState: gauge("vdbcloud_import_job_state", {
    help: "Import job state, one series per known state, 1 for the job's current state at the last poll (upstream List Import Jobs state).",
    labels: [...JOB, "state"],
    unit: "1 (state set)",
    source: `${ENDPOINT.listImportJobsV2} state (V2), or ${ENDPOINT.listImportJobs} state (v1)`,
    absent:
      'no series with import_jobs.enabled false, or for a cluster without region when import_jobs.api is v1 (or auto falls back to v1); a finished job\'s series disappear import_jobs.retention after it was first seen terminal; jobs beyond import_jobs.max_jobs_per_cluster are counted in vdbcloud_samples_dropped_total{reason="job_cap"}',
  }),
  importJobs: gauge("vdbcloud_import_jobs", {
    help: "Import jobs listed per collection and state at the last poll, terminal ones kept for import_jobs.retention (upstream List Import Jobs, count).",
    labels: ["cluster_id", "collection_name", "state"],
    unit: "count",
    source: `${ENDPOINT.listImportJobsV2} or ${ENDPOINT.listImportJobs} (jobs counted by collectionName and state)`,
    absent: "no series for a collection and state without listed jobs",
  }),
  importJobProgress: gauge("vdbcloud_import_job_progress_ratio", {
    help: "How far an unfinished import job is, 0 to 1, at its last progress call this cycle (upstream Get Import Job Progress V2 progress, percent / 100).",
    labels: JOB,
    source: `${ENDPOINT.describeImportJob} progress`,
    absent:
      "for finished jobs, with import_jobs.api v1 or a v1 fallback, and for unfinished jobs beyond import_jobs.progress_max this cycle",
  }),
  importJobImportedRows: gauge("vdbcloud_import_job_imported_rows", {
    help: "Rows an unfinished import job has imported so far, a count, at its last progress call this cycle (upstream Get Import Job Progress V2 totalRows).",
    labels: JOB,
    unit: "count (rows)",
    source: `${ENDPOINT.describeImportJob} totalRows`,
    absent: "as vdbcloud_import_job_progress_ratio, and when the answer gives no totalRows",
  }),
} as const;
