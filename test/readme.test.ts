/**
 * Every shell command of the README and of docs/*.md runs as written, so a wrong command fails
 * CI. The commands run in order, page by page (the README first, then docs/ by name) and block
 * by block, in a scratch copy of the repository (its files as they are, node_modules linked),
 * so builds and generators never touch the files other tests read. Commands that cannot run
 * here are in SKIPPED with the reason, reviewed like code; servers (the demo, the simulator, an
 * exporter) are started, must answer, and are stopped at the end of their block. Afterwards
 * every file of the copy must still equal the repository's: `npm run generate` as
 * docs/development.md says must find nothing stale.
 *
 * The fixed ports the pages use (9500, 9501, 9475, 18080) are replaced, in each command as it
 * runs (heredoc bodies included) and in the URL that must answer, by free ports chosen when the
 * file starts, so a port another process holds cannot fail the test; the bare `npm run demo`
 * gets a free port through VDBCLOUD_LISTEN, as a reader would when 9474 is taken.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { docPages } from "./helpers/markdown.js";
import { freePort, waitFor } from "./helpers/processes.js";
import { tempDir } from "./helpers/tempDir.js";
import { type ToolName, toolOrSkip } from "./helpers/tools.js";
import { readmeCommands } from "./readmeCommands.js";

const ROOT = join(import.meta.dirname, "..");
/** The pages whose `sh` blocks run: the README, then docs/ by name. */
const PAGES = docPages(ROOT);

/** Commands that cannot run in a test, and why. A new command of a page lands here or runs. */
const SKIPPED: Readonly<Record<string, string>> = {
  "npm ci": "reinstalls node_modules from the registry; CI runs it before the tests",
  "npm test": "the suite this test is part of",
  "node dist/main.js --config vdbcloud.yaml": "polls the real service with a real API key",
  "node dist/main.js --config vdbcloud.yaml --probe": "calls the real service with a real API key",
  "kubectl create secret generic vdbcloud-exporter-api-key --from-literal=api-key=YOUR_KEY":
    "needs a Kubernetes cluster",
  "$EDITOR deploy/kubernetes/base/config.yaml": "interactive",
  "kubectl apply -k deploy/kubernetes/base": "needs a Kubernetes cluster (the manifest tests render it)",
  "node dist/main.js backfill --config vdbcloud.yaml --from P7D --output history.om":
    "reads the real service's history with a real API key (test/e2e.backfill.test.ts runs the same flow against the simulator)",
  "promtool tsdb create-blocks-from openmetrics history.om ./blocks":
    "needs the history.om of the command before (test/e2e.backfill.test.ts runs it on simulator history)",
  "mv ./blocks/* /var/lib/prometheus/metrics2/": "moves blocks into a running Prometheus's storage",
  "npm run bench": "minutes of deliberate load; its figures are in docs/performance.md",
  "npm run soak": "minutes of deliberate load",
  "docker compose up --build": "needs Docker and pulls images (test/compose.test.ts checks the compose file)",
};

/** Servers: the URL that must answer 200 once they are up (a free port for the bare demo). */
const SERVERS: Readonly<Record<string, (port: number) => string>> = {
  "npm run demo": (port) => `http://127.0.0.1:${port}/readyz`,
  "npm run demo -- --listen 127.0.0.1:9500": () => "http://127.0.0.1:9500/-/ready",
  "VDBCLOUD_LISTEN=127.0.0.1:9501 npm run demo": () => "http://127.0.0.1:9501/-/ready",
  "npm run sim -- --port 18080 --clusters 3 --api-key sim-key": () => "http://127.0.0.1:18080/_sim/world",
  "node dist/main.js --config my-sim.yaml --listen 127.0.0.1:9475": () => "http://127.0.0.1:9475/readyz",
};

/** The fixed ports of the pages, each replaced by a free one (see the file's comment). */
const FIXED_PORTS = [9500, 9501, 9475, 18080] as const;
const PORT_IN_TEXT = new RegExp(`(?<=[:\\s])(${FIXED_PORTS.join("|")})\\b`, "g");
const portFor = new Map<string, number>();

/** Distinct free ports for FIXED_PORTS, chosen once. */
async function chooseFreePorts(): Promise<void> {
  if (portFor.size > 0) return;
  const taken = new Set<number>();
  for (const fixed of FIXED_PORTS) {
    let port = await freePort();
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    portFor.set(String(fixed), port);
  }
}

/** `text` with each fixed port of the pages replaced by its free one. */
function withFreePorts(text: string): string {
  return text.replace(PORT_IN_TEXT, (fixed) => String(portFor.get(fixed) ?? fixed));
}

/** Commands that need an external tool: skipped with a notice where it is missing (CI fails). */
const TOOLS: Readonly<Record<string, ToolName>> = { promtool: "promtool", amtool: "amtool" };

/** Every command, its block named by page and number ("docs/simulator.md block 1"). */
const commands = PAGES.flatMap((page) =>
  readmeCommands(readFileSync(join(ROOT, page), "utf8")).map((c) => ({
    block: `${page} block ${c.block}`,
    command: c.command,
  })),
);
const copy = tempDir("vdbcloud-readme-");
const running: ChildProcess[] = [];
const env: Record<string, string> = {};

function copyRepository(): string[] {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((f) => f !== "" && !f.startsWith("node_modules/"));
  for (const f of files) {
    mkdirSync(dirname(join(copy, f)), { recursive: true });
    try {
      copyFileSync(join(ROOT, f), join(copy, f));
    } catch {
      // Listed but deleted in the working tree: not part of what the reader has.
    }
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  return files;
}
const files = copyRepository();

async function stopAll(): Promise<void> {
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.pid === undefined) continue;
    const exited = new Promise((r) => child.once("exit", r));
    // npm starts a shell that starts node: the whole process group goes.
    process.kill(-child.pid, "SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
  }
}

afterAll(async () => {
  await stopAll();
  rmSync(copy, { recursive: true, force: true });
});

async function startServer(command: string, url: (port: number) => string): Promise<void> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn("bash", ["-c", command], {
    cwd: copy,
    env: { ...process.env, ...env, VDBCLOUD_LISTEN: `127.0.0.1:${port}` },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A command that sets VDBCLOUD_LISTEN itself overrides the free port, as written.
  running.push(child);
  child.stdout?.on("data", (c: Buffer) => output.push(c.toString()));
  child.stderr?.on("data", (c: Buffer) => output.push(c.toString()));
  await waitFor(`${command} to answer ${url(port)}`, 60_000, async () => {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${output.join("").slice(-2000)}`);
    return (await fetch(url(port)).catch(() => undefined))?.status === 200 ? true : undefined;
  }).catch((error: unknown) => {
    throw new Error(`${command}: ${(error as Error).message}\n${output.join("").slice(-2000)}`, {
      cause: error,
    });
  });
}

function run(command: string): void {
  const exported = /^export (\w+)=(.*)$/.exec(command);
  if (exported) {
    env[exported[1] as string] = exported[2] as string;
    return;
  }
  const r = spawnSync("bash", ["-c", command], {
    cwd: copy,
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 240_000,
  });
  expect(r.status, `${command}\n${r.stdout}${r.stderr}`).toBe(0);
}

describe("shell commands of the README and docs/*.md", () => {
  it("are found, and every one runs, is a server, or is skipped for a stated reason", () => {
    expect(commands.length).toBeGreaterThan(15);
    // The docs' blocks are found too, not only the README's.
    const pages = new Set(commands.map((c) => c.block.split(" ")[0]));
    for (const page of ["README.md", "docs/backfill.md", "docs/development.md", "docs/simulator.md"]) {
      expect(pages).toContain(page);
    }
    const known = new Set([...Object.keys(SKIPPED), ...Object.keys(SERVERS)]);
    // The skip list names only commands the pages still have.
    for (const c of known) expect(commands.map((x) => x.command)).toContain(c);
  });

  const blocks = [...new Set(commands.map((c) => c.block))];
  it.each(blocks.map((b) => [b, commands.filter((c) => c.block === b).map((c) => c.command)] as const))(
    "%s runs: %j",
    async (_block, list) => {
      await chooseFreePorts();
      try {
        for (const command of list) {
          if (SKIPPED[command] !== undefined) continue;
          const tool = TOOLS[command.split(" ")[0] ?? ""];
          if (tool !== undefined && toolOrSkip(tool).skip) continue;
          const server = SERVERS[command];
          if (server) await startServer(withFreePorts(command), (port) => withFreePorts(server(port)));
          else run(withFreePorts(command));
        }
      } finally {
        await stopAll();
      }
    },
    300_000,
  );

  it("replaces the pages' fixed ports, in commands, heredocs and URLs, and nothing else", async () => {
    await chooseFreePorts();
    const sim = portFor.get("18080");
    expect(new Set(portFor.values()).size).toBe(FIXED_PORTS.length);
    expect(withFreePorts("npm run sim -- --port 18080 --clusters 3")).toBe(
      `npm run sim -- --port ${sim} --clusters 3`,
    );
    expect(withFreePorts("  base_url: http://127.0.0.1:18080\n")).toBe(
      `  base_url: http://127.0.0.1:${sim}\n`,
    );
    expect(withFreePorts("http://127.0.0.1:9475/readyz")).toBe(
      `http://127.0.0.1:${portFor.get("9475")}/readyz`,
    );
    expect(withFreePorts("in01-18080 --clusters 9500")).toBe(`in01-18080 --clusters ${portFor.get("9500")}`);
    // Every fixed port a page's command uses is one of FIXED_PORTS.
    for (const { command } of commands) {
      for (const m of command.matchAll(/127\.0\.0\.1:(\d+)/g))
        expect(FIXED_PORTS.map(String)).toContain(m[1]);
    }
  });

  it("left every file of the repository as it was (npm run generate found nothing stale)", () => {
    const changed = files.filter((f) => {
      try {
        return !readFileSync(join(copy, f)).equals(readFileSync(join(ROOT, f)));
      } catch {
        return false;
      }
    });
    expect(changed).toEqual([]);
  });
});
