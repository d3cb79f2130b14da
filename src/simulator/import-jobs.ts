/**
 * Import jobs of List Import Jobs (v1 and V2) and Get Import Job Progress (V2). Each cluster
 * starts a new job every 90 simulated seconds; the listing holds the newest `perCluster` of
 * them (older ones fall off, as they would leave a retention window), plus jobs added by tests.
 * A job's state follows the clock: ImportPending -> ImportRunning -> ImportCompleted or
 * ImportFailed, unless a test sets it; while running, its progress and imported rows grow with
 * the time it has run. The v1 names are kept here; V2 answers rename them (`v2State`).
 */
import { hashString, hexFromHash, mix, unit } from "./random.js";
import type { SimCluster } from "./world.js";

/** States the generated jobs take (tests may set any other string). */
export const IMPORT_STATES = ["ImportPending", "ImportRunning", "ImportCompleted", "ImportFailed"] as const;

/** One record of the listing, as sent on the wire. */
export interface WireImportJob {
  collectionName: string;
  jobId: string;
  state: string;
}

/** Progress of one job, as Get Import Job Progress (V2) tells it. */
export interface ImportJobDetail {
  readonly jobId: string;
  readonly collectionName: string;
  /** The v1 state name (or whatever a test set). */
  readonly state: string;
  /** Percent, 0..100. */
  readonly progress: number;
  readonly totalRows: number;
  /** Empty unless the job failed. */
  readonly reason: string;
}

/** What a test may pin of a job's progress. */
export interface ImportProgressOverride {
  readonly progress?: number;
  readonly totalRows?: number;
  readonly reason?: string;
}

/**
 * The V2 name of a state: Pending, InProgress (the list) or Importing (Get Import Job
 * Progress), Completed, Failed; any other string as is.
 */
export function v2State(state: string, where: "list" | "describe"): string {
  switch (state) {
    case "ImportPending":
      return "Pending";
    case "ImportRunning":
      return where === "list" ? "InProgress" : "Importing";
    case "ImportCompleted":
      return "Completed";
    case "ImportFailed":
      return "Failed";
    default:
      return state;
  }
}

const FAILURE_REASONS = [
  "the file's schema does not match the collection: field 'vector' has dimension 768, expected 1024",
  "the file could not be read: access to the object storage was denied",
  "row 20481: the primary key is duplicated",
] as const;

const PERIOD_S = 90;
const PENDING_S = 15;
/** Every seventh job waits this long in ImportPending, so that pending jobs are seen. */
const STUCK_PENDING_S = 600;
const FAILED_SHARE = 0.2;

/** Fixed parameters of the generated import jobs. */
interface ImportJobOptions {
  readonly seed: number;
  readonly perCluster: number;
  readonly timeScale: number;
  /** The simulator's start: the newest `perCluster` jobs exist already then. */
  readonly startMs: number;
}

/** Generated and added import jobs of every cluster. */
export class ImportJobStore {
  readonly #opts: ImportJobOptions;
  readonly #periodMs: number;
  readonly #added = new Map<string, WireImportJob[]>();
  readonly #overrides = new Map<string, string>();
  readonly #progress = new Map<string, ImportProgressOverride>();

  constructor(opts: ImportJobOptions) {
    this.#opts = opts;
    this.#periodMs = (PERIOD_S * 1000) / opts.timeScale;
  }

  /** Every job listed for `cluster` at `nowMs`, newest first (added jobs before generated ones). */
  list(cluster: SimCluster, nowMs: number): WireImportJob[] {
    return this.details(cluster, nowMs).map(({ collectionName, jobId, state }) => ({
      collectionName,
      jobId,
      state,
    }));
  }

  /** Every listed job with its progress, newest first (added jobs before generated ones). */
  details(cluster: SimCluster, nowMs: number): ImportJobDetail[] {
    const out: ImportJobDetail[] = [...(this.#added.get(cluster.id) ?? [])]
      .reverse()
      .map((j) => ({ ...j, ...addedProgress(j.state) }));
    const { seed, perCluster, timeScale, startMs } = this.#opts;
    if (perCluster > 0) {
      const ch = mix(seed, hashString(cluster.id));
      const anchor = startMs - (perCluster - 1) * this.#periodMs - unit(ch) * this.#periodMs;
      if (nowMs >= anchor) {
        const newest = Math.floor((nowMs - anchor) / this.#periodMs);
        for (let j = newest; j >= 0 && j > newest - perCluster; j--) {
          const h = mix(ch, j);
          const jobId = `job-${hexFromHash(h, 22)}`;
          const ageS = ((nowMs - (anchor + j * this.#periodMs)) * timeScale) / 1000;
          const pendingS = j % 7 === 3 ? STUCK_PENDING_S : PENDING_S;
          const runS = 60 + 60 * unit(mix(h, 1));
          const rows = 10_000 + Math.floor(unit(mix(h, 4)) * 990_000);
          const failed = unit(mix(h, 2)) < FAILED_SHARE;
          let state: string;
          let progress: number;
          if (ageS < pendingS) {
            state = "ImportPending";
            progress = 0;
          } else if (ageS < pendingS + runS) {
            state = "ImportRunning";
            progress = Math.min(99, Math.floor((100 * (ageS - pendingS)) / runS));
          } else if (failed) {
            state = "ImportFailed";
            progress = Math.floor(90 * unit(mix(h, 3)));
          } else {
            state = "ImportCompleted";
            progress = 100;
          }
          const collection = cluster.collections[j % Math.max(1, cluster.collections.length)];
          out.push({
            collectionName: collection?.collectionName ?? "docs",
            jobId,
            state,
            progress,
            totalRows: Math.floor((rows * progress) / 100),
            reason: state === "ImportFailed" ? (FAILURE_REASONS[j % FAILURE_REASONS.length] ?? "") : "",
          });
        }
      }
    }
    return out.map((job) => {
      const key = `${cluster.id}/${job.jobId}`;
      const state = this.#overrides.get(key) ?? job.state;
      const pinned = this.#progress.get(key) ?? {};
      const base = state === job.state ? job : { ...job, state, ...addedProgress(state) };
      return { ...base, ...pinned };
    });
  }

  /** One listed job with its progress, or undefined. */
  detail(cluster: SimCluster, jobId: string, nowMs: number): ImportJobDetail | undefined {
    return this.details(cluster, nowMs).find((j) => j.jobId === jobId);
  }

  /** Pins a job's progress, imported rows or failure reason from now on. */
  setProgress(clusterId: string, jobId: string, pinned: ImportProgressOverride): void {
    const key = `${clusterId}/${jobId}`;
    this.#progress.set(key, { ...this.#progress.get(key), ...pinned });
  }

  /** Adds a job at the top of `clusterId`'s listing. */
  add(clusterId: string, job: WireImportJob): void {
    const list = this.#added.get(clusterId) ?? [];
    list.push({ ...job });
    this.#added.set(clusterId, list);
  }

  /** Fixes the state of a job (added or generated) from now on. */
  setState(clusterId: string, jobId: string, state: string): void {
    this.#overrides.set(`${clusterId}/${jobId}`, state);
  }
}

/**
 * The import jobs of importing clusters (the `unfinishedImports` option): the first cluster and
 * every `every`-th after it get `perCluster` jobs that stay running or pending, one per
 * collection in turn.
 */
export function unfinishedImportJobs(
  clusters: readonly SimCluster[],
  seed: number,
  every: number,
  perCluster: number,
): { readonly clusterId: string; readonly job: WireImportJob }[] {
  return clusters
    .filter((_, i) => i % every === 0)
    .flatMap((cluster) =>
      Array.from({ length: perCluster }, (_, j) => ({
        clusterId: cluster.id,
        job: {
          collectionName:
            cluster.collections[j % Math.max(1, cluster.collections.length)]?.collectionName ?? "docs",
          jobId: `job-${hexFromHash(mix(mix(seed ^ 0x1e5, hashString(cluster.id)), j), 22)}`,
          state: j % 2 === 0 ? "ImportRunning" : "ImportPending",
        },
      })),
    );
}

/** The progress of a job a test added or whose state it set: by state only, until pinned. */
function addedProgress(state: string): Pick<ImportJobDetail, "progress" | "totalRows" | "reason"> {
  if (state === "ImportCompleted") return { progress: 100, totalRows: 0, reason: "" };
  if (state === "ImportFailed") return { progress: 0, totalRows: 0, reason: "failed as a test asked" };
  return { progress: 0, totalRows: 0, reason: "" };
}
