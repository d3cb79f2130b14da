import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./helpers/harness.js";
import { tempDir } from "./helpers/tempDir.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("Spark jobs file", () => {
  it("picks up edits without a restart and keeps the previous list when the file breaks", async () => {
    const dir = tempDir("vdbcloud-jobs-");
    const file = join(dir, "spark-jobs.yaml");
    const logs: string[] = [];
    let refs: { projectId: string; jobId: string }[] = [];
    h = await startHarness({
      logs,
      jobsFilePollMs: 50,
      config: (raw) => {
        const jobs = (raw.spark_jobs as { jobs: { project_id: string; job_id: string }[] }).jobs;
        refs = jobs.map((j) => ({ projectId: j.project_id, jobId: j.job_id }));
        const [a] = jobs;
        writeFileSync(file, `- { project_id: ${a?.project_id}, job_id: ${a?.job_id} }\n`);
        raw.spark_jobs = { interval: "PT30S", jobs_file: file };
      },
    });
    const [a, b] = refs;
    if (!a || !b) throw new Error("the simulator needs two Spark jobs");
    const keys = () => h?.exporter.scheduler.status().map((t) => t.key) ?? [];
    expect(keys()).toContain(`spark_jobs/${a.projectId}/${a.jobId}`);
    expect(keys()).not.toContain(`spark_jobs/${b.projectId}/${b.jobId}`);

    // The mapping form of the file, with a second job: picked up by the watch.
    writeFileSync(
      file,
      `jobs:\n  - { project_id: ${a.projectId}, job_id: ${a.jobId} }\n  - { project_id: ${b.projectId}, job_id: ${b.jobId} }\n`,
    );
    await until("the second job", () => keys().includes(`spark_jobs/${b.projectId}/${b.jobId}`));

    // A broken file is rejected and logged; both jobs stay watched.
    writeFileSync(file, "jobs: [ { project_id: x }\n");
    const reloads = logs.filter((l) => l.includes("spark jobs file reloaded")).length;
    await until("the rejection", () => logs.some((l) => l.includes("spark jobs file rejected")));
    expect(logs.filter((l) => l.includes("spark jobs file reloaded")).length).toBe(reloads);
    expect(keys()).toContain(`spark_jobs/${a.projectId}/${a.jobId}`);
    expect(keys()).toContain(`spark_jobs/${b.projectId}/${b.jobId}`);
  });
});

describe("job IDs file", () => {
  it("picks up edits without a restart, keeps the previous list when the file breaks, and polls a new ID", async () => {
    const dir = tempDir("vdbcloud-job-ids-");
    const file = join(dir, "jobs.yaml");
    const logs: string[] = [];
    let ids: string[] = [];
    h = await startHarness({
      logs,
      jobsFilePollMs: 50,
      config: (raw) => {
        ids = (raw.jobs as { ids: string[] }).ids;
        writeFileSync(file, `- ${ids[0]}\n`);
        raw.jobs = { interval: "PT30S", ids_file: file };
      },
    });
    const [a, b] = ids;
    if (!a || !b) throw new Error("the simulator needs two jobs");
    const keys = () => h?.exporter.scheduler.status().map((t) => t.key) ?? [];
    expect(keys()).toContain(`jobs/${a}`);
    expect(keys()).not.toContain(`jobs/${b}`);

    writeFileSync(file, `ids:\n  - ${a}\n  - ${b}\n`);
    await until("the second job", () => keys().includes(`jobs/${b}`));
    expect(logs.some((l) => l.includes("job IDs file reloaded"))).toBe(true);

    writeFileSync(file, `ids: [${a}, ${a}]\n`);
    await until("the rejection", () => logs.some((l) => l.includes("job IDs file rejected")));
    expect(keys()).toContain(`jobs/${a}`);
    expect(keys()).toContain(`jobs/${b}`);

    // Dropped from the file: no longer polled.
    writeFileSync(file, `- ${b}\n`);
    await until("the first job to go", () => !keys().includes(`jobs/${a}`));
    expect(keys()).toContain(`jobs/${b}`);
  });
});
