/**
 * The launcher main.ts runs before anything else: a long-running exporter started without its
 * runtime settings (resolve.ts) starts node once more with them. The malloc variables must be in
 * the environment when a process starts, and Node refuses --heap-growing-percent in NODE_OPTIONS,
 * so nothing short of a new process gives them.
 *
 * Where Node can replace the process (process.execve, Node 22.15 and 23.11 on), it does: same
 * pid, nothing in between. Otherwise the exporter runs as a child of this process, which stays
 * small (none of the exporter's modules is loaded in it), forwards SIGTERM, SIGINT, SIGHUP and
 * SIGQUIT, and ends as the child ended: with its exit code, or by the same signal. A SIGHUP
 * waits until the child catches it (the child says so on its file descriptor 3), so that a
 * reload asked for during start-up cannot end it. The child stops itself when that pipe closes
 * without a word (a launcher killed by SIGKILL). The child carries RELAUNCH_MARKER and never
 * starts another.
 */
import { spawn } from "node:child_process";
import { Socket } from "node:net";
import { constants } from "node:os";
import { isLongRunning, type ProcessStart, RuntimeSettingError, resolveRuntime } from "./resolve.js";
import { RELAUNCH_MARKER } from "./settings.js";

/** The signals a launcher passes on to the exporter it started. */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"];

/** The marker's value on a child: tell the launcher on fd 3 once SIGHUP is caught. */
const NOTIFY_FD = "fd:3";
/** The marker's value after process.execve: nobody waits. */
const REPLACED = "execve";

/** What main.ts does next. */
type LaunchOutcome =
  /** Run the command in this process; `start` is how this process was started. */
  | { readonly kind: "run"; readonly start: ProcessStartSnapshot }
  /** Another process runs the exporter; this one ends when it ends. */
  | { readonly kind: "relaunched" }
  /** End now with this code (a control variable the launcher cannot use: the message is printed). */
  | { readonly kind: "exit"; readonly code: number };

/** How this process was started, before the launcher removed its marker from process.env. */
export type ProcessStartSnapshot = ProcessStart;

type Execve = (file: string, args: readonly string[], env: Record<string, string>) => never;

/** What the launcher touches, injected by tests. */
export interface LaunchDeps {
  readonly process: Pick<
    NodeJS.Process,
    | "argv"
    | "execArgv"
    | "env"
    | "execPath"
    | "pid"
    | "stderr"
    | "on"
    | "removeAllListeners"
    | "kill"
    | "exit"
  > & { readonly execve?: Execve };
  readonly spawn: typeof spawn;
}

const defaultDeps = (): LaunchDeps => ({ process, spawn });

/**
 * Decides, for `argv` (without node and script), whether this process runs the command or
 * starts node once more with the runtime settings (and then relays signals and the exit).
 * Call it once SIGHUP is caught (app/sighup.ts), since it tells a waiting launcher so.
 */
export function launch(argv: readonly string[], deps: LaunchDeps = defaultDeps()): LaunchOutcome {
  const proc = deps.process;
  const start: ProcessStartSnapshot = { execArgv: [...proc.execArgv], env: { ...proc.env } };
  const marker = proc.env[RELAUNCH_MARKER];
  if (marker !== undefined) {
    // Nothing this process starts is a relaunch.
    delete proc.env[RELAUNCH_MARKER];
    if (marker === NOTIFY_FD) watchLauncher();
    return { kind: "run", start };
  }
  if (!isLongRunning(argv)) return { kind: "run", start };
  let relaunch: NonNullable<ReturnType<typeof resolveRuntime>["relaunch"]> | null;
  try {
    relaunch = resolveRuntime(start).relaunch;
  } catch (err) {
    if (!(err instanceof RuntimeSettingError)) throw err;
    proc.stderr.write(`error: ${err.message}\n`);
    return { kind: "exit", code: 2 };
  }
  if (relaunch === null) return { kind: "run", start };
  const args = [...relaunch.execArgv, ...proc.argv.slice(1)];
  if (typeof proc.execve === "function") {
    try {
      proc.execve(proc.execPath, [proc.execPath, ...args], { ...relaunch.env, [RELAUNCH_MARKER]: REPLACED });
    } catch {
      // Not on this platform (or refused): a child does the same, with this process relaying.
    }
  }
  runAsChild(deps, args, { ...relaunch.env, [RELAUNCH_MARKER]: NOTIFY_FD });
  return { kind: "relaunched" };
}

/**
 * Tells the launcher, through the pipe it gave as fd 3, that SIGHUP is caught now, and keeps the
 * pipe open: the launcher never writes to it, so its end is the launcher's end. A launcher killed
 * by SIGKILL passes nothing on, so this process then stops itself (SIGTERM: the usual shutdown)
 * instead of running on without anyone waiting on it.
 */
function watchLauncher(): void {
  let pipe: Socket;
  try {
    pipe = new Socket({ fd: 3, readable: true, writable: true });
  } catch {
    // No launcher listening (the variable came from elsewhere): nothing to tell.
    return;
  }
  pipe.on("error", () => undefined);
  pipe.write("ready\n");
  pipe.once("close", () => process.kill(process.pid, "SIGTERM"));
  pipe.resume();
  // The pipe never keeps this process alive.
  pipe.unref();
}

function runAsChild(deps: LaunchDeps, args: readonly string[], env: Record<string, string>): void {
  const proc = deps.process;
  const child = deps.spawn(proc.execPath, [...args], {
    env,
    stdio: ["inherit", "inherit", "inherit", "pipe"],
  });
  let catchesSighup = false;
  let pendingSighup = false;
  const ready = () => {
    if (catchesSighup) return;
    catchesSighup = true;
    if (pendingSighup) child.kill("SIGHUP");
  };
  const notice = child.stdio[3];
  notice?.on("data", ready);
  notice?.on("error", () => undefined);
  for (const signal of FORWARDED_SIGNALS) {
    proc.on(signal, () => {
      if (signal === "SIGHUP" && !catchesSighup) pendingSighup = true;
      else child.kill(signal);
    });
  }
  child.on("error", (err) => {
    proc.stderr.write(`error: cannot start ${proc.execPath}: ${err.message}\n`);
    proc.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (code !== null || signal === null) {
      proc.exit(code ?? 1);
      return;
    }
    // Ended by a signal: so does this process, for whoever waits on it.
    for (const s of FORWARDED_SIGNALS) proc.removeAllListeners(s);
    proc.kill(proc.pid, signal);
    setTimeout(() => proc.exit(128 + (constants.signals[signal] ?? 0)), 1000);
  });
}
