import { type Collector, type CollectorEnv, type CollectorTask, collectorTask } from "../../polling/model.js";
import { putData, runPoll } from "../../polling/runtime.js";
import { sparkTargetName } from "../../polling/targets.js";
import { ENDPOINT } from "../../upstream/types.js";
import { isTerminalSparkStatus, mapSparkJob, normalizeSparkStatus } from "./mapping.js";
import { SPARK_JOB_WATCH, TERMINAL_CONFIRMATIONS } from "./watch.js";

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
  const refs = env.sparkJobs;
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
      run: async (signal) => {
        const st = watch.state(target);
        if (st.settledAtMs !== null) {
          if (!st.expired && ctx.now() - st.settledAtMs >= cfg.retentionMs) {
            st.expired = true;
            ctx.store.delete({ collector: COLLECTOR, target, slot: "data" });
            ctx.health.remove(COLLECTOR, target);
          }
          return "ok";
        }
        return runPoll(ctx, COLLECTOR, target, async () => {
          const job = await client.describeSparkJob(ref, signal);
          const terminal = isTerminalSparkStatus(normalizeSparkStatus(job.status));
          st.terminalPolls = terminal ? st.terminalPolls + 1 : 0;
          const settled = st.terminalPolls >= TERMINAL_CONFIRMATIONS;
          if (settled) st.settledAtMs = ctx.now();
          putData(ctx, COLLECTOR, target, mapSparkJob(job), settled ? cfg.retentionMs : activeTtlMs);
        });
      },
    });
  });
}

/** The Spark job collector: Describe Spark Job per watched job, until it settles. */
export const sparkJobsCollector = {
  name: COLLECTOR,
  label: COLLECTOR,
  tasks: sparkJobTasks,
} as const satisfies Collector;
