import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { runSettling } from "../../polling/settle.js";
import { ENDPOINT } from "../../upstream/types.js";
import { SPARK_JOBS_SECTION } from "./config.js";
import { SPARK_JOBS_DEMO } from "./demo.js";
import { SPARK_JOB_FAMILY } from "./families.js";
import { SPARK_JOBS_LIST, sparkTargetName } from "./list.js";
import { isTerminalSparkStatus, mapSparkJob, SPARK_JOB_FAMILIES } from "./mapping.js";
import { SPARK_JOB_WATCH } from "./watch.js";

const COLLECTOR = "spark_jobs";
const CALLED = ENDPOINT.describeSparkJob;

/**
 * One task per watched job. A job seen in a terminal status is polled once more to confirm
 * (an upstream could report a transient status), then no longer: its last samples stay exposed
 * for `retention`, after which they and the job's health series are removed.
 */
export function sparkJobTasks(env: CollectorEnv): CollectorTask[] {
  const { ctx } = env;
  const cfg = env.config.sparkJobs;
  const refs = env.lists.mine(SPARK_JOBS_LIST);
  const watch = env.state.get(SPARK_JOB_WATCH);
  // Spark jobs are project-wide: they use the default credential.
  const client = env.clients.forCluster({});
  const credential = env.clients.credentialOf({});
  const activeTtlMs = env.config.stalenessIntervals * cfg.intervalMs;
  watch.retain(new Set(refs.map(sparkTargetName)));
  return refs.map((ref) => {
    const target = sparkTargetName(ref);
    return collectorTask({
      id: { collector: COLLECTOR, target },
      credential,
      calls: [{ endpoint: CALLED, count: 1, atLeast: false }],
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runSettling({
          ctx,
          poll: { collector: COLLECTOR, target, credential },
          state: watch.state(target),
          retentionMs: cfg.retentionMs,
          activeTtlMs,
          read: async () => {
            const job = await client.describeSparkJob(ref, signal);
            return { mapping: mapSparkJob(job), terminal: isTerminalSparkStatus(job.status) };
          },
        }),
    });
  });
}

/** The Spark job collector: Describe Spark Job per watched job, until it settles. */
export const sparkJobsCollector = defineCollector(COLLECTOR, sparkJobTasks, {
  polls: "Describe Spark Job per configured job",
  config: SPARK_JOBS_SECTION,
  demo: SPARK_JOBS_DEMO,
  lists: [SPARK_JOBS_LIST],
  areas: [{ title: "Spark jobs", families: SPARK_JOB_FAMILY }],
  families: SPARK_JOB_FAMILIES,
});
