/**
 * Starting and stopping the harness's child processes: the simulator, the exporter (the real
 * entry point, with the probe preloaded) and the baseline servers. Each runs in its own
 * process so that CPU, memory and event-loop figures belong to one program only.
 */
import { type ChildProcess, fork } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { sleep } from "./entry.js";
import { BenchError } from "./errors.js";
import { RpcClient } from "./ipc.js";
import {
  DEPLOYED_RUNTIME,
  exporterLaunch,
  type ReportedStart,
  type Runtime,
  runtimeProblem,
} from "./runtime.js";
import type { SimInfo, SimStartArgs } from "./simProcess.js";

/** A running child with an IPC command channel. */
export interface ChildHandle {
  readonly name: string;
  readonly pid: number;
  readonly rpc: RpcClient;
  /** Resolves with the exit code (or the signal name) when the child exits, for any reason. */
  readonly exited: Promise<number | string>;
  /** Whether the child has exited. */
  hasExited(): boolean;
  /** The last lines the child wrote (stdout and stderr), for diagnostics. */
  tail(): string[];
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();
// Only the children this harness started are killed, and only when it exits without stopping them.
process.on("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

const TAIL_LINES = 30;

/**
 * Forks `module` (an ES module file) with an IPC channel. `onLine` sees every output line
 * (stdout and stderr) as it arrives.
 */
export function forkChild(
  name: string,
  module: URL,
  args: readonly string[],
  opts: {
    execArgv?: readonly string[];
    onLine?: (line: string) => void;
    /** The child's whole environment; default this process's. */
    env?: Readonly<Record<string, string>>;
  } = {},
): ChildHandle {
  const child = fork(fileURLToPath(module), [...args], {
    execArgv: [...(opts.execArgv ?? [])],
    env: { ...(opts.env ?? process.env) },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    serialization: "advanced",
  });
  live.add(child);
  // Sending to a child that just exited reports an 'error' event; the exit is handled below.
  child.on("error", () => undefined);
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on("line", (line) => {
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
      opts.onLine?.(line);
    });
  }
  let exited = false;
  const exitedP = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => {
      exited = true;
      live.delete(child);
      resolve(code ?? signal ?? "unknown");
    });
  });
  return {
    name,
    pid: child.pid ?? -1,
    rpc: new RpcClient(child, name),
    exited: exitedP,
    hasExited: () => exited,
    tail: () => [...lines],
    async stop(graceMs = 5000) {
      if (exited) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exitedP;
      clearTimeout(timer);
    },
  };
}

/** Starts the simulator in its own process and returns its world. */
export async function startSimProcess(args: SimStartArgs): Promise<{ handle: ChildHandle; info: SimInfo }> {
  const handle = forkChild("simulator", new URL("./simProcess.js", import.meta.url), []);
  try {
    const info = await handle.rpc.call<SimInfo>("start", args);
    return { handle, info };
  } catch (err) {
    await handle.stop();
    throw new BenchError("child_failed", `simulator did not start: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** Stops the simulator cleanly (closing its sockets), killing it if it does not answer. */
export async function stopSimProcess(handle: ChildHandle): Promise<void> {
  if (handle.hasExited()) return;
  await handle.rpc.call("close", undefined, 5000).catch(() => undefined);
  await handle.stop();
}

/** The exporter under test: its HTTP address and its probe (the `lap` command). */
export interface ExporterProcess {
  readonly handle: ChildHandle;
  readonly url: string;
}

/** The exporter's entry point as built by tsconfig.bench.json, i.e. the current sources. */
export const EXPORTER_MAIN = new URL("../src/main.js", import.meta.url);

/**
 * Runs `node FLAGS --import probe.js main.js --config FILE --listen 127.0.0.1:0` with the
 * runtime's flags and environment (runtime.ts) and resolves once it logs the address it listens
 * on (an info line: `logLevel` must keep info) and the process says it runs with them itself.
 */
export async function startExporterProcess(
  configPath: string,
  opts: {
    onLine?: (line: string) => void;
    logLevel?: string;
    /** The runtime settings; default the deployed ones. */
    runtime?: Runtime;
    /** Node flags after the runtime's, ahead of the probe (e.g. --expose-gc). */
    execArgv?: readonly string[];
    timeoutMs?: number;
  } = {},
): Promise<ExporterProcess> {
  const runtime = opts.runtime ?? DEPLOYED_RUNTIME;
  const launch = exporterLaunch(runtime, process.env, [
    ...(opts.execArgv ?? []),
    "--import",
    new URL("./probe.js", import.meta.url).href,
  ]);
  let resolveUrl: (url: string) => void = () => {};
  const urlP = new Promise<string>((r) => {
    resolveUrl = r;
  });
  const handle = forkChild(
    "exporter",
    EXPORTER_MAIN,
    ["--config", configPath, "--listen", "127.0.0.1:0", "--log-level", opts.logLevel ?? "info"],
    {
      execArgv: launch.execArgv,
      env: launch.env,
      onLine: (line) => {
        const listen = listenAddressOf(line);
        if (listen) resolveUrl(`http://${listen}`);
        opts.onLine?.(line);
      },
    },
  );
  const timeoutMs = opts.timeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    urlP,
    handle.exited.then((code) => ({ exited: code })),
    new Promise<{ timeout: true }>((r) => {
      timer = setTimeout(() => r({ timeout: true }), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (typeof outcome === "string") {
    // Measured is the process the probe is in: it must be the exporter, with the settings asked for.
    const problem = runtimeProblem(runtime, await handle.rpc.call<ReportedStart>("runtime"));
    if (problem === undefined) return { handle, url: outcome };
    await handle.stop();
    throw new BenchError("child_failed", `exporter (runtime ${runtime.name}): ${problem}`);
  }
  await handle.stop();
  const why =
    "exited" in outcome ? `exited (${String(outcome.exited)})` : `did not listen within ${timeoutMs} ms`;
  throw new BenchError("child_failed", `exporter ${why}:\n${handle.tail().join("\n")}`);
}

/** The `HOST:PORT` of the exporter's "listening" log line, if `line` is that line. */
export function listenAddressOf(line: string): string | undefined {
  if (!line.includes("listening")) return undefined;
  try {
    const entry = JSON.parse(line) as { msg?: unknown; listen?: unknown };
    return entry.msg === "vdbcloud-exporter listening" && typeof entry.listen === "string"
      ? entry.listen
      : undefined;
  } catch {
    return undefined;
  }
}

/** Polls `url` until it answers 200 (or rejects after `timeoutMs`). */
export async function waitFor200(url: string, timeoutMs: number, everyMs = 500): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(url, { signal: AbortSignal.timeout(5000) }).then(
      async (r) => {
        await r.arrayBuffer();
        return r.status;
      },
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) {
      throw new BenchError(
        "child_timeout",
        `${url} did not answer 200 within ${timeoutMs} ms (last: ${status})`,
      );
    }
    await sleep(everyMs);
  }
}
