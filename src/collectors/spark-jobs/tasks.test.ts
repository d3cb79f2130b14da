import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { spyContext } from "../../polling/testkit.js";
import { SPARK_JOB_UNSET } from "../../upstream/testkit.js";
import type { CloudApi, SparkJob } from "../../upstream/types.js";
import { sparkJobTasks } from "./tasks.js";

const NOW = 1_750_000_000_000;

function sparkJob(status: string): SparkJob {
  return {
    jobId: "j",
    projectId: "p",
    type: "BACKFILL",
    status,
    regionId: "r",
    description: null,
    createdAtMs: null,
    ...SPARK_JOB_UNSET,
  };
}

/** Runs the one configured job's task `runs` times against a job that always says `status`. */
async function pollRepeatedly(status: string, runs: number) {
  const spy = spyContext(NOW);
  let calls = 0;
  const client = {
    describeSparkJob: async () => {
      calls++;
      return sparkJob(status);
    },
  } as unknown as CloudApi;
  const env = await collectorEnv({
    ctx: spy.ctx,
    client,
    raw: { spark_jobs: { jobs: [{ project_id: "p", job_id: "j" }], retention: "PT10M" } },
  });
  const [task] = sparkJobTasks(env);
  if (task === undefined) throw new Error("no task");
  for (let i = 0; i < runs; i++) await task.run(new AbortController().signal);
  return { calls, spy };
}

describe("Spark job polling ends with a terminal status", () => {
  it.each([
    // Terminal: seen, confirmed once, then never asked again.
    ...["SUCCEEDED", "FAILED", "TIMEOUT", "CANCELED", "Cancelled"].map((status) => ({ status, calls: 2 })),
    // Still open: asked every cycle.
    ...["PENDING", "PREPARING", "RUNNING", "CANCELLING", "QUEUED"].map((status) => ({ status, calls: 5 })),
  ])("$status: $calls calls in 5 cycles", async ({ status, calls }) => {
    const got = await pollRepeatedly(status, 5);
    expect(got.calls).toBe(calls);
    // A settled job's samples live for the retention; an open one's for the staleness bound.
    expect(got.spy.data.get("p/j")?.ttlMs).toBe(calls === 2 ? 600_000 : 5 * 30_000);
  });
});
