/**
 * `--probe` as users run it (dist/main.js), against the strict simulator (only the public
 * reference's metric enum, `stat` required) that accepts one key.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import { TEST_API_KEY } from "./helpers/harness.js";
import { tempDir } from "./helpers/tempDir.js";

const MAIN = join(import.meta.dirname, "..", "dist", "main.js");
const dir = tempDir("vdbcloud-probe-");
const WRONG_KEY = "sk-wrong-key-0123456789-NOT-ACCEPTED";

interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the binary without blocking this process, which serves the simulator. */
function probe(config: string, key = TEST_API_KEY): Promise<Run> {
  const path = join(dir, `probe-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, config);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, "--config", path, "--probe"],
      { env: { PATH: process.env.PATH ?? "", VDBCLOUD_API_KEY: key }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err && typeof err.code === "number" ? err.code : err ? -1 : 0;
        resolve({ status: code, stdout, stderr });
      },
    );
  });
}

let sim: Simulator;
let requests = 0;
beforeAll(async () => {
  sim = await startSimulator({
    clusters: 2,
    metricCatalog: "current",
    apiKeys: [TEST_API_KEY],
    onRequestDone: () => {
      requests++;
    },
  });
});
afterAll(async () => {
  await sim.close();
});

function config(opts: { extraCluster?: string; metrics?: string; raw?: string } = {}): string {
  const clusters = sim.clusters.map(
    (c) => `  - { id: ${c.id}, region: ${c.regionId}, project_id: ${c.projectId} }`,
  );
  if (opts.extraCluster) clusters.unshift(`  - { id: ${opts.extraCluster} }`);
  const jobs = sim.state.sparkJobRefs
    .slice(0, 2)
    .map((j) => `    - { project_id: ${j.projectId}, job_id: ${j.jobId} }`);
  return `api:
  base_url: ${sim.baseUrl}
  controller_url: ${sim.controllerUrlTemplate}
  api_key: \${VDBCLOUD_API_KEY}
clusters:
${clusters.join("\n")}
metrics:
  granularity: PT30S
${opts.metrics ?? ""}
spark_jobs:
  jobs:
${jobs.join("\n")}
jobs:
  ids: [${sim.state.cloudJobRefs[0]?.jobId ?? ""}]
${opts.raw ?? ""}`;
}

function row(stdout: string, clusterId: string): string[] {
  const line = stdout.split("\n").find((l) => l.startsWith(`${clusterId} `));
  return line?.split(/ {2,}/) ?? [];
}

describe("--probe against a service of the current reference", () => {
  it("the smallest config: the key accepted, every cluster and controller reachable, every default query accepted: exit 0", async () => {
    const r = await probe(config());
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("API key default: accepted");
    for (const c of sim.clusters) {
      expect(row(r.stdout, c.id)).toEqual([
        c.id,
        "default",
        "ok",
        `ok (${c.regionId})`,
        "ok",
        "40 accepted, 0 refused, current form",
      ]);
    }
    expect(r.stdout).toContain("Spark jobs: 2 of 2 answered");
    expect(r.stdout).toContain("Jobs by ID (Describe Job): 1 of 1 answered");
    expect(r.stdout).not.toContain(TEST_API_KEY);
  }, 40_000);

  it("a name the current reference dropped, spelt right, is listed as refused with the service's message: still exit 0", async () => {
    const r = await probe(
      config({
        metrics:
          "  queries: [{name: CU_COMPUTATION}, {name: REQ_SEARCH_LATENCY}, {name: READ_VCU}, {name: REQ_SUCCESS_RATE}]",
      }),
    );
    expect(r.status).toBe(0);
    for (const c of sim.clusters) {
      // REQ_SEARCH_LATENCY is asked as its two current names.
      expect(row(r.stdout, c.id)[5]).toBe("4 accepted, 1 refused, current form");
      expect(r.stdout).toContain(
        `  ${c.id} REQ_SUCCESS_RATE stat=AVG: invalid metric name: REQ_SUCCESS_RATE\n`,
      );
    }
  }, 40_000);

  it("against a service of the 2024 reference: the form it accepts is printed, and nothing is refused", async () => {
    const old = await startSimulator({ clusters: 1, metricCatalog: "2024", apiKeys: [TEST_API_KEY] });
    try {
      const text = config()
        .replaceAll(sim.baseUrl, old.baseUrl)
        .replace(sim.controllerUrlTemplate, old.controllerUrlTemplate);
      const r = await probe(
        text.replace(/clusters:\n( {2}- .*\n)+/, `clusters:\n  - { id: ${old.clusters[0]?.id} }\n`),
      );
      // Nine current names are not in the 2024 reference (vCUs, two vector counts, slow queries,
      // indexed entities, write capacity, unloaded collections, flushes): 31 asked and accepted.
      expect(row(r.stdout, old.clusters[0]?.id ?? "")[5]).toBe("31 accepted, 0 refused, 2024 form");
    } finally {
      await old.close();
    }
  }, 40_000);

  it("a wrong key: one line, no stack trace, never the key, exit 1", async () => {
    const r = await probe(config(), WRONG_KEY);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("");
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stdout).toMatch(/^API key default: refused by the service: .*80001/);
    expect(r.stdout).not.toContain(WRONG_KEY);
    expect(r.stdout).not.toMatch(/\n\s+at /);
  }, 40_000);

  it("an unknown cluster: shown as not_found with the service's message, exit 1; the others still probed", async () => {
    const r = await probe(config({ extraCluster: "in01-doesnotexist" }));
    expect(r.status).toBe(1);
    expect(row(r.stdout, "in01-doesnotexist").slice(0, 3)).toEqual([
      "in01-doesnotexist",
      "default",
      "not_found",
    ]);
    expect(r.stdout).toMatch(/in01-doesnotexist Describe Cluster: .*80020/);
    for (const c of sim.clusters) expect(row(r.stdout, c.id)[2]).toBe("ok");
  }, 40_000);

  it("a bad config: exit 2 with the problem, before any call", async () => {
    const before = requests;
    const r = await probe(config({ raw: "metrics_typo: 1\n" }));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("configuration invalid");
    expect(r.stdout).toBe("");
    expect(requests).toBe(before);
  }, 40_000);
});
