import type { ClusterConfig } from "../../config/types.js";
import { clusterTask } from "../../polling/clusterTask.js";
import { type ApiChoice, type ApiFallback, apiFallbackSlot } from "../../polling/fallback.js";
import {
  type CallEstimate,
  type CollectorEnv,
  type CollectorTask,
  defineCollector,
} from "../../polling/model.js";
import { listEveryPage } from "../../polling/pager.js";
import { mergeMappings, type PollContext, type PollRun, putData } from "../../polling/runtime.js";
import { CloudError } from "../../upstream/errors.js";
import { DEFAULT_RATE_LIMIT_MARGIN_MS, RATE_WINDOW_MS } from "../../upstream/rateLimiter.js";
import {
  type CloudApi,
  ENDPOINT,
  type ImportJob,
  type ImportJobPage,
  type ImportJobProgress,
} from "../../upstream/types.js";
import { isUnknownEndpoint } from "../../upstream/unknownEndpoint.js";
import { IMPORT_JOBS_SECTION } from "./config.js";
import { IMPORT_JOB_FAMILY } from "./families.js";
import {
  IMPORT_JOB_FAMILIES,
  isTerminalImportState,
  mapImportJobProgress,
  mapImportJobs,
  normalizeImportState,
} from "./mapping.js";
import { importJobNotes } from "./notes.js";
import { IMPORT_PROGRESS_MEMORY, type ImportProgressMemory, pickProgressCalls } from "./progress.js";
import { IMPORT_JOB_TRACKER } from "./tracker.js";

const jobsOf = (page: ImportJobPage): readonly ImportJob[] => page.jobs;
const jobIdOf = (job: ImportJob): string => job.jobId;

/** Every page of List Import Jobs (v1) of a cluster, at its region's controller. */
export function listAllImportJobs(
  client: CloudApi,
  clusterId: string,
  region: string,
  pageSize: number,
  signal?: AbortSignal,
): Promise<ImportJob[]> {
  return listEveryPage(
    {
      endpoint: ENDPOINT.listImportJobs,
      pageSize,
      fetch: (page, s) => client.listImportJobs({ clusterId, region, ...page }, s),
      items: jobsOf,
      key: jobIdOf,
    },
    signal,
  );
}

/** Every page of List Import Jobs (V2) of a cluster, on the v2 control plane. */
function listAllImportJobsV2(
  client: CloudApi,
  clusterId: string,
  pageSize: number,
  signal?: AbortSignal,
): Promise<ImportJob[]> {
  return listEveryPage(
    {
      endpoint: ENDPOINT.listImportJobsV2,
      pageSize,
      fetch: (page, s) => client.listImportJobsV2({ clusterId, ...page }, s),
      items: jobsOf,
      key: jobIdOf,
    },
    signal,
  );
}

const COLLECTOR = "import_jobs";

/** The per-cluster choice between List Import Jobs V2 and v1 (import_jobs.api auto). */
const IMPORT_API_FALLBACK = apiFallbackSlot("import job api fallback");

/** What one listing gave: the jobs and which API served them. */
interface Listing {
  readonly jobs: readonly ImportJob[];
  readonly api: ApiChoice;
}

type Logger = PollContext["logger"];

/**
 * Lists a cluster's jobs with import_jobs.api `auto`: V2, unless V2 was refused as an unknown
 * endpoint less than an hour ago and the cluster has a region, then v1. A V2 refusal switches
 * the cluster to v1 at once (same cycle) and is logged the first time; without a region there
 * is nothing to fall back to, which is logged once and fails the poll.
 */
async function listAuto(
  client: CloudApi,
  cluster: ClusterConfig,
  pageSize: number,
  fallback: ApiFallback,
  nowMs: number,
  logger: Logger,
  signal?: AbortSignal,
): Promise<Listing> {
  const region = cluster.region;
  if (region !== undefined && fallback.choose(cluster.id, nowMs) === "v1") {
    return { jobs: await listAllImportJobs(client, cluster.id, region, pageSize, signal), api: "v1" };
  }
  try {
    const jobs = await listAllImportJobsV2(client, cluster.id, pageSize, signal);
    if (fallback.accepted(cluster.id)) {
      logger?.info(
        { collector: COLLECTOR, cluster_id: cluster.id },
        "List Import Jobs V2 accepted again: v1 no longer used",
      );
    }
    return { jobs, api: "v2" };
  } catch (err) {
    if (!isUnknownEndpoint(err)) throw err;
    if (region === undefined) {
      if (fallback.firstTime(cluster.id, "no region")) {
        logger?.warn(
          { collector: COLLECTOR, cluster_id: cluster.id, err },
          "List Import Jobs V2 refused as an unknown endpoint, and the cluster has no region for the v1 fallback: its import jobs are not polled (give it a region, or check the API base URL)",
        );
      }
      throw err;
    }
    if (fallback.refused(cluster.id, nowMs)) {
      logger?.warn(
        { collector: COLLECTOR, cluster_id: cluster.id, err },
        "List Import Jobs V2 refused as an unknown endpoint: using v1 for this cluster, V2 tried again every hour",
      );
    }
    return { jobs: await listAllImportJobs(client, cluster.id, region, pageSize, signal), api: "v1" };
  }
}

/**
 * Asks Get Import Job Progress (V2) for the jobs `pickProgressCalls` chooses (at most `max`),
 * one at a time. A job's failed call costs that job's progress only, and is reported to `run`
 * (the target's health shows it and it is logged); an aborted poll still stops, and an endpoint
 * refused as unknown ends this cycle's calls. A finished job's answer settles it; a failed job's
 * reason is logged once.
 */
async function askProgress(
  client: CloudApi,
  clusterId: string,
  jobs: readonly ImportJob[],
  max: number,
  memory: ImportProgressMemory,
  logger: Logger,
  run: PollRun,
  signal?: AbortSignal,
): Promise<Map<string, ImportJobProgress>> {
  const isSettled = memory.observe(clusterId, jobs);
  const pick = pickProgressCalls(jobs, max, isSettled);
  const answers = new Map<string, ImportJobProgress>();
  for (const job of [...pick.finished, ...pick.unfinished]) {
    let p: ImportJobProgress;
    try {
      p = await client.describeImportJob({ clusterId, jobId: job.jobId }, signal);
    } catch (err) {
      if (signal?.aborted || (err instanceof CloudError && err.code === "aborted")) throw err;
      run.partialFailure(err);
      // Refused as an unknown endpoint: the other jobs would be refused alike this cycle.
      if (isUnknownEndpoint(err)) break;
      continue;
    }
    answers.set(job.jobId, p);
    if (isTerminalImportState(job.state) || isTerminalImportState(p.state))
      memory.settle(clusterId, job.jobId);
    const failed = normalizeImportState(p.state) === "failed" || normalizeImportState(job.state) === "failed";
    if (failed && memory.firstFailure(clusterId, job.jobId)) {
      logger?.warn(
        {
          collector: COLLECTOR,
          cluster_id: clusterId,
          collection_name: p.collectionName ?? job.collectionName,
          job_id: job.jobId,
          reason: p.reason ?? "",
        },
        "import job failed",
      );
    }
  }
  return answers;
}

/**
 * Get Import Job Progress calls per cluster per cycle: `progress_max`, lowered where many
 * clusters share a credential so that all their calls together stay within that endpoint's
 * usable rate over one interval (the upstream limits each endpoint per key; `rateLimit` is this
 * replica's share of it). At least one per
 * cluster while progress_max allows any: the newest unfinished job is always asked.
 */
export function progressCallsPerCluster(
  progressMax: number,
  clustersOnCredential: number,
  intervalMs: number,
  rateLimit: number,
  marginMs: number = DEFAULT_RATE_LIMIT_MARGIN_MS,
): number {
  if (progressMax <= 0) return 0;
  const perCycle = Math.floor(
    (rateLimit * intervalMs) / ((RATE_WINDOW_MS + marginMs) * Math.max(1, clustersOnCredential)),
  );
  return Math.max(1, Math.min(progressMax, perCycle));
}

/** The clusters whose import jobs are polled: all of them, except without a region under `v1`. */
function polledClusters(env: CollectorEnv): readonly ClusterConfig[] {
  const cfg = env.config.importJobs;
  if (!cfg.enabled) return [];
  return cfg.api === "v1" ? env.clusters.filter((c) => c.region !== undefined) : env.clusters;
}

/**
 * One task per polled cluster: List Import Jobs (V2 with `auto` and `v2`, v1 with `v1` or after
 * a V2 refusal under `auto`), every page; then, on a V2 listing, Get Import Job Progress for at
 * most `progress_max` jobs.
 */
export function importJobTasks(env: CollectorEnv): CollectorTask[] {
  const { ctx, clients } = env;
  const cfg = env.config.importJobs;
  const tracker = env.state.get(IMPORT_JOB_TRACKER);
  const memory = env.state.get(IMPORT_PROGRESS_MEMORY);
  const fallback = env.state.get(IMPORT_API_FALLBACK);
  const polled = polledClusters(env);
  // Jobs of clusters no longer polled are forgotten: the state stays bounded by the config.
  const ids = new Set(polled.map((c) => c.id));
  tracker.retain(ids);
  memory.retain(ids);
  fallback.retain(ids);
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  const perCredential = new Map<string, number>();
  for (const c of polled) {
    const credential = clients.credentialOf(c);
    perCredential.set(credential, (perCredential.get(credential) ?? 0) + 1);
  }
  return polled.map((cluster) => {
    const credential = clients.credentialOf(cluster);
    const progressMax = progressCallsPerCluster(
      cfg.progressMax,
      perCredential.get(credential) ?? 1,
      cfg.intervalMs,
      // This replica's share of the key's budget, when replicas share the key.
      clients.rateOf(cluster, ENDPOINT.describeImportJob),
      env.config.api.rateLimitMarginMs,
    );
    const calls: CallEstimate[] =
      cfg.api === "v1"
        ? [{ endpoint: ENDPOINT.listImportJobs, count: 1, atLeast: true }]
        : [
            // One page at least; a listing longer than a page takes more.
            { endpoint: ENDPOINT.listImportJobsV2, count: 1, atLeast: true },
            // The most a cycle may ask.
            ...(progressMax > 0
              ? [{ endpoint: ENDPOINT.describeImportJob, count: progressMax, atLeast: false }]
              : []),
          ];
    return clusterTask(env, cluster, {
      collector: COLLECTOR,
      calls,
      intervalMs: cfg.intervalMs,
      poll: async ({ client, run, signal }) => {
        const listing: Listing =
          cfg.api === "v1"
            ? {
                jobs: await listAllImportJobs(client, cluster.id, cluster.region ?? "", cfg.pageSize, signal),
                api: "v1",
              }
            : cfg.api === "v2"
              ? { jobs: await listAllImportJobsV2(client, cluster.id, cfg.pageSize, signal), api: "v2" }
              : await listAuto(client, cluster, cfg.pageSize, fallback, ctx.now(), ctx.logger, signal);
        const { jobs } = listing;
        const progress =
          listing.api === "v2" && progressMax > 0
            ? await askProgress(client, cluster.id, jobs, progressMax, memory, ctx.logger, run, signal)
            : new Map<string, ImportJobProgress>();
        const nowMs = ctx.now();
        const states = mapImportJobs({
          clusterId: cluster.id,
          jobs,
          nowMs,
          retentionMs: cfg.retentionMs,
          maxJobs: cfg.maxJobsPerCluster,
          terminalSince: tracker.observe(cluster.id, jobs, nowMs),
        });
        const mapped = mergeMappings(states, mapImportJobProgress({ clusterId: cluster.id, jobs, progress }));
        putData(ctx, COLLECTOR, cluster.id, mapped, ttlMs);
      },
    });
  });
}

/**
 * The import job collector: List Import Jobs (V2, or v1 per import_jobs.api and fallback; every
 * page) per cluster, and Get Import Job Progress (V2) for its newest unfinished jobs.
 */
export const importJobsCollector = defineCollector(COLLECTOR, importJobTasks, {
  polls: "List Import Jobs (V2, or v1) and their progress per cluster",
  config: IMPORT_JOBS_SECTION,
  demo: { settings: () => ({ interval: "PT30S" }) },
  notes: importJobNotes,
  areas: [{ title: "Import jobs", families: IMPORT_JOB_FAMILY }],
  families: IMPORT_JOB_FAMILIES,
});
