/**
 * Pure pieces of Spark job discovery (List Spark Jobs per cluster): which listed jobs get
 * per-job series, which of those need Describe Spark Job, how a Describe answer completes a
 * listed job, and the mapping of one cluster's listing to samples.
 */
import { MappingBuilder } from "../../metrics/builder.js";
import type { MappingResult } from "../../metrics/sample.js";
import type { SparkJob } from "../../upstream/types.js";
import { SPARK_JOB_FAMILY as J } from "./families.js";
import { isTerminalSparkStatus, mapSparkJob, normalizeSparkStatus, SPARK_JOB_STATUSES } from "./mapping.js";

/** What `selectListedJobs` decides from. */
interface ListingSelection {
  /** The cluster's listing, every page, each job once. */
  readonly jobs: readonly SparkJob[];
  readonly nowMs: number;
  /** A finished job keeps its per-job series this long after it finished. */
  readonly retentionMs: number;
  /** Cap on jobs with per-job series (`spark_jobs.discovery.max_per_cluster`). */
  readonly maxJobs: number;
  /** Jobs configured by hand ("projectId/jobId"): their own task exposes them, not this one. */
  readonly configured: ReadonlySet<string>;
  /**
   * When each terminal job of `jobs` was first seen terminal (epoch ms): the end of a job whose
   * listing gives no finishedAt.
   */
  readonly terminalSince: ReadonlyMap<string, number>;
}

/** The outcome: jobs with per-job series (in order), and how many more the cap left out. */
interface SelectedJobs {
  readonly exposed: readonly SparkJob[];
  readonly overCap: number;
}

/**
 * Picks the listed jobs that get per-job series: every unfinished job, and every finished job
 * whose finishedAt (else the time it was first seen finished) lies less than `retentionMs` ago;
 * configured jobs never (they have their own task). At most `maxJobs`: unfinished ones first in
 * listing order, then finished ones newest first; the rest are counted in `overCap`.
 */
export function selectListedJobs(input: ListingSelection): SelectedJobs {
  const active: SparkJob[] = [];
  const recent: { job: SparkJob; endMs: number }[] = [];
  for (const job of input.jobs) {
    if (input.configured.has(`${job.projectId}/${job.jobId}`)) continue;
    if (!isTerminalSparkStatus(job.status)) {
      active.push(job);
      continue;
    }
    const endMs = job.finishedAtMs ?? input.terminalSince.get(job.jobId) ?? input.nowMs;
    if (input.nowMs - endMs < input.retentionMs) recent.push({ job, endMs });
  }
  recent.sort((a, b) => b.endMs - a.endMs);
  const candidates = [...active, ...recent.map((r) => r.job)];
  const cap = Math.max(0, Math.floor(input.maxJobs));
  return { exposed: candidates.slice(0, cap), overCap: Math.max(0, candidates.length - cap) };
}

/** What is known of a listed job from an earlier Describe Spark Job. */
export interface DescribedJob {
  /** The Describe answer. */
  readonly job: SparkJob;
  /** The listing status (normalized) the answer was asked for. */
  readonly listedStatus: string;
}

/**
 * Whether a listed job needs Describe Spark Job now, for what the list lacks (submittedAt, the
 * precheck report, the failure reason):
 * - never described: yes;
 * - described in a terminal status (its final state seen): never again;
 * - the listing's status moved since it was described: yes (a finished job is asked once);
 * - still unfinished with no precheck report yet: yes (the report comes during the run);
 * - else no.
 */
export function needsDescribe(listed: SparkJob, known: DescribedJob | undefined): boolean {
  if (known === undefined) return true;
  if (isTerminalSparkStatus(known.job.status)) return false;
  if (normalizeSparkStatus(listed.status) !== known.listedStatus) return true;
  return !isTerminalSparkStatus(listed.status) && known.job.precheck === null;
}

/**
 * A listed job completed with its Describe answer: the listing's own fields (status, times,
 * duration) are the newer, the answer adds submittedAt, the precheck report and the failure
 * reason. A failure reason is kept only while the listing says failed or timeout (an answer of
 * an earlier attempt must not label a running job).
 */
export function withDetail(listed: SparkJob, detail: SparkJob | undefined): SparkJob {
  if (detail === undefined) return listed;
  const status = normalizeSparkStatus(listed.status);
  const failed = status === "failed" || status === "timeout";
  return {
    ...listed,
    projectId: listed.projectId === "" ? detail.projectId : listed.projectId,
    type: listed.type === "" ? detail.type : listed.type,
    regionId: listed.regionId === "" ? detail.regionId : listed.regionId,
    createdAtMs: listed.createdAtMs ?? detail.createdAtMs,
    submittedAtMs: detail.submittedAtMs,
    startedAtMs: listed.startedAtMs ?? detail.startedAtMs,
    finishedAtMs: listed.finishedAtMs ?? (isTerminalSparkStatus(listed.status) ? detail.finishedAtMs : null),
    durationSeconds: listed.durationSeconds ?? detail.durationSeconds,
    failureReason: failed ? detail.failureReason : null,
    precheck: detail.precheck,
  };
}

/** One cluster's listing, ready to map. */
interface ListingInput {
  readonly clusterId: string;
  /** Every listed job (counted, capped or expired ones included). */
  readonly listed: readonly SparkJob[];
  /** The jobs with per-job series, each completed with what Describe added. */
  readonly exposed: readonly SparkJob[];
  /** Jobs left out of per-job series by the cap. */
  readonly overCap: number;
}

/**
 * Maps a cluster's listing to vdbcloud_spark_jobs{cluster_id,status} (every listed job, each
 * known status present, 0 when none, plus any unknown status seen) and, for each exposed job,
 * the per-job families of a configured job (mapping.ts). Jobs over the cap are counted as
 * dropped "job_cap".
 */
export function mapSparkListing(input: ListingInput): MappingResult {
  const out = new MappingBuilder();
  const counts = new Map<string, number>(SPARK_JOB_STATUSES.map((s) => [s, 0]));
  for (const job of input.listed) {
    const status = normalizeSparkStatus(job.status);
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  for (const [status, n] of counts) out.add(J.sparkJobs, { cluster_id: input.clusterId, status }, n);
  for (const job of input.exposed) {
    const mapped = mapSparkJob(job);
    const families = new Map(mapped.families.map((f) => [f.name, f]));
    for (const s of mapped.samples) {
      const family = families.get(s.family);
      if (family !== undefined) out.add(family, s.labels, s.value);
    }
  }
  out.drop("job_cap", input.overCap);
  return out.result();
}
