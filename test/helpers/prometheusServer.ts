/**
 * A real Prometheus for one end-to-end test: started on a config the test writes, queried through
 * its HTTP API, stopped in afterAll (also when it never started).
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { freePort, spawnLogged, stop, waitFor } from "./processes.js";

/** One series of an instant query's answer. */
export interface InstantSample {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

/** An answer of Prometheus's HTTP API. */
export interface PromAnswer<T> {
  readonly status: "success" | "error";
  readonly data: T;
  readonly error?: string;
}

export class PrometheusServer {
  /** Prometheus's output, for a failing test's message. */
  readonly logs: string[] = [];
  url = "";
  private process: ChildProcess | undefined;

  /** Writes `config` as `dir`/prometheus.yml, starts `binary` on it and waits until it is ready. */
  async start(binary: string, dir: string, config: Record<string, unknown>): Promise<void> {
    const configPath = join(dir, "prometheus.yml");
    writeFileSync(configPath, stringify(config));
    mkdirSync(join(dir, "data"), { recursive: true });
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    this.process = spawnLogged(
      dir,
      binary,
      [
        `--config.file=${configPath}`,
        `--storage.tsdb.path=${join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
        "--log.level=warn",
      ],
      this.logs,
    );
    await waitFor("Prometheus to be ready", 20_000, async () =>
      (await fetch(`${this.url}/-/ready`)).status === 200 ? true : undefined,
    );
  }

  /** GET an API path with query parameters. */
  async api<T>(path: string, params: Record<string, string> = {}): Promise<PromAnswer<T>> {
    const url = new URL(path, this.url);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return (await (await fetch(url)).json()) as PromAnswer<T>;
  }

  /** An instant query at the current time. */
  instant(query: string): Promise<PromAnswer<{ resultType: string; result: InstantSample[] }>> {
    return this.api("/api/v1/query", { query });
  }

  async stop(): Promise<void> {
    await stop(this.process);
  }
}
