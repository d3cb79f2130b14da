/**
 * The exporter's process settings in the bench and the soak: `deployed` (the default) is the
 * runtime settings of src/runtime/settings.ts, which every way of starting the exporter gives it;
 * `--runtime node-defaults` measures without them (VDBCLOUD_RUNTIME=off, the documented opt-out).
 *
 * The exporter is started with them already in force, so its launcher starts no other process
 * and the probe preloaded into it measures the exporter itself; `runtimeProblem` checks that
 * from what the started process reports. test/runtime.starts.test.ts starts the exporter as
 * `exporterLaunch` says and reads the settings back from the running process.
 */
import { type Env, formatSetting, resolveRuntime } from "../src/runtime/resolve.js";
import { RELAUNCH_MARKER, RUNTIME_CONTROLS, RUNTIME_SETTINGS } from "../src/runtime/settings.js";

export interface Runtime {
  readonly name: "deployed" | "node-defaults";
  /** Node flags on the exporter's command line. */
  readonly nodeFlags: readonly string[];
  /** Environment variables of the exporter, over the harness's own without any runtime setting. */
  readonly env: Readonly<Record<string, string>>;
}

export const DEPLOYED_RUNTIME: Runtime = {
  name: "deployed",
  nodeFlags: RUNTIME_SETTINGS.nodeFlags,
  env: RUNTIME_SETTINGS.env,
};

export const NODE_DEFAULTS: Runtime = {
  name: "node-defaults",
  nodeFlags: [],
  env: { [RUNTIME_CONTROLS.switch]: "off" },
};

export const RUNTIMES = [DEPLOYED_RUNTIME, NODE_DEFAULTS] as const;

/** What the harness's environment may not pass on: a runtime setting or control it did not choose. */
const NOT_INHERITED = new Set<string>([
  ...Object.keys(RUNTIME_SETTINGS.env),
  ...Object.values(RUNTIME_CONTROLS),
  RELAUNCH_MARKER,
]);

/**
 * The node options (ahead of `extraExecArgv`, e.g. --expose-gc and the probe) and the whole
 * environment a process of the harness is started with under `runtime`.
 */
export function exporterLaunch(
  runtime: Runtime,
  base: Env = process.env,
  extraExecArgv: readonly string[] = [],
): { execArgv: string[]; env: Record<string, string> } {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && !NOT_INHERITED.has(k)) env[k] = v;
  return { execArgv: [...runtime.nodeFlags, ...extraExecArgv], env: { ...env, ...runtime.env } };
}

/** `MALLOC_ARENA_MAX=2 ... --heap-growing-percent=25`, or "no settings". */
export function describeRuntime(runtime: Runtime): string {
  return (
    [...Object.entries(runtime.env).map(([k, v]) => `${k}=${v}`), ...runtime.nodeFlags].join(" ") ||
    "no settings"
  );
}

/** What a started exporter says about itself (the probe's `runtime` command). */
export interface ReportedStart {
  readonly execArgv: readonly string[];
  readonly env: Env;
}

/**
 * Why the process that reported `reported` is not an exporter running `runtime` as measured:
 * its launcher would start another process (the probe would then measure the launcher), or a
 * setting differs. Undefined when it is.
 */
export function runtimeProblem(runtime: Runtime, reported: ReportedStart): string | undefined {
  const plan = resolveRuntime(reported);
  if (plan.changes.length > 0) {
    return `its launcher would start node once more (${plan.changes.join(", ")}): the probe would measure the launcher`;
  }
  const want = resolveRuntime({ execArgv: runtime.nodeFlags, env: runtime.env }).settings;
  const differ = plan.inForce.filter((s) => want.find((w) => w.name === s.name)?.value !== s.value);
  if (differ.length > 0) return `settings differ: ${differ.map(formatSetting).join(", ")}`;
  return undefined;
}
