/**
 * The launcher's decisions and relaying with a fake process and a fake spawn; test/runtime.
 * starts.test.ts runs the real one.
 */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { FORWARDED_SIGNALS, type LaunchDeps, launch } from "./launch.js";
import { RELAUNCH_MARKER, RUNTIME_SETTINGS } from "./settings.js";

class FakeChild extends EventEmitter {
  readonly killed: string[] = [];
  readonly stdio = [null, null, null, new PassThrough()];
  kill(signal: string): boolean {
    this.killed.push(signal);
    return true;
  }
}

function fakes(env: Record<string, string | undefined> = {}, opts: { execve?: boolean } = {}) {
  const proc = new EventEmitter() as EventEmitter & Record<string, unknown>;
  const child = new FakeChild();
  const exits: number[] = [];
  const kills: Array<[number, string]> = [];
  const stderr: string[] = [];
  const spawn = vi.fn(() => child);
  const execve = vi.fn();
  Object.assign(proc, {
    argv: ["/usr/bin/node", "/app/dist/main.js", "--config", "c.yaml"],
    execArgv: ["--expose-gc"],
    env: { PATH: "/bin", ...env },
    execPath: "/usr/bin/node",
    pid: 4242,
    stderr: { write: (t: string) => stderr.push(t) },
    exit: (code: number) => exits.push(code),
    kill: (pid: number, signal: string) => kills.push([pid, signal]),
    ...(opts.execve ? { execve } : {}),
  });
  const deps = { process: proc, spawn } as unknown as LaunchDeps;
  return { proc, child, exits, kills, stderr, spawn, execve, deps };
}

const FLAGS = RUNTIME_SETTINGS.nodeFlags;

describe("launch", () => {
  it("runs in this process when the settings are already in force", () => {
    const f = fakes({ ...RUNTIME_SETTINGS.env });
    (f.proc as unknown as { execArgv: string[] }).execArgv = [...FLAGS];
    expect(launch(["--config", "c.yaml"], f.deps).kind).toBe("run");
    expect(f.spawn).not.toHaveBeenCalled();
  });

  it("runs one-shot commands as they are", () => {
    for (const argv of [["--check-config"], ["--probe"], ["--version"], ["backfill", "--from", "P1D"]]) {
      const f = fakes();
      expect(launch(argv, f.deps).kind).toBe("run");
      expect(f.spawn).not.toHaveBeenCalled();
    }
  });

  it("starts node once more with the flags ahead of the user's, the same script and arguments, and the variables", () => {
    const f = fakes({ NODE_OPTIONS: "--max-old-space-size=300" });
    expect(launch(["--config", "c.yaml"], f.deps).kind).toBe("relaunched");
    expect(f.spawn).toHaveBeenCalledTimes(1);
    const [file, args, options] = f.spawn.mock.calls[0] as unknown as [
      string,
      string[],
      { env: Record<string, string>; stdio: unknown[] },
    ];
    expect(file).toBe("/usr/bin/node");
    expect(args).toEqual([...FLAGS, "--expose-gc", "/app/dist/main.js", "--config", "c.yaml"]);
    expect(options.env).toEqual({
      PATH: "/bin",
      NODE_OPTIONS: "--max-old-space-size=300",
      ...RUNTIME_SETTINGS.env,
      [RELAUNCH_MARKER]: "fd:3",
    });
    expect(options.stdio).toEqual(["inherit", "inherit", "inherit", "pipe"]);
  });

  it("replaces the process where Node can (process.execve): no child", () => {
    const f = fakes({}, { execve: true });
    launch(["--demo"], f.deps);
    expect(f.execve).toHaveBeenCalledWith(
      "/usr/bin/node",
      ["/usr/bin/node", ...FLAGS, "--expose-gc", "/app/dist/main.js", "--config", "c.yaml"],
      expect.objectContaining({ ...RUNTIME_SETTINGS.env, [RELAUNCH_MARKER]: "execve" }),
    );
  });

  it("falls back to a child when process.execve fails", () => {
    const f = fakes({}, { execve: true });
    f.execve.mockImplementation(() => {
      throw new Error("ERR_FEATURE_UNAVAILABLE_ON_PLATFORM");
    });
    expect(launch(["--demo"], f.deps).kind).toBe("relaunched");
    expect(f.spawn).toHaveBeenCalledTimes(1);
  });

  it("forwards SIGTERM, SIGINT and SIGQUIT at once, and SIGHUP once the child catches it", () => {
    const f = fakes();
    launch([], f.deps);
    f.proc.emit("SIGTERM");
    f.proc.emit("SIGINT");
    f.proc.emit("SIGQUIT");
    f.proc.emit("SIGHUP");
    f.proc.emit("SIGHUP");
    expect(f.child.killed).toEqual(["SIGTERM", "SIGINT", "SIGQUIT"]);
    f.child.stdio[3]?.write("ready\n");
    // One SIGHUP for the ones that came early: a reload reads the latest file anyway.
    expect(f.child.killed).toEqual(["SIGTERM", "SIGINT", "SIGQUIT", "SIGHUP"]);
    f.proc.emit("SIGHUP");
    expect(f.child.killed.at(-1)).toBe("SIGHUP");
    expect(FORWARDED_SIGNALS).toEqual(["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"]);
  });

  it("ends with the child's exit code", () => {
    const f = fakes();
    launch([], f.deps);
    f.child.emit("exit", 3, null);
    expect(f.exits).toEqual([3]);
  });

  it("ends by the child's signal: its own handlers gone, it signals itself", () => {
    vi.useFakeTimers();
    try {
      const f = fakes();
      launch([], f.deps);
      f.child.emit("exit", null, "SIGKILL");
      expect(f.kills).toEqual([[4242, "SIGKILL"]]);
      for (const s of FORWARDED_SIGNALS) expect(f.proc.listenerCount(s)).toBe(0);
      // Should the signal not end it, it exits as a shell reports a signal's end.
      vi.advanceTimersByTime(1000);
      expect(f.exits).toEqual([128 + 9]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a failed spawn ends it with 1 and says why", () => {
    const f = fakes();
    launch([], f.deps);
    f.child.emit("error", new Error("ENOENT"));
    expect(f.exits).toEqual([1]);
    expect(f.stderr.join("")).toContain("cannot start /usr/bin/node: ENOENT");
  });

  it("a process the launcher started runs, without the marker, and never starts another", () => {
    const f = fakes({ [RELAUNCH_MARKER]: "execve" });
    const outcome = launch([], f.deps);
    expect(outcome.kind).toBe("run");
    expect(f.spawn).not.toHaveBeenCalled();
    expect((f.proc.env as Record<string, string>)[RELAUNCH_MARKER]).toBeUndefined();
    // How it was started still says so (the landing page shows it).
    expect(outcome.kind === "run" && outcome.start.env[RELAUNCH_MARKER]).toBe("execve");
  });

  it("a control variable it cannot use: exit 2 with the message, nothing started", () => {
    const f = fakes({ VDBCLOUD_NODE_FLAGS: "heap" });
    expect(launch([], f.deps)).toEqual({ kind: "exit", code: 2 });
    expect(f.stderr.join("")).toMatch(/^error: VDBCLOUD_NODE_FLAGS: "heap" is not a node flag/);
    expect(f.spawn).not.toHaveBeenCalled();
  });
});
