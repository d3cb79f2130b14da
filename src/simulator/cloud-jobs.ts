/**
 * Control-plane jobs for Describe Job (GET /v2/jobs/{jobId}): migrations, backups, restores,
 * collection clones and imports. Each follows the clock from its creation: PENDING, then
 * IN_PROGRESS with a progress that grows, then SUCCESSFUL (progress "100") or FAILED with a
 * reason; a test may pin a status. Computed on demand, so an injected clock drives everything.
 */
import { hexFromHash, mix } from "./random.js";

/** The documented job types. */
const CLOUD_JOB_TYPES = ["IMPORT", "MIGRATION", "BACKUP", "RESTORE", "CLONE_COLLECTION"] as const;
export type CloudJobType = (typeof CLOUD_JOB_TYPES)[number];

/** The documented job statuses. */
export const CLOUD_JOB_STATUSES = ["PENDING", "IN_PROGRESS", "SUCCESSFUL", "FAILED", "CANCELING"] as const;
export type CloudJobStatus = (typeof CLOUD_JOB_STATUSES)[number];

/** What defines a job; its status and progress derive from it and the clock. */
export interface CloudJobSpec {
  readonly jobId: string;
  readonly type: CloudJobType;
  readonly createdAtMs: number;
  /** Simulated seconds spent PENDING. */
  readonly pendingS: number;
  /** Simulated seconds spent IN_PROGRESS. */
  readonly runS: number;
  /** A failure ends the run at `failAtPercent` with this reason; absent: it succeeds. */
  readonly failure?: { readonly reason: string; readonly atPercent: number };
  /** Set by a test: the status stays as given from `atMs` on. */
  pinned?: { readonly status: CloudJobStatus; readonly atMs: number; readonly progress: number };
}

/** The Describe Job payload (`data`), every documented field. */
export interface WireCloudJob {
  jobId: string;
  type: CloudJobType;
  status: CloudJobStatus;
  progress: string;
  startTime: string;
  endTime: string;
  reason: string;
}

function iso(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * The Describe Job payload of `spec` at `nowMs`. `startTime` is empty while pending, `endTime`
 * until the job ends, `reason` unless it failed; `progress` is a whole percent as a string.
 */
export function cloudJobView(spec: CloudJobSpec, nowMs: number, timeScale: number): WireCloudJob {
  const at = (s: number) => spec.createdAtMs + (s * 1000) / timeScale;
  const start = at(spec.pendingS);
  const runEndS = spec.pendingS + (spec.runS * (spec.failure?.atPercent ?? 100)) / 100;
  const end = at(runEndS);
  const base = { jobId: spec.jobId, type: spec.type, reason: "" };
  if (spec.pinned !== undefined) {
    const { status, atMs, progress } = spec.pinned;
    const ended = status === "SUCCESSFUL" || status === "FAILED";
    return {
      ...base,
      status,
      progress: String(progress),
      startTime: status === "PENDING" ? "" : iso(Math.min(start, atMs)),
      endTime: ended ? iso(atMs) : "",
      reason: status === "FAILED" ? (spec.failure?.reason ?? "the job was stopped") : "",
    };
  }
  if (nowMs < start) return { ...base, status: "PENDING", progress: "0", startTime: "", endTime: "" };
  if (nowMs < end) {
    const percent = Math.min(
      99,
      Math.floor(((nowMs - start) / (at(spec.pendingS + spec.runS) - start)) * 100),
    );
    return { ...base, status: "IN_PROGRESS", progress: String(percent), startTime: iso(start), endTime: "" };
  }
  if (spec.failure !== undefined) {
    return {
      ...base,
      status: "FAILED",
      progress: String(spec.failure.atPercent),
      startTime: iso(start),
      endTime: iso(end),
      reason: spec.failure.reason,
    };
  }
  return { ...base, status: "SUCCESSFUL", progress: "100", startTime: iso(start), endTime: iso(end) };
}

/** Jobs by ID. */
export class CloudJobStore {
  readonly #jobs = new Map<string, CloudJobSpec>();

  /** Adds a job; false when one with that ID exists. */
  add(spec: CloudJobSpec): boolean {
    if (this.#jobs.has(spec.jobId)) return false;
    this.#jobs.set(spec.jobId, spec);
    return true;
  }

  get(jobId: string): CloudJobSpec | undefined {
    return this.#jobs.get(jobId);
  }

  /** Every job, in insertion order. */
  list(): CloudJobSpec[] {
    return [...this.#jobs.values()];
  }
}

/**
 * The initial jobs: a migration started at `nowMs` (ten simulated minutes, succeeds), a backup
 * that ended before `nowMs` (so an end time is there from the first answer) and a restore
 * started at `nowMs` that fails at 60 % with a reason. IDs come from the seed.
 */
export function generateCloudJobs(seed: number, nowMs: number): CloudJobSpec[] {
  const id = (n: number) => `job-${hexFromHash(mix(seed ^ 0xc10d, n), 22)}`;
  return [
    { jobId: id(1), type: "MIGRATION", createdAtMs: nowMs, pendingS: 20, runS: 600 },
    // Ten real minutes ago: over at any time scale (its 310 simulated seconds take at most that).
    { jobId: id(2), type: "BACKUP", createdAtMs: nowMs - 600_000, pendingS: 10, runS: 300 },
    {
      jobId: id(3),
      type: "RESTORE",
      createdAtMs: nowMs,
      pendingS: 10,
      runS: 400,
      failure: { reason: "The target cluster does not have enough capacity for the backup.", atPercent: 60 },
    },
  ];
}
