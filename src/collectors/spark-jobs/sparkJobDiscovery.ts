/**
 * Spark job discovery: List Spark Jobs (every page) for every polled cluster, discovered ones
 * included. Every listed job is counted per status; unfinished jobs and jobs finished less than
 * `spark_jobs.retention` ago get the per-job families of a configured job, completed by
 * Describe Spark Job only where the list lacks what a family shows (listing.ts decides when).
 * Reports under the `spark_jobs` collector label, target = cluster ID.
 */

import { clusterTask } from "../../polling/clusterTask.js";
import { type CollectorEnv, type CollectorTask, defineCollector } from "../../polling/model.js";
import { listEveryPage } from "../../polling/pager.js";
import { putData } from "../../polling/runtime.js";
import { keepValidIds } from "../../polling/upstreamIds.js";
import { CloudError } from "../../upstream/errors.js";
import { type CloudApi, ENDPOINT, type SparkJob } from "../../upstream/types.js";
import { SPARK_JOBS_SECTION } from "./config.js";
import { SPARK_JOB_FAMILY as JOB_FAMILIES } from "./families.js";
import { SPARK_JOBS_LIST, sparkTargetName } from "./list.js";
import { mapSparkListing, needsDescribe, selectListedJobs, withDetail } from "./listing.js";
import { SPARK_LISTING_MEMORY } from "./listingMemory.js";
import { normalizeSparkStatus, SPARK_JOB_FAMILIES } from "./mapping.js";

const LABEL = "spark_jobs";

/** Page size asked of List Spark Jobs: the documented maximum. */
export const SPARK_PAGE_SIZE = 100;

/** Every page of a cluster's Spark jobs, each job once. */
export function listAllSparkJobs(
  client: CloudApi,
  clusterId: string,
  signal?: AbortSignal,
): Promise<SparkJob[]> {
  return listEveryPage(
    {
      endpoint: ENDPOINT.listSparkJobs,
      pageSize: SPARK_PAGE_SIZE,
      fetch: (page, s) => client.listSparkJobs({ clusterId, ...page }, s),
      items: (page) => page.jobs,
      key: (job) => job.jobId,
    },
    signal,
  );
}

/** One task per polled cluster, when `spark_jobs.discovery.enabled`. */
export function sparkJobDiscoveryTasks(env: CollectorEnv): CollectorTask[] {
  const { ctx } = env;
  const spark = env.config.sparkJobs;
  const cfg = spark.discovery;
  const memory = env.state.get(SPARK_LISTING_MEMORY);
  memory.retain(new Set(cfg.enabled ? env.clusters.map((c) => c.id) : []));
  if (!cfg.enabled) return [];
  const configured = new Set(env.lists.all(SPARK_JOBS_LIST).map(sparkTargetName));
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return env.clusters.map((cluster) =>
    clusterTask(env, cluster, {
      collector: LABEL,
      calls: [
        // One page at least; more than 100 jobs take more.
        { endpoint: ENDPOINT.listSparkJobs, count: 1, atLeast: true },
        // Only jobs new to the exporter, or whose status moved, are described.
        { endpoint: ENDPOINT.describeSparkJob, count: 1, atLeast: true },
      ],
      intervalMs: cfg.intervalMs,
      poll: async ({ client, run, signal }) => {
        // A job's project and job IDs are the path of its Describe Spark Job.
        const listed = keepValidIds(
          ctx,
          ENDPOINT.listSparkJobs,
          await listAllSparkJobs(client, cluster.id, signal),
          (job) => [job.jobId, job.projectId === "" ? null : job.projectId],
        );
        const nowMs = ctx.now();
        const terminalSince = memory.observe(cluster.id, listed, nowMs);
        const { exposed, overCap } = selectListedJobs({
          jobs: listed,
          nowMs,
          retentionMs: spark.retentionMs,
          maxJobs: cfg.maxPerCluster,
          configured,
          terminalSince,
        });
        const completed: SparkJob[] = [];
        for (const job of exposed) {
          let known = memory.described(cluster.id, job.jobId);
          if (job.projectId !== "" && needsDescribe(job, known)) {
            try {
              const detail = await client.describeSparkJob(
                { projectId: job.projectId, jobId: job.jobId },
                signal,
              );
              known = { job: detail, listedStatus: normalizeSparkStatus(job.status) };
              memory.remember(cluster.id, job.jobId, known);
            } catch (err) {
              // The listing alone still gives the job's status and times; the next cycle asks
              // again, and the target's health shows the failed call meanwhile.
              if (!(err instanceof CloudError) || err.code === "aborted") throw err;
              run.partialFailure(err);
            }
          }
          completed.push(withDetail(job, known?.job));
        }
        putData(
          ctx,
          LABEL,
          cluster.id,
          mapSparkListing({ clusterId: cluster.id, listed, exposed: completed, overCap }),
          ttlMs,
        );
      },
    }),
  );
}

/** Spark job discovery: List Spark Jobs per polled cluster; reports as the spark_jobs collector. */
export const sparkJobDiscoveryCollector = defineCollector("spark_job_discovery", sparkJobDiscoveryTasks, {
  polls: "List Spark Jobs per cluster (Spark job discovery)",
  config: SPARK_JOBS_SECTION,
  notes: (config) =>
    config.sparkJobs.discovery.enabled
      ? [
          "Spark job discovery: one List Spark Jobs call per 100 jobs of a cluster, and Describe Spark Job only for jobs new to the exporter or whose status moved (at most max_per_cluster per cluster)",
        ]
      : [],
  label: LABEL,
  families: [JOB_FAMILIES.sparkJobs, ...SPARK_JOB_FAMILIES],
});
