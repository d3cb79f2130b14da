/**
 * From how a process was started (its node options and environment) to the runtime settings a
 * run uses and what the launcher must change to get there. Pure: main.ts's launcher, the
 * `--check-config` report, the landing page, the bench and the tests all resolve the same way.
 *
 * The rules (docs/runtime.md):
 * - By default the built-in settings (settings.ts) are added where missing. A flag already given
 *   (on the command line or in NODE_OPTIONS, by name) and a variable already set are the user's
 *   and stay as they are.
 * - VDBCLOUD_NODE_FLAGS replaces the built-in node flags and VDBCLOUD_RUNTIME_ENV the built-in
 *   variables; VDBCLOUD_RUNTIME=off replaces both with none. What they say is then exactly what
 *   runs for the names concerned (the built-in ones and the listed ones): the launcher adds,
 *   replaces or removes them on the command line and in the environment, so that they also hold
 *   in the image, whose entrypoint gives the built-in ones.
 * - NODE_OPTIONS is never edited: a flag there stays in force unless the command line gives the
 *   same flag, which Node lets win.
 */
import { RELAUNCH_MARKER, RUNTIME_CONTROLS, RUNTIME_SETTINGS, type RuntimeSettings } from "./settings.js";

/** Environment variables as process.env has them. */
export type Env = Readonly<Record<string, string | undefined>>;

/** How a process was started. */
export interface ProcessStart {
  /** Node's options before the script, as process.execArgv (which never holds NODE_OPTIONS). */
  readonly execArgv: readonly string[];
  readonly env: Env;
}

/** Where a setting in force comes from. */
type SettingSource = "command line" | "NODE_OPTIONS" | "environment";

/** One setting the launcher manages, as a run has it. */
export interface SettingState {
  readonly kind: "node flag" | "environment variable";
  /** `--max-semi-space-size` or `MALLOC_ARENA_MAX`. */
  readonly name: string;
  /** The value in force ("" for a flag without one), or null when it is not set. */
  readonly value: string | null;
  readonly source: SettingSource | null;
  /** The built-in value, or null when the setting is not one of the built-in ones. */
  readonly builtIn: string | null;
  /** Whether the launcher sets it (added or replaced) for the run. */
  readonly byLauncher: boolean;
}

/** The runtime settings of a run, and how the launcher gets there from a start. */
export interface ResolvedRuntime {
  /** What chose the settings: "built-in", "VDBCLOUD_RUNTIME=off", or the replacing variables. */
  readonly control: string;
  /** Each managed setting as the run has it: after the relaunch, when there is one. */
  readonly settings: readonly SettingState[];
  /** Each managed setting as this process has it, relaunch or not. */
  readonly inForce: readonly SettingState[];
  /** What the launcher changes, e.g. "add --heap-growing-percent=25", "remove MALLOC_ARENA_MAX". */
  readonly changes: readonly string[];
  /**
   * The node options and the whole environment to start node with once more, or null when the
   * process runs with the settings already (or was itself started by the launcher).
   */
  readonly relaunch: { readonly execArgv: readonly string[]; readonly env: Record<string, string> } | null;
  /** Whether this process was started by the launcher. */
  readonly relaunched: boolean;
}

/** A runtime control variable with a value the launcher cannot use; the message names it. */
export class RuntimeSettingError extends Error {
  readonly code = "bad_runtime_setting";
}

const FLAG = /^--([A-Za-z0-9][A-Za-z0-9_-]*)(?:=(.*))?$/s;
const VARIABLE = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;
/** Variables the environment list may not set: the user's, or the launcher's own. */
const NOT_IN_ENV_LIST = new Set<string>([
  "NODE_OPTIONS",
  RELAUNCH_MARKER,
  ...Object.values(RUNTIME_CONTROLS),
]);

/** `--heap_growing_percent=25` -> `--heap-growing-percent` (V8 takes both spellings); else undefined. */
export function flagName(token: string): string | undefined {
  const m = FLAG.exec(token);
  return m ? `--${(m[1] as string).replace(/_/g, "-")}` : undefined;
}

function flagValue(token: string): string {
  return FLAG.exec(token)?.[2] ?? "";
}

/** NODE_OPTIONS split as Node splits it: on spaces, with double quotes around a value. */
export function nodeOptionsTokens(value: string | undefined): string[] {
  const tokens: string[] = [];
  for (const m of (value ?? "").matchAll(/(?:[^\s"]+|"(?:\\.|[^"\\])*")+/g)) {
    tokens.push(m[0].replace(/"((?:\\.|[^"\\])*)"/g, (_, inner: string) => inner.replace(/\\(.)/g, "$1")));
  }
  return tokens;
}

/** A control variable's value; empty counts as unset, as for every VDBCLOUD_* variable. */
function control(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === "" ? undefined : v;
}

function parseFlagList(text: string): string[] {
  const name = RUNTIME_CONTROLS.nodeFlags;
  if (text === "none") return [];
  const flags = text.split(/\s+/);
  const seen = new Set<string>();
  for (const f of flags) {
    const n = flagName(f);
    if (n === undefined) {
      throw new RuntimeSettingError(
        `${name}: "${f}" is not a node flag (--name or --name=value, space-separated; none for no flag)`,
      );
    }
    if (seen.has(n)) throw new RuntimeSettingError(`${name}: ${n} is given twice`);
    seen.add(n);
  }
  return flags;
}

function parseEnvList(text: string): Record<string, string> {
  const name = RUNTIME_CONTROLS.env;
  if (text === "none") return {};
  const out: Record<string, string> = {};
  for (const pair of text.split(/\s+/)) {
    const m = VARIABLE.exec(pair);
    if (!m) {
      throw new RuntimeSettingError(
        `${name}: "${pair}" is not NAME=value (space-separated; none for no variable)`,
      );
    }
    const [, key = "", value = ""] = m;
    if (NOT_IN_ENV_LIST.has(key)) throw new RuntimeSettingError(`${name}: may not set ${key}`);
    if (key in out) throw new RuntimeSettingError(`${name}: ${key} is given twice`);
    out[key] = value;
  }
  return out;
}

/** What the user asked for: the wanted settings, and whether they are exact or only defaults. */
interface Wanted {
  readonly control: string;
  readonly flags: readonly string[];
  readonly exactFlags: boolean;
  readonly env: Readonly<Record<string, string>>;
  readonly exactEnv: boolean;
}

function wanted(env: Env, settings: RuntimeSettings): Wanted {
  const onOff = control(env, RUNTIME_CONTROLS.switch);
  const flagList = control(env, RUNTIME_CONTROLS.nodeFlags);
  const envList = control(env, RUNTIME_CONTROLS.env);
  if (onOff !== undefined && onOff !== "on" && onOff !== "off") {
    throw new RuntimeSettingError(`${RUNTIME_CONTROLS.switch}: must be on or off, got "${onOff}"`);
  }
  if (onOff === "off") {
    const also = [flagList && RUNTIME_CONTROLS.nodeFlags, envList && RUNTIME_CONTROLS.env].filter(Boolean);
    if (also.length > 0) {
      throw new RuntimeSettingError(
        `${RUNTIME_CONTROLS.switch}: off leaves no setting, so ${also.join(" and ")} cannot go with it`,
      );
    }
    return {
      control: `${RUNTIME_CONTROLS.switch}=off`,
      flags: [],
      exactFlags: true,
      env: {},
      exactEnv: true,
    };
  }
  const replaced = [flagList && RUNTIME_CONTROLS.nodeFlags, envList && RUNTIME_CONTROLS.env].filter(Boolean);
  return {
    control: replaced.length > 0 ? `built-in, replaced by ${replaced.join(" and ")}` : "built-in",
    flags: flagList === undefined ? settings.nodeFlags : parseFlagList(flagList),
    exactFlags: flagList !== undefined,
    env: envList === undefined ? settings.env : parseEnvList(envList),
    exactEnv: envList !== undefined,
  };
}

const unique = (names: readonly string[]) => [...new Set(names)];

/**
 * The runtime settings resolved for a process started as `start`: the settings its run has, and the relaunch that
 * gives them, if one is needed. Throws RuntimeSettingError for a control variable it cannot use.
 */
export function resolveRuntime(
  start: ProcessStart,
  settings: RuntimeSettings = RUNTIME_SETTINGS,
): ResolvedRuntime {
  const want = wanted(start.env, settings);
  const relaunched = start.env[RELAUNCH_MARKER] !== undefined;
  const changes: string[] = [];
  const byLauncher = new Set<string>();
  const builtInFlags = new Map(settings.nodeFlags.map((f) => [flagName(f) as string, flagValue(f)]));

  // Node flags: the command line is rewritten; NODE_OPTIONS only read.
  const fromOptions = new Map(
    nodeOptionsTokens(start.env.NODE_OPTIONS).flatMap((t) => {
      const n = flagName(t);
      return n === undefined ? [] : [[n, flagValue(t)] as const];
    }),
  );
  const given = (argv: readonly string[]) =>
    new Map(
      argv.flatMap((t) => {
        const n = flagName(t);
        return n === undefined ? [] : [[n, flagValue(t)] as const];
      }),
    );
  const flagNames = unique([...builtInFlags.keys(), ...want.flags.map((f) => flagName(f) as string)]);
  let execArgv = [...start.execArgv];
  if (want.exactFlags) {
    const managed = new Set(flagNames);
    const current = start.execArgv.filter((t) => managed.has(flagName(t) ?? ""));
    const same =
      current.length === want.flags.length &&
      want.flags.every((f) =>
        current.some((t) => flagName(t) === flagName(f) && flagValue(t) === flagValue(f)),
      );
    if (!same) {
      for (const t of current) if (!want.flags.some((f) => f === t)) changes.push(`remove ${t}`);
      for (const f of want.flags) {
        if (current.includes(f)) continue;
        changes.push(`add ${f}`);
        byLauncher.add(flagName(f) as string);
      }
      execArgv = [...want.flags, ...start.execArgv.filter((t) => !managed.has(flagName(t) ?? ""))];
    }
  } else {
    const onCommandLine = given(start.execArgv);
    const missing = want.flags.filter((f) => {
      const n = flagName(f) as string;
      return !onCommandLine.has(n) && !fromOptions.has(n);
    });
    for (const f of missing) {
      changes.push(`add ${f}`);
      byLauncher.add(flagName(f) as string);
    }
    execArgv = [...missing, ...start.execArgv];
  }

  // Environment variables.
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(start.env)) if (v !== undefined) env[k] = v;
  const envNames = unique([...Object.keys(settings.env), ...Object.keys(want.env)]);
  for (const name of envNames) {
    const target = want.env[name];
    const current = start.env[name];
    if (want.exactEnv) {
      if (target === undefined && current !== undefined) {
        delete env[name];
        changes.push(`remove ${name}`);
      } else if (target !== undefined && current !== target) {
        env[name] = target;
        changes.push(`${current === undefined ? "add" : "replace"} ${name}=${target}`);
        byLauncher.add(name);
      }
    } else if (target !== undefined && (current === undefined || current === "")) {
      env[name] = target;
      changes.push(`add ${name}=${target}`);
      byLauncher.add(name);
    }
  }

  const states = (argv: readonly string[], vars: Env): SettingState[] => {
    const flags = given(argv);
    return [
      ...flagNames.map((name): SettingState => {
        const onCommandLine = flags.get(name);
        const inOptions = fromOptions.get(name);
        return {
          kind: "node flag",
          name,
          value: onCommandLine ?? inOptions ?? null,
          source:
            onCommandLine !== undefined ? "command line" : inOptions !== undefined ? "NODE_OPTIONS" : null,
          builtIn: builtInFlags.get(name) ?? null,
          byLauncher: byLauncher.has(name) && argv === execArgv,
        };
      }),
      ...envNames.map(
        (name): SettingState => ({
          kind: "environment variable",
          name,
          value: vars[name] ?? null,
          source: vars[name] === undefined ? null : "environment",
          builtIn: settings.env[name] ?? null,
          byLauncher: byLauncher.has(name) && vars === env,
        }),
      ),
    ];
  };
  return {
    control: want.control,
    settings: states(execArgv, env),
    inForce: states(start.execArgv, start.env),
    changes,
    relaunch: changes.length === 0 || relaunched ? null : { execArgv, env },
    relaunched,
  };
}

/** `--max-semi-space-size=2`, `--flag`, `MALLOC_ARENA_MAX=2`; "(not set)" for an absent one. */
export function formatSetting(s: Pick<SettingState, "kind" | "name" | "value">): string {
  if (s.value === null) return `${s.name} (not set)`;
  if (s.kind === "node flag") return s.value === "" ? s.name : `${s.name}=${s.value}`;
  return `${s.name}=${s.value}`;
}

/**
 * Whether a command line is a long-running exporter (a run or the demo), the only commands the
 * launcher starts node again for: the one-shot ones (--check-config, --probe, --help,
 * --version, backfill) gain nothing from memory settings, and backfill's second Ctrl-C must not
 * arrive twice.
 */
export function isLongRunning(argv: readonly string[]): boolean {
  if (argv[0] === "backfill") return false;
  const oneShot = new Set(["--check-config", "--probe", "--help", "-h", "--version"]);
  return !argv.some((a) => oneShot.has(a));
}
