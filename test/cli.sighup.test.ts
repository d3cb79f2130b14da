/**
 * A SIGHUP that arrives while the exporter is still starting (before it listens) neither kills
 * the process nor is lost: the process keeps starting, and reloads once it can. Runs the built
 * binary, as users do (`npm test` builds first).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import { TEST_API_KEY } from "./helpers/harness.js";
import { firstClusterConfig } from "./helpers/simConfig.js";
import { tempDir } from "./helpers/tempDir.js";

const MAIN = join(import.meta.dirname, "..", "dist", "main.js");

/** Whether `pid` has a handler for SIGHUP (signal 1: bit 0 of SigCgt in /proc/PID/status). */
function catchesSighup(pid: number): boolean {
  try {
    const m = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m?.[1] !== undefined && (BigInt(`0x${m[1]}`) & 1n) === 1n;
  } catch {
    return false;
  }
}

let sim: Simulator;
let child: ChildProcess | undefined;
beforeAll(async () => {
  sim = await startSimulator({ clusters: 1 });
});
afterAll(async () => {
  await sim.close();
});
afterEach(() => {
  child?.kill("SIGKILL");
  child = undefined;
});

// /proc tells when the process has installed its handler, so the signal is sent at the first
// moment it can be caught, without guessing a delay. Linux only.
describe.skipIf(!existsSync("/proc/self/status"))("SIGHUP during start-up", () => {
  it("does not kill the process; the reload it asks for runs once the exporter listens", async () => {
    const dir = tempDir("vdbcloud-sighup-");
    const config = join(dir, "config.yaml");
    writeFileSync(config, firstClusterConfig(sim));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const proc = spawn(process.execPath, [MAIN, "--config", config, "--listen", `127.0.0.1:${port}`], {
      env: { PATH: process.env.PATH ?? "", VDBCLOUD_API_KEY: TEST_API_KEY },
    });
    child = proc;
    let output = "";
    proc.stdout?.on("data", (d: Buffer) => {
      output += d.toString();
    });
    proc.stderr?.on("data", (d: Buffer) => {
      output += d.toString();
    });
    const exited = new Promise<string>((resolve) => {
      proc.on("exit", (code, signal) => resolve(`exit code ${code}, signal ${signal}`));
    });

    const pid = proc.pid as number;
    for (let i = 0; i < 5000 && !catchesSighup(pid) && proc.exitCode === null; i++) {
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(catchesSighup(pid)).toBe(true);
    // Still starting: the handler is in place before the server listens.
    expect(output).not.toContain("vdbcloud-exporter listening");
    proc.kill("SIGHUP");

    let ready = false;
    for (let i = 0; i < 150 && !ready; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (proc.exitCode !== null || proc.signalCode !== null) break;
    }
    expect(proc.signalCode, `the process ended: ${output}`).toBeNull();
    expect(ready).toBe(true);
    for (let i = 0; i < 50 && !output.includes("configuration reloaded"); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    // The SIGHUP was served, after the server started listening.
    const listening = output.indexOf("vdbcloud-exporter listening");
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(output.indexOf("configuration reloaded")).toBeGreaterThan(listening);

    proc.kill("SIGTERM");
    expect(await exited).toBe("exit code 0, signal null");
  });
});
