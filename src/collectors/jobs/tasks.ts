/**
 * Jobs by ID: Describe Job (v2) for each ID of `jobs.ids` and `jobs.ids_file` (migrations,
 * backups, restores, collection clones, imports), until the job settles in a terminal status;
 * then it stays exposed for `jobs.retention`. A failed job's reason is logged once.
 *
 * Jobs are organisation data without a cluster: like configured Spark jobs, each replica polls
 * the IDs of its shard (the exporter filters them by the job ID's hash), so the work spreads
 * over replicas and every ID is polled by exactly one.
 */
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { jobWatchSlot, runSettling } from "../../polling/settle.js";
import { type CloudJob, ENDPOINT } from "../../upstream/types.js";
import { JOBS_SECTION } from "./config.js";
import { demoJobs } from "./demo.js";
import { CLOUD_JOB_FAMILY } from "./families.js";
import { JOB_IDS_LIST } from "./list.js";
import {
  CLOUD_JOB_FAMILIES,
  isTerminalJobStatus,
  mapCloudJob,
  normalizeJobStatus,
  normalizeJobType,
} from "./mapping.js";

const COLLECTOR = "jobs";

/** Which jobs have settled, kept across polls and reloads. */
const JOB_WATCH = jobWatchSlot("job watch");

/** One task per job ID of this replica (target = the job ID). */
export function jobTasks(env: CollectorEnv): CollectorTask[] {
  const { ctx } = env;
  const cfg = env.config.jobs;
  const watch = env.state.get(JOB_WATCH);
  const jobIds = env.lists.mine(JOB_IDS_LIST);
  watch.retain(new Set(jobIds));
  // Jobs are organisation-wide: they use the default credential.
  const client = env.clients.forCluster({});
  const credential = env.clients.credentialOf({});
  const activeTtlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return jobIds.map((jobId) => {
    let last: CloudJob | undefined;
    return collectorTask({
      id: { collector: COLLECTOR, target: jobId },
      credential,
      calls: [{ endpoint: ENDPOINT.describeJob, count: 1, atLeast: false }],
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runSettling({
          ctx,
          poll: { collector: COLLECTOR, target: jobId, credential },
          state: watch.state(jobId),
          retentionMs: cfg.retentionMs,
          activeTtlMs,
          read: async () => {
            const job = await client.describeJob(jobId, signal);
            last = job;
            return { mapping: mapCloudJob(job), terminal: isTerminalJobStatus(job.status) };
          },
          onSettled: () => {
            if (last === undefined || normalizeJobStatus(last.status) !== "failed") return;
            ctx.logger?.warn(
              { job_id: jobId, type: normalizeJobType(last.type), reason: last.reason ?? "" },
              "job failed",
            );
          },
        }),
    });
  });
}

/** The jobs-by-ID collector: Describe Job per configured job ID, until it settles. */
export const jobsCollector = defineCollector(COLLECTOR, jobTasks, {
  polls: "Describe Job per configured job ID",
  config: JOBS_SECTION,
  demo: { settings: demoJobs },
  lists: [JOB_IDS_LIST],
  areas: [{ title: "Jobs", families: CLOUD_JOB_FAMILY }],
  families: CLOUD_JOB_FAMILIES,
});
