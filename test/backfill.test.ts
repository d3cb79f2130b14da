/**
 * `vdbcloud-exporter backfill` as a user runs it: the built CLI against the simulator. Exit
 * codes and messages, a failing target beside working ones, refused windows split, no
 * rate-limit answer, and an interrupted run (SIGTERM, then SIGKILL) resumed into the very bytes
 * of an uninterrupted one.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import { waitFor } from "./helpers/processes.js";
import { tempDir } from "./helpers/tempDir.js";

const ROOT = join(import.meta.dirname, "..");
const MAIN = join(ROOT, "dist", "main.js");
const HOUR = 3_600_000;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const children = new Set<ChildProcess>();

function start(args: string[], cwd: string): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, [MAIN, "backfill", ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (b: Buffer) => {
    stdout += b.toString("utf8");
  });
  child.stderr?.on("data", (b: Buffer) => {
    stderr += b.toString("utf8");
  });
  const done = new Promise<Run>((resolve) =>
    child.once("close", (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

function run(args: string[], cwd: string): Promise<Run> {
  return start(args, cwd).done;
}

describe("vdbcloud-exporter backfill (built CLI against the simulator)", () => {
  let sim: Simulator;
  let dir: string;
  let config: string;
  // A fixed past window, so every run asks the very same buckets.
  const to = new Date(Math.floor(Date.now() / HOUR) * HOUR - HOUR).toISOString();
  const from = new Date(Date.parse(to) - 48 * HOUR).toISOString();

  beforeAll(async () => {
    // 4,000 points per answer: the default calls (10,000 points) are refused and split.
    sim = await startSimulator({ clusters: 2, maxMetricPoints: 4000 });
    dir = tempDir("backfill-test-");
    const clusters = sim.clusters.filter((c) => c.status === "RUNNING");
    config = join(dir, "config.yaml");
    writeFileSync(
      config,
      stringify({
        // Paced by the client at 19.2 calls a second: a run lasts long enough to be interrupted.
        api: {
          base_url: sim.baseUrl,
          controller_url: sim.controllerUrlTemplate,
          api_key: "k",
          rate_limit: 10,
        },
        clusters: clusters.map((c) => ({ id: c.id })),
        metrics: { granularity: "PT30S" },
      }),
    );
    writeFileSync(
      join(dir, "broken.yaml"),
      stringify({
        api: { base_url: sim.baseUrl, controller_url: sim.controllerUrlTemplate, api_key: "k" },
        clusters: [{ id: "in01-doesnotexist0000" }, ...clusters.map((c) => ({ id: c.id }))],
        metrics: { granularity: "PT30S" },
      }),
    );
  });

  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [["--config", "config.yaml", "--output", "x.om"], "--from: required"],
    [["--config", "config.yaml", "--from", "P1D"], "--output: required"],
    [
      ["--config", "config.yaml", "--from", "P1D", "--granularity", "PT10S", "--output", "x.om"],
      "--granularity",
    ],
    [["--config", "config.yaml", "--from", "2030-01-01T00:00:00Z", "--output", "x.om"], "--from"],
    [["--config", "config.yaml", "--from", "P1D", "--to", "2999-01-01", "--output", "x.om"], "--to"],
    [["--config", "config.yaml", "--from", "2024-02-01", "--to", "2024-01-01", "--output", "x.om"], "--from"],
  ])("exits 2 for %j, naming %s, without usage or stack", async (args, flag) => {
    const r = await run(args, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: ${flag.replace(/[-]/g, "\\-")}`));
    expect(r.stderr).not.toMatch(/Usage|\n\s+at /);
    expect(existsSync(join(dir, "x.om"))).toBe(false);
  });

  it("writes the working targets, lists the failing one, and exits 1", async () => {
    const r = await run(
      [
        "--config",
        "broken.yaml",
        "--from",
        from,
        "--to",
        new Date(Date.parse(from) + 6 * HOUR).toISOString(),
        "--output",
        "partial.om",
        "--quiet",
      ],
      dir,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("1 target(s) failed");
    expect(r.stderr).toMatch(/in01-doesnotexist0000: .*80020/);
    const text = readFileSync(join(dir, "partial.om"), "utf8");
    for (const c of sim.clusters.filter((x) => x.status === "RUNNING")) {
      expect(text).toContain(`vdbcloud_cu_computation_ratio{cluster_id="${c.id}"}`);
    }
    expect(text.endsWith("# EOF\n")).toBe(true);
  }, 60_000);

  it("resumes after SIGTERM and after SIGKILL into the same bytes as one uninterrupted run", async () => {
    const before = sim.stats.rateLimited;
    const args = (out: string) => ["--config", "config.yaml", "--from", from, "--to", to, "--output", out];
    const one = await run(args("one.om"), dir);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr).toMatch(/refused as too large and split/);
    expect(one.stderr).toContain("0 rate-limit answers");
    // Measured on the uninterrupted run only: a killed process's last calls share the budget
    // with the next one's first, which no client-side limiter can see.
    expect(sim.stats.rateLimited - before).toBe(0);
    expect(existsSync(join(dir, "one.om.backfill"))).toBe(false);

    const work = join(dir, "resumed.om.backfill");
    const doneChunks = () =>
      existsSync(work)
        ? readdirSync(work).filter((f) => f.endsWith(".json") && f !== "state.json").length
        : 0;
    for (const [signal, after] of [
      ["SIGTERM", 3],
      ["SIGKILL", 8],
    ] as const) {
      const { child, done } = start(args("resumed.om"), dir);
      await waitFor(`${after} finished chunks`, 30_000, async () =>
        doneChunks() >= after ? true : undefined,
      );
      child.kill(signal);
      const r = await done;
      if (signal === "SIGTERM") {
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/interrupted; \d+ of \d+ chunks are done/);
      }
      expect(existsSync(join(dir, "resumed.om"))).toBe(false);
    }
    const last = await run(args("resumed.om"), dir);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stderr).toMatch(/resuming, (\d+) of \1?\d+ chunks already done/);
    // Digests: a deep comparison of two 25 MB buffers would take minutes to report.
    const digest = (f: string) =>
      createHash("sha256")
        .update(readFileSync(join(dir, f)))
        .digest("hex");
    expect(statSync(join(dir, "resumed.om")).size).toBe(statSync(join(dir, "one.om")).size);
    expect(digest("resumed.om")).toBe(digest("one.om"));
    expect(existsSync(work)).toBe(false);
  }, 180_000);
});

describe("vdbcloud-exporter backfill with collections and a strict service", () => {
  let sim: Simulator;
  let dir: string;

  beforeAll(async () => {
    sim = await startSimulator({ clusters: 2, collectionsPerCluster: 3, metricCatalog: "strict" });
    dir = tempDir("backfill-collections-");
  });

  afterAll(async () => {
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("backfills each discovered collection as a scope and leaves out a refused query, listing it", async () => {
    const clusters = sim.clusters.filter((c) => c.status === "RUNNING");
    const dataPlane = (id: string): Record<string, unknown> => {
      const credential = sim.state.dataPlaneCredential(id);
      if (credential === undefined) return {};
      const file = join(dir, `${id}.token`);
      writeFileSync(file, `${credential}\n`);
      return { data_plane: { token_file: file } };
    };
    writeFileSync(
      join(dir, "collections.yaml"),
      stringify({
        api: {
          base_url: sim.baseUrl,
          controller_url: sim.controllerUrlTemplate,
          api_key: "k",
          // The simulator's data planes are plaintext on loopback: allowed by hand, as a user would.
          data_plane_hosts: ["http://127.0.0.1"],
        },
        clusters: clusters.map((c) => ({ id: c.id, ...dataPlane(c.id) })),
        // READ_VCU is outside the public reference: the strict service refuses it.
        metrics: {
          granularity: "PT30S",
          queries: [{ name: "CU_CAPACITY" }, { name: "ENTITIES_COUNT" }, { name: "READ_VCU" }],
        },
        collections: { enabled: true },
      }),
    );
    const to = new Date(Math.floor(Date.now() / HOUR) * HOUR - HOUR).toISOString();
    const from = new Date(Date.parse(to) - HOUR).toISOString();
    const r = await run(
      ["--config", "collections.yaml", "--from", from, "--to", to, "--output", "c.om", "--quiet"],
      dir,
    );
    expect(r.stderr).not.toContain("failed");
    expect(r.code).toBe(0);
    const text = readFileSync(join(dir, "c.om"), "utf8");
    for (const c of clusters) {
      expect(text).toContain(`vdbcloud_cu_capacity_ratio{cluster_id="${c.id}"}`);
      for (const col of sim.state.dataCollections(c.id)) {
        expect(text).toContain(
          `vdbcloud_entities{cluster_id="${c.id}",db_name="${col.dbName}",collection_name="${col.collectionName}"}`,
        );
      }
    }
    expect(text).not.toContain("vdbcloud_vcu");
    expect(r.stderr).toMatch(/the service refused metric query READ_VCU/);
  }, 60_000);
});
