import { type Collector, type CollectorEnv, type CollectorTask, collectorTask } from "../../polling/model.js";
import { putData, runPoll } from "../../polling/runtime.js";
import { type CloudApi, ENDPOINT, type ImportJob, type ImportJobPage } from "../../upstream/types.js";
import { mapImportJobs } from "./mapping.js";
import { IMPORT_JOB_TRACKER } from "./tracker.js";

/**
 * Hard stop for paging, so an upstream that keeps inventing job IDs cannot keep a poll going
 * forever; far above any real listing (1,000 pages of at least 5 jobs).
 */
export const MAX_IMPORT_PAGES = 1000;

/**
 * The page size to ask for after `page`: the size the server says it used (it may cap the one
 * asked for), so that page N+1 starts right after page N. A reported size that is not an
 * integer from 1 to the one asked for is ignored.
 */
function nextPageSize(asked: number, page: ImportJobPage): number {
  const reported = page.pageSize;
  return Number.isSafeInteger(reported) && reported >= 1 && reported <= asked ? reported : asked;
}

/**
 * Reads every page of List Import Jobs, following the server: the next page is asked with the
 * page size the server reported, jobs are de-duplicated by ID, and the listing ends when
 * - a page brings no job ID not seen before (an empty page, or a server that ignores
 *   `currentPage` and repeats itself), or
 * - every job counted in `count` is listed, while `count` is credible as a total (at least the
 *   number of distinct jobs seen so far), or
 * - `count` is not credible (it was only the page's length, or it lies low) and the page is
 *   shorter than the page size the server reported.
 * With an honest `count` this makes exactly as many calls as there are pages; a `count` that
 * lies high costs one more call, which comes back empty.
 */
export async function listAllImportJobs(
  client: CloudApi,
  clusterId: string,
  region: string,
  pageSize: number,
  signal?: AbortSignal,
): Promise<ImportJob[]> {
  const seen = new Map<string, ImportJob>();
  let size = pageSize;
  for (let currentPage = 1; currentPage <= MAX_IMPORT_PAGES; currentPage++) {
    const res = await client.listImportJobs({ clusterId, region, pageSize: size, currentPage }, signal);
    const before = seen.size;
    for (const job of res.jobs) if (!seen.has(job.jobId)) seen.set(job.jobId, job);
    if (seen.size === before) break;
    size = nextPageSize(size, res);
    const countIsTotal = res.total >= seen.size;
    if (countIsTotal ? seen.size >= res.total : res.jobs.length < size) break;
  }
  return [...seen.values()];
}

const COLLECTOR = "import_jobs";
const CALLED = ENDPOINT.listImportJobs;

/** One task per cluster with a region (v1 calls go to the regional controller). */
export function importJobTasks(env: CollectorEnv): CollectorTask[] {
  const { ctx, clients } = env;
  const cfg = env.config.importJobs;
  const tracker = env.state.get(IMPORT_JOB_TRACKER);
  const polled = cfg.enabled ? env.clusters.filter((c) => c.region !== undefined) : [];
  // Jobs of clusters no longer polled are forgotten: the tracker stays bounded by the config.
  tracker.retain(new Set(polled.map((c) => c.id)));
  if (!cfg.enabled) return [];
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return env.clusters.flatMap((cluster): CollectorTask[] => {
    const region = cluster.region;
    if (region === undefined) return [];
    const client = clients.forCluster(cluster);
    return [
      collectorTask({
        id: { collector: COLLECTOR, target: cluster.id },
        credential: clients.credentialOf(cluster),
        // One page at least; a listing longer than a page takes more.
        calls: [{ endpoint: CALLED, count: 1, atLeast: true }],
        intervalMs: cfg.intervalMs,
        run: (signal) =>
          runPoll(ctx, COLLECTOR, cluster.id, async () => {
            const jobs = await listAllImportJobs(client, cluster.id, region, cfg.pageSize, signal);
            const nowMs = ctx.now();
            const mapped = mapImportJobs({
              clusterId: cluster.id,
              jobs,
              nowMs,
              retentionMs: cfg.retentionMs,
              maxJobs: cfg.maxJobsPerCluster,
              terminalSince: tracker.observe(cluster.id, jobs, nowMs),
            });
            putData(ctx, COLLECTOR, cluster.id, mapped, ttlMs);
          }),
      }),
    ];
  });
}

/** The import job collector: List Import Jobs (v1, every page) per cluster with a region. */
export const importJobsCollector = {
  name: COLLECTOR,
  label: COLLECTOR,
  tasks: importJobTasks,
} as const satisfies Collector;
