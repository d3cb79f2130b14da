/**
 * Child processes for the end-to-end tests (exporter, Prometheus, Alertmanager): free ports,
 * polling until a condition holds, bounded log capture, and a stop that cannot hang.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** A TCP port free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `probe` every 250 ms until it returns a value or `timeoutMs` passes; throws `what` then. */
export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`, { cause: last });
}

/** Starts `command`, keeping the last 200 chunks of its output in `logs` for failure messages. */
export function spawnLogged(cwd: string, command: string, args: string[], logs: string[]): ChildProcess {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const keep = (chunk: Buffer) => {
    logs.push(chunk.toString("utf8"));
    // Bounded: only the tail matters for a failure message.
    if (logs.length > 200) logs.splice(0, logs.length - 200);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return child;
}

/**
 * Starts the built exporter (`dist/main.js` under `root`) in demo mode on 127.0.0.1:`port`, with
 * `extra` arguments (e.g. `--demo-metric-catalog permissive`); its output goes to `logs`.
 */
export function spawnDemo(
  root: string,
  port: number,
  logs: string[],
  extra: readonly string[] = [],
): ChildProcess {
  const args = [join(root, "dist", "main.js"), "--demo", ...extra, "--listen", `127.0.0.1:${port}`];
  return spawnLogged(root, process.execPath, args, logs);
}

/**
 * Starts the Prometheus binary `prometheus` with `config` (YAML text) written into `dir`, its data
 * in `dir`/data, listening on 127.0.0.1:`port`, warnings and errors to `logs`.
 */
export function spawnPrometheus(
  root: string,
  prometheus: string,
  opts: { readonly dir: string; readonly config: string; readonly port: number },
  logs: string[],
): ChildProcess {
  const configPath = join(opts.dir, "prometheus.yml");
  writeFileSync(configPath, opts.config);
  mkdirSync(join(opts.dir, "data"));
  return spawnLogged(
    root,
    prometheus,
    [
      `--config.file=${configPath}`,
      `--storage.tsdb.path=${join(opts.dir, "data")}`,
      `--web.listen-address=127.0.0.1:${opts.port}`,
      "--log.level=warn",
    ],
    logs,
  );
}

/** Waits until the exporter on 127.0.0.1:`port` is ready: its first collection cycle is published. */
export function exporterReady(port: number, timeoutMs: number): Promise<true> {
  return waitFor("the exporter's /readyz", timeoutMs, async () => {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    return res.status === 200 ? true : undefined;
  });
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. */
export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
