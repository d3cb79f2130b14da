import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { spyContext } from "../../polling/testkit.js";
import type { CloudApi, CloudJob } from "../../upstream/types.js";
import { jobTasks } from "./tasks.js";

const NOW = 1_750_000_000_000;

async function tasksFor(answers: (jobId: string) => Partial<CloudJob>, raw: Record<string, unknown> = {}) {
  const spy = spyContext(NOW);
  const asked: string[] = [];
  const client = {
    describeJob: async (jobId: string): Promise<CloudJob> => {
      asked.push(jobId);
      return {
        jobId,
        type: "BACKUP",
        status: "IN_PROGRESS",
        progress: 50,
        startTimeMs: NOW - 60_000,
        endTimeMs: null,
        reason: null,
        ...answers(jobId),
      };
    },
  } as unknown as CloudApi;
  const env = await collectorEnv({ ctx: spy.ctx, client, raw: { jobs: { retention: "PT10M", ...raw } } });
  return { tasks: jobTasks(env), asked, spy };
}

const run = (t: { run: (s: AbortSignal) => Promise<unknown> }) => t.run(new AbortController().signal);

describe("jobs by ID", () => {
  it("has one task per configured job ID, calling Describe Job once per cycle", async () => {
    const { tasks } = await tasksFor(() => ({}), { ids: ["a", "b"] });
    expect(tasks.map((t) => [t.id, t.calls, t.intervalMs])).toEqual(
      ["a", "b"].map((target) => [
        { collector: "jobs", target },
        [{ endpoint: "GET /v2/jobs/{jobId}", count: 1, atLeast: false }],
        30_000,
      ]),
    );
  });

  it.each([
    // Terminal: seen, confirmed once, then never asked again.
    ...["SUCCESSFUL", "FAILED"].map((status) => ({ status, calls: 2 })),
    // Still open: asked every cycle.
    ...["IN_PROGRESS", "PENDING", "CANCELING"].map((status) => ({ status, calls: 4 })),
  ])("$status: $calls Describe calls in 4 cycles", async ({ status, calls }) => {
    const { tasks, asked, spy } = await tasksFor(() => ({ status }), { ids: ["a"] });
    const [task] = tasks;
    if (task === undefined) throw new Error("no task");
    for (let i = 0; i < 4; i++) await run(task);
    expect(asked).toHaveLength(calls);
    expect(spy.data.get("a")?.ttlMs).toBe(calls === 2 ? 600_000 : 5 * 30_000);
  });

  it("logs a failed job's reason once, and drops its series after the retention", async () => {
    const { tasks, spy } = await tasksFor(() => ({ status: "FAILED", reason: "target cluster is full" }), {
      ids: ["a"],
    });
    const [task] = tasks;
    if (task === undefined) throw new Error("no task");
    for (let i = 0; i < 5; i++) await run(task);
    expect(spy.warnings).toEqual([
      { fields: { job_id: "a", type: "backup", reason: "target cluster is full" }, message: "job failed" },
    ]);
    expect(spy.data.has("a")).toBe(true);
    spy.setNow(NOW + 10 * 60_000);
    await run(task);
    expect(spy.data.has("a")).toBe(false);
  });

  it("logs nothing for a successful job", async () => {
    const { tasks, spy } = await tasksFor(() => ({ status: "SUCCESSFUL" }), { ids: ["a"] });
    for (let i = 0; i < 3; i++) await run(tasks[0] as (typeof tasks)[number]);
    expect(spy.warnings).toEqual([]);
  });
});
