/** Pure mapping of one Describe Job (v2) answer to samples. */
import { MappingBuilder } from "../../metrics/builder.js";
import type { FamilyDef, MappingResult } from "../../metrics/sample.js";
import { stateSet } from "../../metrics/stateSet.js";
import type { CloudJob } from "../../upstream/types.js";
import { CLOUD_JOB_FAMILY as J } from "./families.js";

/** Known job statuses (Describe Job), as exposed. */
export const JOB_STATUSES: readonly string[] = [
  "pending",
  "in_progress",
  "successful",
  "failed",
  "canceling",
];

// Keys are lowercased with separators removed, so "IN_PROGRESS", "InProgress" and "in progress"
// are one state; "cancelling" is the British spelling of the documented CANCELING.
const ALIASES: ReadonlyMap<string, string> = new Map([
  ["pending", "pending"],
  ["inprogress", "in_progress"],
  ["successful", "successful"],
  ["failed", "failed"],
  ["canceling", "canceling"],
  ["cancelling", "canceling"],
  ["cancelled", "canceled"],
]);

// SUCCESSFUL and FAILED end a job. CANCELED is not documented, but a job being canceled ends
// somewhere: read as final too, so it is not polled forever.
const TERMINAL: ReadonlySet<string> = new Set(["successful", "failed", "canceled"]);

/**
 * Normalizes a Describe Job status: "IN_PROGRESS" -> "in_progress" (case and separators
 * ignored for the documented ones); any other status trimmed and lowercased, "unknown" when
 * empty, so that it is always a usable label value.
 */
export function normalizeJobStatus(raw: string): string {
  const s = raw.trim().toLowerCase();
  return ALIASES.get(s.replace(/[^a-z0-9]/g, "")) ?? (s === "" ? "unknown" : s);
}

/** True for successful, failed and canceled jobs; unknown statuses are not terminal. */
export function isTerminalJobStatus(status: string): boolean {
  return TERMINAL.has(normalizeJobStatus(status));
}

/** A job type as a label: lower case ("CLONE_COLLECTION" -> "clone_collection"), "unknown" when empty. */
export function normalizeJobType(raw: string): string {
  const s = raw.trim().toLowerCase();
  return s === "" ? "unknown" : s;
}

/** The families `mapCloudJob` writes. */
export const CLOUD_JOB_FAMILIES: readonly FamilyDef[] = [J.jobStatus, J.jobProgress, J.jobStart, J.jobEnd];

/**
 * Maps a job to: vdbcloud_job_status{job_id,type,status}, a state set of the known statuses
 * (an unknown one added lowercased); vdbcloud_job_progress_ratio (percent / 100) when the
 * answer gives a progress; the start and end timestamps in Unix seconds when given (a null is
 * no sample, never 0).
 */
export function mapCloudJob(job: CloudJob): MappingResult {
  const out = new MappingBuilder();
  const id = { job_id: job.jobId, type: normalizeJobType(job.type) };
  out.addSamples(
    J.jobStatus,
    stateSet(J.jobStatus, id, "status", JOB_STATUSES, normalizeJobStatus(job.status)),
  );
  if (job.progress !== null) out.add(J.jobProgress, id, job.progress / 100);
  if (job.startTimeMs !== null) out.add(J.jobStart, id, job.startTimeMs / 1000);
  if (job.endTimeMs !== null) out.add(J.jobEnd, id, job.endTimeMs / 1000);
  return out.result();
}
