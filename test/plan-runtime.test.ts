/**
 * The polling schedule of `--check-config` is the runtime: for a table of configs, the tasks a started
 * exporter schedules and the tasks the schedule counts are the same, with the same calls, credentials
 * and intervals, on every shard.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { Exporter } from "../src/app/exporter.js";
import { COLLECTORS, TARGET_LISTS } from "../src/collectors/registry.js";
import { buildConfig } from "../src/config/load.js";
import { computeSchedule } from "../src/polling/schedule.js";
import { readListFiles } from "../src/polling/targetLists.js";
import { systemClock } from "../src/scheduler/scheduler.js";
import { ManualClock } from "./helpers/manualClock.js";
import { tempDir } from "./helpers/tempDir.js";

// Nothing listens here: every poll fails at once, so discovery finds nothing and the task set
// stays the scheduled one.
const DEAD = "http://127.0.0.1:9";
let exporter: Exporter | undefined;

afterEach(async () => {
  await exporter?.stop();
  exporter = undefined;
});

const clusters = Array.from({ length: 9 }, (_, i) => ({
  id: `in01-${String(i).padStart(16, "0")}`,
  ...(i % 3 === 0 ? {} : { region: "aws-us-west-2" }),
  ...(i === 1 ? { scopes: [{ db_name: "default", collection_name: "docs" }, { db_name: "faq" }] } : {}),
  ...(i === 4 ? { api_key: "team-b-key" } : {}),
  ...(i === 7 ? { api_key: "team-c-key" } : {}),
}));

const jobsDir = tempDir("plan-runtime-");
const jobsFile = join(jobsDir, "jobs.yaml");
writeFileSync(
  jobsFile,
  "- { project_id: proj-f, job_id: job-f1 }\n- { project_id: proj-f, job_id: job-f2 }\n",
);

const CASES: { name: string; raw: Record<string, unknown> }[] = [
  { name: "defaults", raw: {} },
  {
    name: "discovery on, inventory on",
    raw: { inventory: { discovery: { enabled: true, project_ids: ["p1", "p2"] } } },
  },
  {
    name: "discovery on, inventory off",
    raw: { inventory: { enabled: false, discovery: { enabled: true } } },
  },
  {
    name: "inventory off, import jobs off",
    raw: { inventory: { enabled: false }, import_jobs: { enabled: false } },
  },
  {
    name: "both metric forms, Spark jobs in config and file",
    raw: {
      metrics: {
        queries: [{ name: "REQ_SEARCH_LATENCY" }, { name: "ENTITIES_COUNT" }, { name: "CU_COMPUTATION" }],
      },
      spark_jobs: { jobs: [{ project_id: "proj-a", job_id: "job-1" }], jobs_file: jobsFile },
    },
  },
  {
    // The listed clusters' tasks run (they skip at run time once the cluster's plan is known); the schedule
    // shows their metric calls as saved.
    name: "native export, two clusters listed",
    raw: { native_export: { enabled: true, clusters: [clusters[1]?.id, clusters[4]?.id] } },
  },
  {
    name: "families denying import jobs and backup policies",
    raw: { families: { deny: ["vdbcloud_import_job.*", "vdbcloud_backup_policy_.*"] } },
  },
];
const SHARDS = [
  { index: 0, total: 1 },
  { index: 0, total: 3 },
  { index: 1, total: 3 },
  { index: 2, total: 3 },
];

type Comparable = {
  id: { collector: string; target: string };
  credential: string;
  intervalMs: number;
  calls: unknown;
};
const canon = (tasks: readonly Comparable[]) =>
  tasks
    .map((t) => `${t.id.collector}/${t.id.target} ${t.credential} ${t.intervalMs} ${JSON.stringify(t.calls)}`)
    .sort();

describe("the polling schedule equals the runtime", () => {
  it.each(
    CASES.flatMap((c) =>
      SHARDS.map((shard) => ({ ...c, shard, label: `${c.name}, shard ${shard.index}/${shard.total}` })),
    ),
  )("$label", async ({ raw, shard }) => {
    const config = await buildConfig(
      {
        api: { base_url: DEAD, controller_url: `${DEAD}/{region}`, api_key: "default-key", max_retries: 0 },
        clusters,
        ...raw,
      },
      { env: {} },
    );
    const files = await readListFiles(TARGET_LISTS, config);
    const schedule = computeSchedule(COLLECTORS, config, { shard, files });

    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    exporter = new Exporter({
      config,
      logger: pino({ level: "silent" }),
      version: "t",
      shard,
      clock,
      clientClock: systemClock,
      defaultMetrics: false,
    });
    await exporter.start();
    await exporter.scheduler.firstCycle();

    const runtime = canon(exporter.scheduledTasks());
    expect(runtime.length).toBeGreaterThan(0);
    expect(canon(schedule.tasks)).toEqual(runtime);
    // And the rows, with the calls the service's own endpoint saves, add up exactly those tasks' calls.
    const total = (xs: readonly Comparable[]) =>
      xs.reduce((n, t) => n + (t.calls as { count: number }[]).reduce((m, c) => m + c.count, 0), 0);
    const counted = [...schedule.rows, ...schedule.native.saved].reduce((n, r) => n + r.callsPerCycle, 0);
    expect(counted).toBe(total(exporter.scheduledTasks()));
  });
});
