import type { CloudApi, ImportJob } from "../cloud/types.js";
import { type ImportJobTracker, mapImportJobs } from "../collect/importJobs.js";
import type { ClusterConfig, ImportJobsConfig } from "../config/types.js";
import type { ScheduledTask } from "../schedule/scheduler.js";
import { type PollContext, putData, runPoll } from "./context.js";

/** Hard stop for paging, so a misbehaving upstream cannot keep a poll going forever. */
export const MAX_IMPORT_PAGES = 100;

/**
 * Reads every page of List Import Jobs. The spec calls `count` "total records listed in this
 * response", which could mean the page or the whole listing: a page that is full is followed
 * by the next unless `count` says everything was seen; an empty or short page ends the listing.
 */
export async function listAllImportJobs(
  client: CloudApi,
  clusterId: string,
  region: string,
  pageSize: number,
  signal?: AbortSignal,
): Promise<ImportJob[]> {
  const jobs: ImportJob[] = [];
  for (let page = 1; page <= MAX_IMPORT_PAGES; page++) {
    const res = await client.listImportJobs({ clusterId, region, pageSize, currentPage: page }, signal);
    jobs.push(...res.jobs);
    const full = res.jobs.length >= pageSize;
    const totalKnownSeen = res.total > res.jobs.length && jobs.length >= res.total;
    if (!full || totalKnownSeen) break;
  }
  return jobs;
}

/** One task per cluster with a region (v1 calls go to the regional controller). */
export function importJobTasks(
  ctx: PollContext,
  cfg: ImportJobsConfig,
  clusters: readonly ClusterConfig[],
  clientFor: (cluster: ClusterConfig) => CloudApi,
  tracker: ImportJobTracker,
  stalenessIntervals: number,
): ScheduledTask[] {
  if (!cfg.enabled) return [];
  const ttlMs = stalenessIntervals * cfg.intervalMs;
  return clusters.flatMap((cluster): ScheduledTask[] => {
    const region = cluster.region;
    if (region === undefined) return [];
    const client = clientFor(cluster);
    return [
      {
        key: `import_jobs/${cluster.id}`,
        collector: "import_jobs",
        intervalMs: cfg.intervalMs,
        run: (signal) =>
          runPoll(ctx, "import_jobs", cluster.id, async () => {
            const jobs = await listAllImportJobs(client, cluster.id, region, cfg.pageSize, signal);
            const mapped = mapImportJobs({
              clusterId: cluster.id,
              jobs,
              nowMs: ctx.now(),
              retentionMs: cfg.retentionMs,
              maxJobs: cfg.maxJobsPerCluster,
              tracker,
            });
            putData(ctx, "import_jobs", cluster.id, mapped, ttlMs);
          }),
      },
    ];
  });
}
