/**
 * The backfill path end to end, as a user runs it: the built CLI's `backfill` writes OpenMetrics,
 * promtool turns it into TSDB blocks, and a real Prometheus serves them.
 */
import { type ChildProcess, execFile, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";
import { stringify } from "yaml";
import { freePort, spawnLogged, stop, waitFor } from "./processes.js";
import { type ToolLookup, toolPath } from "./tools.js";

const ROOT = join(import.meta.dirname, "..", "..");
const MAIN = join(ROOT, "dist", "main.js");

/** What `backfillIntoPrometheus` needs: the tools' paths, a working directory, the window. */
export interface BackfillRun {
  readonly dir: string;
  /** The exporter's config (YAML-shaped), written to `dir`/config.yaml. */
  readonly config: Record<string, unknown>;
  readonly fromMs: number;
  readonly toMs: number;
  readonly promtool: string;
  readonly prometheus: string;
  /** Prometheus's output lines, for a failing test's message. */
  readonly logs: string[];
}

/**
 * Backfills [fromMs, toMs) into blocks under `dir`/data and starts Prometheus on them; resolves
 * once it is ready, with its URL and process (the caller stops it). Throws with promtool's
 * output when the blocks cannot be made.
 */
export async function backfillIntoPrometheus(
  run: BackfillRun,
): Promise<{ url: string; process: ChildProcess }> {
  const { dir } = run;
  writeFileSync(join(dir, "config.yaml"), stringify(run.config));
  // Asynchronous: the simulator answering the backfill may live in the calling process.
  await promisify(execFile)(
    process.execPath,
    [
      MAIN,
      "backfill",
      "--config",
      "config.yaml",
      "--from",
      new Date(run.fromMs).toISOString(),
      "--to",
      new Date(run.toMs).toISOString(),
      "--output",
      "history.om",
      "--quiet",
    ],
    { cwd: dir, encoding: "utf8" },
  );
  const blocks = spawnSync(
    run.promtool,
    ["tsdb", "create-blocks-from", "openmetrics", "history.om", "data"],
    {
      cwd: dir,
      encoding: "utf8",
    },
  );
  if (blocks.status !== 0) throw new Error(`promtool tsdb create-blocks-from failed: ${blocks.stderr}`);
  writeFileSync(join(dir, "prometheus.yml"), stringify({ global: { scrape_interval: "1m" } }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnLogged(
    ROOT,
    run.prometheus,
    [
      `--config.file=${join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--storage.tsdb.retention.time=10y",
      "--log.level=warn",
    ],
    run.logs,
  );
  await waitFor("Prometheus to be ready", 30_000, async () =>
    (await fetch(`${url}/-/ready`)).status === 200 ? true : undefined,
  );
  return { url, process: child };
}

/** One series of an instant query's answer. */
export interface Vector {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

/**
 * A Prometheus on backfilled blocks for one describe block: `start` in beforeAll, `instant` in
 * the tests, `stop` in afterAll (also when `start` never ran).
 */
export class BackfilledPrometheus {
  /** Prometheus's output lines, for a failing test's message. */
  readonly logs: string[] = [];
  private url = "";
  private process: ChildProcess | undefined;

  constructor(private readonly tools: { readonly promtool: ToolLookup; readonly prometheus: ToolLookup }) {}

  /** Backfills [fromMs, toMs) of `config` under `dir` and starts Prometheus on it. */
  async start(run: Pick<BackfillRun, "dir" | "config" | "fromMs" | "toMs">): Promise<void> {
    const started = await backfillIntoPrometheus({
      ...run,
      promtool: toolPath(this.tools.promtool),
      prometheus: toolPath(this.tools.prometheus),
      logs: this.logs,
    });
    this.url = started.url;
    this.process = started.process;
  }

  /** The answer of an instant query at `atMs` (the query must succeed). */
  async instant(query: string, atMs: number): Promise<Vector[]> {
    const url = `${this.url}/api/v1/query?query=${encodeURIComponent(query)}&time=${atMs / 1000}`;
    const body = (await (await fetch(url)).json()) as { status: string; data: { result: Vector[] } };
    expect(body.status).toBe("success");
    return body.data.result;
  }

  async stop(): Promise<void> {
    await stop(this.process);
  }
}
