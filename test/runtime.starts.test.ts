/**
 * Every way of starting the exporter runs it with the same runtime settings (src/runtime/
 * settings.ts), read back from the running exporter's process.execArgv and process.env: the
 * package's bin (its shebang, as the kernel runs it), `npm start`, `npm run demo` (its command
 * after the build), the image (the Dockerfile's ENTRYPOINT and ENV with docker-compose.yml's
 * command, started here as written, there being no Docker engine), the Kubernetes Deployment
 * (the image's entrypoint, the container's args and env), and the bench and soak harness
 * (bench/runtime.ts). And the documented ways to change them do. Runs the built tree
 * (`npm test` builds first).
 *
 * A module preloaded through NODE_OPTIONS (a user's NODE_OPTIONS, which the launcher must keep)
 * writes each node process's start to a file; the exporter is the last node process of the
 * chain, the one that runs dist/main.js and started no other.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEPLOYED_RUNTIME, exporterLaunch, NODE_DEFAULTS } from "../bench/runtime.js";
import { formatSetting, resolveRuntime } from "../src/runtime/resolve.js";
import { RELAUNCH_MARKER, RUNTIME_SETTINGS } from "../src/runtime/settings.js";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import { TEST_API_KEY } from "./helpers/harness.js";
import { imageStart } from "./helpers/image.js";
import { waitFor } from "./helpers/processes.js";
import { firstClusterConfig } from "./helpers/simConfig.js";
import { tempDir } from "./helpers/tempDir.js";

const ROOT = join(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  bin: Record<string, string>;
  scripts: Record<string, string>;
};
const BUILT_IN = [
  ...RUNTIME_SETTINGS.nodeFlags,
  ...Object.entries(RUNTIME_SETTINGS.env).map(([k, v]) => `${k}=${v}`),
];
const dir = tempDir("vdbcloud-runtime-");

/** What the preloaded module records of one node process. */
interface Started {
  readonly pid: number;
  readonly ppid: number;
  readonly argv: readonly string[];
  readonly execArgv: readonly string[];
  readonly env: Record<string, string>;
}

const PROBE = join(dir, "probe.mjs");
writeFileSync(
  PROBE,
  `import { writeFileSync } from "node:fs";
const { pid, ppid, argv, execArgv, env } = process;
writeFileSync(\`\${env.RUNTIME_PROBE_DIR}/\${pid}.json\`, JSON.stringify({ pid, ppid, argv, execArgv, env: { ...env } }));
`,
);
const USER_NODE_OPTIONS = `--import=${pathToFileURL(PROBE).href}`;

/** One way of starting: the command as its source file writes it, and what it adds to the environment. */
interface Way {
  readonly name: string;
  readonly command: readonly string[];
  readonly cwd: string;
  /** The whole environment the way gives (the probe's variables are added). */
  readonly env: Record<string, string>;
  /** Whether the started command is the exporter's own process chain (its exit code is the exporter's). */
  readonly direct: boolean;
}

let sim: Simulator;
let config: string;
const running: ChildProcess[] = [];

beforeAll(async () => {
  sim = await startSimulator({ clusters: 1 });
  config = join(dir, "config.yaml");
  writeFileSync(config, firstClusterConfig(sim));
});

afterEach(() => {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(-child.pid, "SIGKILL");
    }
  }
});

afterAll(async () => {
  await sim.close();
});

const base = () => ({ PATH: process.env.PATH ?? "", VDBCLOUD_API_KEY: TEST_API_KEY });

/** The bin as the kernel runs it: the shebang's interpreter and arguments, then the file. */
function binWay(): Way {
  const bin = join(ROOT, pkg.bin["vdbcloud-exporter"] ?? "");
  const shebang = readFileSync(bin, "utf8").split("\n")[0] ?? "";
  expect(shebang).toMatch(/^#!/);
  const interpreter = shebang.slice(2).trim().split(/\s+/);
  return {
    name: "bin",
    command: [...interpreter, bin, "--config", config, "--listen", "127.0.0.1:0"],
    cwd: dir,
    env: base(),
    direct: true,
  };
}

/** The image: the Dockerfile's ENTRYPOINT and ENV, then docker-compose.yml's command. */
function imageWay(): Way {
  const image = imageStart(ROOT);
  const compose = parse(readFileSync(join(ROOT, "docker-compose.yml"), "utf8")) as {
    services: { exporter: { command: string[]; entrypoint?: unknown; environment?: Record<string, string> } };
  };
  const exporter = compose.services.exporter;
  expect(exporter.entrypoint).toBeUndefined();
  // The addresses: free loopback ones instead of the container's (9474, and the demo simulator's
  // compose service name, which only resolves inside compose).
  const command = exporter.command.map((a, i) =>
    ["--listen", "--demo-simulator-listen"].includes(exporter.command[i - 1] ?? "") ? "127.0.0.1:0" : a,
  );
  expect(image.workdir).toBe("/app");
  return {
    name: "image (Dockerfile ENTRYPOINT and ENV, docker-compose command)",
    command: [...image.entrypoint, ...command],
    // WORKDIR /app holds dist/ as the repository does.
    cwd: ROOT,
    env: { ...base(), ...image.env, ...exporter.environment },
    direct: true,
  };
}

/** The Deployment's container: no command, so the image's entrypoint, with its args and env. */
function kubernetesWay(): Way {
  const image = imageStart(ROOT);
  const d = parse(readFileSync(join(ROOT, "deploy/kubernetes/base/deployment.yaml"), "utf8")) as {
    spec: {
      template: {
        spec: {
          containers: Array<{
            command?: string[];
            args: string[];
            env: Array<{ name: string; value?: string }>;
          }>;
        };
      };
    };
  };
  const c = d.spec.template.spec.containers[0];
  if (c === undefined) throw new Error("no container");
  const env = Object.fromEntries(c.env.flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]])));
  const args = c.args.map((a) => (a.endsWith(".yaml") ? config : a));
  return {
    name: "Kubernetes Deployment",
    command: [...(c.command ?? image.entrypoint), ...args],
    cwd: ROOT,
    // A free port through the variable the CLI reads, as the pod's config file would give one.
    env: { ...base(), ...image.env, ...env, VDBCLOUD_LISTEN: "127.0.0.1:0" },
    direct: true,
  };
}

/** `npm run demo` after its build step (the build is `npm run build`, which the test suite ran). */
function demoWay(): Way {
  const parts = (pkg.scripts.demo ?? "").split("&&").map((p) => p.trim());
  expect(parts.slice(0, -1)).toEqual(["npm run build"]);
  return {
    name: "npm run demo",
    command: ["sh", "-c", `${parts.at(-1)} --listen 127.0.0.1:0`],
    cwd: ROOT,
    env: base(),
    direct: false,
  };
}

function npmStartWay(): Way {
  return {
    name: "npm start",
    command: ["npm", "start", "--silent", "--", "--config", config, "--listen", "127.0.0.1:0"],
    cwd: ROOT,
    env: { ...base(), HOME: process.env.HOME ?? dir, npm_config_update_notifier: "false" },
    direct: false,
  };
}

/** bench/children.ts's startExporterProcess (bench and soak), without the bench's own probe. */
function benchWay(runtime = DEPLOYED_RUNTIME): Way {
  const launch = exporterLaunch(runtime, base(), ["--expose-gc"]);
  return {
    name: `bench and soak (runtime ${runtime.name})`,
    command: [
      process.execPath,
      ...launch.execArgv,
      join(ROOT, "dist", "main.js"),
      "--config",
      config,
      "--listen",
      "127.0.0.1:0",
    ],
    cwd: dir,
    env: launch.env,
    direct: true,
  };
}

/** What a started way ran: the exporter's start, every node process, its address, its end. */
interface Run {
  readonly exporter: Started;
  readonly processes: readonly Started[];
  readonly url: string;
  readonly landing: string;
  readonly child: ChildProcess;
  readonly output: () => string;
}

async function start(way: Way): Promise<Run> {
  const probeDir = tempDir("vdbcloud-runtime-probe-");
  const [file = "", ...args] = way.command;
  const child = spawn(file, args, {
    cwd: way.cwd,
    env: { ...way.env, NODE_OPTIONS: USER_NODE_OPTIONS, RUNTIME_PROBE_DIR: probeDir },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.push(child);
  let out = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const listen = await waitFor(`${way.name} to listen`, 60_000, async () => {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${out.slice(-2000)}`);
    return /"listen":"([^"]+)"[^\n]*"msg":"vdbcloud-exporter listening"/.exec(out)?.[1];
  }).catch((err: unknown) => {
    throw new Error(`${way.name}: ${(err as Error).message}\n${out.slice(-2000)}`, { cause: err });
  });
  const url = `http://${listen}`;
  const landing = await (await fetch(`${url}/`)).text();
  const processes = readdirSync(probeDir).map(
    (f) => JSON.parse(readFileSync(join(probeDir, f), "utf8")) as Started,
  );
  const parents = new Set(processes.map((p) => p.ppid));
  const exporters = processes.filter(
    (p) => p.argv[1]?.endsWith(join("dist", "main.js")) && !parents.has(p.pid),
  );
  expect(
    exporters,
    `${way.name}: one exporter process among ${JSON.stringify(processes.map((p) => p.argv))}`,
  ).toHaveLength(1);
  return { exporter: exporters[0] as Started, processes, url, landing, child, output: () => out };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends a run as a supervisor would (`signal` to the started process; to the process group for
 * npm and sh) and returns how it ended, once the exporter's process is gone too.
 */
async function stop(run: Run, direct: boolean, signal: NodeJS.Signals = "SIGTERM"): Promise<string> {
  const exited = new Promise<string>((resolve) => {
    run.child.once("exit", (code, sig) => resolve(`code ${code} signal ${sig}`));
  });
  if (direct) run.child.kill(signal);
  else process.kill(-(run.child.pid as number), signal);
  const end = await exited;
  await waitFor("the exporter's process to end", 10_000, async () =>
    alive(run.exporter.pid) ? undefined : true,
  );
  return end;
}

/** The settings in force in the exporter, from its own execArgv and environment. */
const inForce = (s: Started) =>
  resolveRuntime({ execArgv: s.execArgv, env: s.env }).inForce.map(formatSetting);

/** The settings the landing page lists. */
const landingSettings = (html: string) =>
  [...(html.split('<table id="runtime">')[1] ?? "").matchAll(/<code>([^<]*)<\/code>/g)].map((m) => m[1]);

describe("every way of starting the exporter runs it with the one definition", () => {
  const resolved = new Map<string, readonly string[]>();
  const ways: Array<() => Way> = [binWay, npmStartWay, demoWay, imageWay, kubernetesWay, () => benchWay()];

  it.each(ways.map((w) => [w().name, w] as const))(
    "%s",
    async (_name, makeWay) => {
      const way = makeWay();
      const run = await start(way);
      const e = run.exporter;
      // The process that serves is the one with the settings: flags on its command line, once.
      expect(inForce(e), way.name).toEqual(BUILT_IN);
      for (const f of RUNTIME_SETTINGS.nodeFlags)
        expect(
          e.execArgv.filter((a) => a === f),
          f,
        ).toHaveLength(1);
      for (const [k, v] of Object.entries(RUNTIME_SETTINGS.env)) expect(e.env[k], k).toBe(v);
      // The user's NODE_OPTIONS reached it untouched (the probe in it is the proof), and no
      // relaunch marker is left for anything it starts.
      expect(e.env.NODE_OPTIONS).toBe(USER_NODE_OPTIONS);
      // At most one launcher between the way's command and the exporter.
      const launchers = run.processes.filter((p) => p.pid !== e.pid && p.argv[1] === e.argv[1]);
      expect(launchers.length).toBeLessThanOrEqual(1);
      if (launchers.length === 1) {
        expect(e.ppid).toBe(launchers[0]?.pid);
        expect(e.env[RELAUNCH_MARKER]).toBe("fd:3");
      }
      // What the landing page shows is what the process has.
      expect(landingSettings(run.landing)).toEqual(BUILT_IN);
      resolved.set(way.name, inForce(e));
      const end = await stop(run, way.direct);
      if (way.direct) expect(end, run.output().slice(-1500)).toBe("code 0 signal null");
    },
    90_000,
  );

  it("and each resolved to the same flags and variables", () => {
    expect(resolved.size).toBe(ways.length);
    for (const [name, settings] of resolved) expect(settings, name).toEqual(BUILT_IN);
  });
});

describe("the documented changes reach the exporter", () => {
  it("VDBCLOUD_RUNTIME=off: plain node, no second process", async () => {
    const way = binWay();
    const run = await start({ ...way, env: { ...way.env, VDBCLOUD_RUNTIME: "off" } });
    expect(run.processes).toHaveLength(1);
    expect(inForce(run.exporter)).toEqual([
      "--max-semi-space-size (not set)",
      "--heap-growing-percent (not set)",
      "--optimize-for-size (not set)",
      "MALLOC_ARENA_MAX (not set)",
      "MALLOC_MMAP_THRESHOLD_ (not set)",
    ]);
    expect(await stop(run, true)).toBe("code 0 signal null");
  }, 60_000);

  it("the bench's node-defaults is that opt-out", async () => {
    const run = await start(benchWay(NODE_DEFAULTS));
    expect(run.processes).toHaveLength(1);
    expect(inForce(run.exporter).every((s) => s.endsWith("(not set)"))).toBe(true);
    expect(await stop(run, true)).toBe("code 0 signal null");
  }, 60_000);

  it("in the image: VDBCLOUD_NODE_FLAGS and VDBCLOUD_RUNTIME_ENV replace the entrypoint's and ENV's", async () => {
    const way = imageWay();
    const run = await start({
      ...way,
      env: {
        ...way.env,
        VDBCLOUD_NODE_FLAGS: "--max-semi-space-size=4",
        VDBCLOUD_RUNTIME_ENV: "MALLOC_ARENA_MAX=4",
      },
    });
    expect(inForce(run.exporter)).toEqual([
      "--max-semi-space-size=4",
      "--heap-growing-percent (not set)",
      "--optimize-for-size (not set)",
      "MALLOC_ARENA_MAX=4",
      "MALLOC_MMAP_THRESHOLD_ (not set)",
    ]);
    expect(run.exporter.execArgv).not.toContain("--max-semi-space-size=2");
    expect(landingSettings(run.landing)).toEqual(inForce(run.exporter));
    expect(await stop(run, true)).toBe("code 0 signal null");
  }, 60_000);

  it("a user's own variable and flag win over the built-in ones", async () => {
    const way = binWay();
    const [env = "", node = "", ...rest] = way.command;
    const run = await start({
      ...way,
      command: [env, node, "--heap-growing-percent=50", ...rest],
      env: { ...way.env, MALLOC_ARENA_MAX: "4" },
    });
    expect(inForce(run.exporter)).toEqual([
      "--max-semi-space-size=2",
      "--heap-growing-percent=50",
      "--optimize-for-size",
      "MALLOC_ARENA_MAX=4",
      "MALLOC_MMAP_THRESHOLD_=131072",
    ]);
    expect(await stop(run, true)).toBe("code 0 signal null");
  }, 60_000);
});

describe("the launcher relays what a supervisor sees", () => {
  it("SIGINT ends the exporter it started, and the launcher with its exit code 0", async () => {
    const run = await start(binWay());
    expect(run.processes).toHaveLength(2);
    expect(await stop(run, true, "SIGINT")).toBe("code 0 signal null");
  }, 60_000);

  it("an exporter that fails: its exit code", async () => {
    const way = binWay();
    const first = await start(way);
    const taken = new URL(first.url).host;
    // A second exporter on the same address cannot listen: exit 1.
    const [file = "", ...args] = way.command.map((a) => (a === "127.0.0.1:0" ? taken : a));
    const second = spawn(file, args, { cwd: way.cwd, env: way.env, stdio: "ignore", detached: true });
    running.push(second);
    const end = await new Promise<string>((resolve) => {
      second.once("exit", (code, signal) => resolve(`code ${code} signal ${signal}`));
    });
    expect(end).toBe("code 1 signal null");
    await stop(first, true);
  }, 60_000);

  it("an exporter killed by a signal: the launcher ends by the same signal", async () => {
    const run = await start(binWay());
    expect(run.exporter.pid).not.toBe(run.child.pid);
    const exited = new Promise<string>((resolve) => {
      run.child.once("exit", (code, signal) => resolve(`code ${code} signal ${signal}`));
    });
    process.kill(run.exporter.pid, "SIGKILL");
    expect(await exited).toBe("code null signal SIGKILL");
  }, 60_000);

  it("a launcher killed by SIGKILL, which can pass nothing on: the exporter stops by itself", async () => {
    const run = await start(binWay());
    expect(run.exporter.pid).not.toBe(run.child.pid);
    run.child.kill("SIGKILL");
    await waitFor("the exporter to stop", 15_000, async () => (alive(run.exporter.pid) ? undefined : true));
    expect(run.output()).toContain('"signal":"SIGTERM","msg":"shutting down"');
  }, 60_000);
});
