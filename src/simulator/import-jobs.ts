/**
 * Import jobs of List Import Jobs (v1). Each cluster starts a new job every 90 simulated
 * seconds; the listing holds the newest `perCluster` of them (older ones fall off, as they
 * would leave a retention window), plus jobs added by tests. A job's state follows the clock:
 * ImportPending -> ImportRunning -> ImportCompleted or ImportFailed, unless a test sets it.
 */
import { hashString, hexFromHash, mix, unit } from "./random.js";
import type { SimCluster } from "./world.js";

/** States the generated jobs take (tests may set any other string). */
export const IMPORT_STATES = ["ImportPending", "ImportRunning", "ImportCompleted", "ImportFailed"] as const;
/** One of IMPORT_STATES. */
export type ImportState = (typeof IMPORT_STATES)[number];

/** One record of the listing, as sent on the wire. */
export interface WireImportJob {
  collectionName: string;
  jobId: string;
  state: string;
}

const PERIOD_S = 90;
const PENDING_S = 15;
/** Every seventh job waits this long in ImportPending, so that pending jobs are seen. */
const STUCK_PENDING_S = 600;
const FAILED_SHARE = 0.2;

/** Fixed parameters of the generated import jobs. */
export interface ImportJobOptions {
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

  constructor(opts: ImportJobOptions) {
    this.#opts = opts;
    this.#periodMs = (PERIOD_S * 1000) / opts.timeScale;
  }

  /** Every job listed for `cluster` at `nowMs`, newest first (added jobs before generated ones). */
  list(cluster: SimCluster, nowMs: number): WireImportJob[] {
    const out = [...(this.#added.get(cluster.id) ?? [])].reverse();
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
          let state: string;
          if (ageS < pendingS) state = "ImportPending";
          else if (ageS < pendingS + runS) state = "ImportRunning";
          else state = unit(mix(h, 2)) < FAILED_SHARE ? "ImportFailed" : "ImportCompleted";
          const collection = cluster.collections[j % Math.max(1, cluster.collections.length)];
          out.push({ collectionName: collection?.collectionName ?? "docs", jobId, state });
        }
      }
    }
    for (const job of out) {
      const override = this.#overrides.get(`${cluster.id}/${job.jobId}`);
      if (override !== undefined) job.state = override;
    }
    return out;
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
