/**
 * Pure mapping of List Import Jobs (V2 or v1) to per-job state sets and per-collection counts,
 * and of Get Import Job Progress (V2) answers to progress and imported rows. When
 * each job was first seen terminal comes in with the input: the task reads and updates the
 * tracker (tracker.ts) around this mapping, so that finished jobs stay visible for a retention
 * period and then disappear.
 */

import { MappingBuilder } from "../../metrics/builder.js";
import type { FamilyDef, MappingResult } from "../../metrics/sample.js";
import { stateSet } from "../../metrics/stateSet.js";
import { scaleDecimal } from "../../metrics/units.js";
import type { ImportJob, ImportJobProgress } from "../../upstream/types.js";
import { IMPORT_JOB_FAMILY as JOB_FAMILIES } from "./families.js";

/** The families this mapping writes: job states, counts per state, progress and rows. */
export const IMPORT_JOB_FAMILIES: readonly FamilyDef[] = [
  JOB_FAMILIES.importJobState,
  JOB_FAMILIES.importJobs,
  JOB_FAMILIES.importJobProgress,
  JOB_FAMILIES.importJobImportedRows,
];

/** Known import job states, as exposed. */
export const IMPORT_JOB_STATES: readonly string[] = ["pending", "running", "completed", "failed"];

// Keys are lowercased with separators removed, so "InProgress", "in_progress" and
// "IN PROGRESS" all match. Both the v1 names (ImportRunning, ...) and v2 names are accepted.
const STATE_ALIASES: ReadonlyMap<string, string> = new Map([
  ["importpending", "pending"],
  ["pending", "pending"],
  ["importrunning", "running"],
  ["importinprogress", "running"],
  ["inprogress", "running"],
  // Get Import Job Progress says Importing where the list says InProgress.
  ["importing", "running"],
  ["running", "running"],
  ["importcompleted", "completed"],
  ["completed", "completed"],
  ["importfailed", "failed"],
  ["failed", "failed"],
]);

/**
 * Normalizes an upstream import job state: ImportPending/Pending -> pending; ImportRunning/
 * InProgress/Importing/Running -> running; ImportCompleted/Completed -> completed; ImportFailed/Failed ->
 * failed (case and separators ignored). Any other state is returned trimmed and lowercased, or
 * "unknown" when empty, so that it is always a usable label value.
 */
export function normalizeImportState(raw: string): string {
  const trimmed = raw.trim().toLowerCase();
  const alias = STATE_ALIASES.get(trimmed.replace(/[^a-z0-9]/g, ""));
  if (alias !== undefined) return alias;
  return trimmed === "" ? "unknown" : trimmed;
}

/** True for completed and failed jobs (raw or normalized state); unknown states are not terminal. */
export function isTerminalImportState(state: string): boolean {
  const s = normalizeImportState(state);
  return s === "completed" || s === "failed";
}

interface ImportJobsInput {
  readonly clusterId: string;
  /** The full list of the cluster's jobs (every page): unlisted jobs are forgotten. */
  readonly jobs: readonly ImportJob[];
  readonly nowMs: number;
  /** How long a terminal job stays exposed after it was first seen terminal. */
  readonly retentionMs: number;
  /** Cap on per-job state sets for this cluster. */
  readonly maxJobs: number;
  /**
   * For each terminal job of `jobs`, when it was first seen terminal (epoch ms): what
   * `ImportJobTracker.observe` returns for this listing. A job absent here is not terminal.
   */
  readonly terminalSince: ReadonlyMap<string, number>;
}

/**
 * Maps a cluster's import jobs to:
 * - vdbcloud_import_job_state{cluster_id,collection_name,job_id,state}: a state set per job,
 *   for every non-terminal job and every terminal job first seen terminal less than
 *   `retentionMs` ago; at most `maxJobs` jobs, non-terminal first (in listing order), then
 *   terminal ones newest first; the jobs over the cap are counted as dropped "job_cap";
 * - vdbcloud_import_jobs{cluster_id,collection_name,state}: the number of listed jobs per
 *   collection and state, over every listed job (capped or expired ones included), each known
 *   state present (0 when none) plus any unknown state seen.
 * `jobs` holds each job once: the pager keeps a job listed twice (pages shifting during
 * pagination) once (tasks.ts, keyed by job ID).
 */
export function mapImportJobs(input: ImportJobsInput): MappingResult {
  const { clusterId, jobs, nowMs, retentionMs, terminalSince } = input;
  const out = new MappingBuilder();

  const active: ImportJob[] = [];
  const recent: { job: ImportJob; since: number }[] = [];
  for (const job of jobs) {
    const since = terminalSince.get(job.jobId);
    if (since === undefined) active.push(job);
    else if (nowMs - since < retentionMs) recent.push({ job, since });
  }
  recent.sort((a, b) => b.since - a.since);
  const exposed = [...active, ...recent.map((r) => r.job)];
  const cap = Math.max(0, Math.floor(input.maxJobs));
  out.drop("job_cap", exposed.length - cap);

  for (const job of exposed.slice(0, cap)) {
    const labels = { cluster_id: clusterId, collection_name: job.collectionName, job_id: job.jobId };
    const samples = stateSet(
      JOB_FAMILIES.importJobState,
      labels,
      "state",
      IMPORT_JOB_STATES,
      normalizeImportState(job.state),
    );
    out.addSamples(JOB_FAMILIES.importJobState, samples);
  }

  for (const [collection, counts] of countByCollection(jobs)) {
    for (const [state, n] of counts) {
      out.add(JOB_FAMILIES.importJobs, { cluster_id: clusterId, collection_name: collection, state }, n);
    }
  }
  return out.result();
}

function countByCollection(jobs: readonly ImportJob[]): Map<string, Map<string, number>> {
  const byCollection = new Map<string, Map<string, number>>();
  for (const job of jobs) {
    let counts = byCollection.get(job.collectionName);
    if (counts === undefined) {
      counts = new Map(IMPORT_JOB_STATES.map((s) => [s, 0]));
      byCollection.set(job.collectionName, counts);
    }
    const state = normalizeImportState(job.state);
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  return byCollection;
}

/** True for pending and running jobs (raw or normalized state): those whose progress is asked. */
export function isUnfinishedImportState(state: string): boolean {
  const s = normalizeImportState(state);
  return s === "pending" || s === "running";
}

interface ImportProgressInput {
  readonly clusterId: string;
  /** The cluster's listing (every page). */
  readonly jobs: readonly ImportJob[];
  /** This cycle's Get Import Job Progress answers, by job ID. */
  readonly progress: ReadonlyMap<string, ImportJobProgress>;
}

/**
 * Maps this cycle's progress answers of the jobs the listing says are unfinished (pending or
 * running) to vdbcloud_import_job_progress_ratio (progress % / 100) and
 * vdbcloud_import_job_imported_rows (totalRows), labelled {cluster_id, collection_name, job_id}
 * with the listing's collection name. A finished job, a job not asked this cycle, and a field
 * the answer left out give no sample (null is never 0).
 */
export function mapImportJobProgress(input: ImportProgressInput): MappingResult {
  const out = new MappingBuilder();
  for (const job of input.jobs) {
    if (!isUnfinishedImportState(job.state)) continue;
    const p = input.progress.get(job.jobId);
    if (p === undefined) continue;
    const labels = { cluster_id: input.clusterId, collection_name: job.collectionName, job_id: job.jobId };
    if (p.progressPercent !== null) {
      out.add(JOB_FAMILIES.importJobProgress, labels, scaleDecimal(p.progressPercent, 1, 100));
    }
    if (p.totalRows !== null) out.add(JOB_FAMILIES.importJobImportedRows, labels, p.totalRows);
  }
  return out.result();
}
