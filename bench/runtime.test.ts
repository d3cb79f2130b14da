/**
 * The runtime settings have one definition (src/runtime/settings.ts): the image starts with
 * exactly it, the Deployment keeps the image's entrypoint and changes none of it, and the bench
 * and the soak start the exporter with it (or with the documented opt-out). Starting each way
 * and reading the settings back from the running process: test/runtime.starts.test.ts.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { formatSetting, resolveRuntime } from "../src/runtime/resolve.js";
import { RELAUNCH_MARKER, RUNTIME_CONTROLS, RUNTIME_SETTINGS } from "../src/runtime/settings.js";
import { DEPLOYED_RUNTIME, exporterLaunch, NODE_DEFAULTS, runtimeProblem } from "./runtime.js";

const root = new URL("../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

/** The built-in settings as a run has them, e.g. "MALLOC_ARENA_MAX=2". */
const BUILT_IN = [
  ...RUNTIME_SETTINGS.nodeFlags,
  ...Object.entries(RUNTIME_SETTINGS.env).map(([k, v]) => `${k}=${v}`),
];
/** Variables that would change the runtime: the settings', the controls, the marker, NODE_OPTIONS. */
const RUNTIME_VARIABLES = [
  ...Object.keys(RUNTIME_SETTINGS.env),
  ...Object.values(RUNTIME_CONTROLS),
  RELAUNCH_MARKER,
  "NODE_OPTIONS",
];

/** The runtime stage's ENV, one map. */
function imageEnv(): Map<string, string> {
  const runtimeStage =
    read("Dockerfile")
      .split(/^FROM /m)
      .at(-1) ?? "";
  const env = new Map<string, string>();
  for (const m of runtimeStage.replace(/\\\n/g, " ").matchAll(/^ENV (.+)$/gm)) {
    for (const pair of (m[1] ?? "").trim().split(/\s+/)) {
      const at = pair.indexOf("=");
      env.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  return env;
}

describe("the image runs the one definition", () => {
  it("the runtime stage sets exactly its variables, and no NODE_OPTIONS (that one is the user's)", () => {
    const env = imageEnv();
    for (const [k, v] of Object.entries(RUNTIME_SETTINGS.env)) expect(env.get(k), k).toBe(v);
    for (const k of [...Object.values(RUNTIME_CONTROLS), RELAUNCH_MARKER, "NODE_OPTIONS"]) {
      expect(env.has(k), k).toBe(false);
    }
  });

  it("the entrypoint gives every node flag on the command line, so the launcher has nothing to add", () => {
    const entrypoint = JSON.parse(
      /^ENTRYPOINT (\[.*\])$/m.exec(read("Dockerfile"))?.[1] ?? "null",
    ) as string[];
    expect(entrypoint).toEqual(["node", ...RUNTIME_SETTINGS.nodeFlags, "dist/main.js"]);
    const plan = resolveRuntime({ execArgv: entrypoint.slice(1, -1), env: Object.fromEntries(imageEnv()) });
    expect(plan.changes).toEqual([]);
    expect(plan.inForce.map(formatSetting)).toEqual(BUILT_IN);
  });

  it("the Kubernetes Deployment keeps the image's entrypoint and changes none of its settings", () => {
    const d = parse(read("deploy/kubernetes/base/deployment.yaml")) as {
      spec: {
        template: {
          spec: { containers: { env: { name: string }[]; command?: unknown }[] };
        };
      };
    };
    const container = d.spec.template.spec.containers[0];
    // A `command` would replace the entrypoint and lose the command-line flags.
    expect(container?.command).toBeUndefined();
    const names = container?.env.map((e) => e.name) ?? [];
    for (const k of RUNTIME_VARIABLES) expect(names, k).not.toContain(k);
  });
});

describe("the bench and the soak start the exporter with it", () => {
  // A harness started from a shell with its own settings and controls: none may leak through.
  const harness = {
    PATH: "/bin",
    MALLOC_ARENA_MAX: "8",
    VDBCLOUD_RUNTIME: "off",
    VDBCLOUD_NODE_FLAGS: "--stack-size=100",
    [RELAUNCH_MARKER]: "fd:3",
  };

  it("deployed: exactly the definition, with nothing for the launcher to add", () => {
    const launch = exporterLaunch(DEPLOYED_RUNTIME, harness, ["--expose-gc"]);
    expect(launch.execArgv).toEqual([...RUNTIME_SETTINGS.nodeFlags, "--expose-gc"]);
    expect(launch.env).toEqual({ PATH: "/bin", ...RUNTIME_SETTINGS.env });
    const plan = resolveRuntime(launch);
    expect(plan.relaunch).toBeNull();
    expect(plan.changes).toEqual([]);
    expect(plan.inForce.map(formatSetting)).toEqual(BUILT_IN);
    expect(runtimeProblem(DEPLOYED_RUNTIME, launch)).toBeUndefined();
  });

  it("node-defaults: the documented opt-out, none of the settings, nothing relaunched", () => {
    const launch = exporterLaunch(NODE_DEFAULTS, harness);
    expect(launch.env).toEqual({ PATH: "/bin", VDBCLOUD_RUNTIME: "off" });
    const plan = resolveRuntime(launch);
    expect(plan.changes).toEqual([]);
    expect(plan.inForce.every((s) => s.value === null)).toBe(true);
    expect(runtimeProblem(NODE_DEFAULTS, launch)).toBeUndefined();
  });

  it("a start the launcher would redo, or other settings, is refused (the probe would measure the wrong thing)", () => {
    expect(runtimeProblem(DEPLOYED_RUNTIME, { execArgv: [], env: {} })).toMatch(
      /^its launcher would start node once more \(add --max-semi-space-size=2/,
    );
    expect(runtimeProblem(NODE_DEFAULTS, exporterLaunch(DEPLOYED_RUNTIME, {}))).toMatch(/^settings differ: /);
  });
});
