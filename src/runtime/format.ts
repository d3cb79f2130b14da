/** The runtime settings as `--check-config` prints them and the landing page shows them. */
import {
  formatSetting,
  type ProcessStart,
  type ResolvedRuntime,
  RuntimeSettingError,
  resolveRuntime,
  type SettingState,
} from "./resolve.js";

/** The runtime settings a running exporter has, in words, for its landing page. */
export interface RuntimeInForce {
  /** What chose them: "built-in", "VDBCLOUD_RUNTIME=off", or the replacing variables. */
  readonly control: string;
  /** Whether the launcher started this process (the settings were missing where it was started). */
  readonly relaunched: boolean;
  /** Each setting: its kind, as written ("--max-semi-space-size=64"), and where it comes from. */
  readonly settings: readonly { readonly kind: string; readonly setting: string; readonly from: string }[];
}

/** The landing page's view of the resolved settings: the settings of this very process. */
export function inForce(plan: ResolvedRuntime): RuntimeInForce {
  return {
    control: plan.control,
    relaunched: plan.relaunched,
    settings: plan.inForce.map((s) => ({ kind: s.kind, setting: formatSetting(s), from: describeSource(s) })),
  };
}

/** Where a setting comes from, in words: "command line", "environment, added by the launcher". */
function describeSource(s: SettingState): string {
  if (s.value === null) return s.builtIn === null ? "not set" : `not set (built-in: ${s.builtIn})`;
  const source = s.source ?? "";
  if (s.byLauncher) return `${source}, set by the launcher`;
  if (s.builtIn !== null && s.value !== s.builtIn) return `${source}, instead of the built-in ${s.builtIn}`;
  return source;
}

/** The settings a run started like this process gets, and what the launcher does for them. */
export function formatRuntimeSettings(plan: ResolvedRuntime): string {
  const rows = plan.settings.map((s) => [formatSetting(s), `${s.kind}: ${describeSource(s)}`] as const);
  const width = Math.max(...rows.map(([setting]) => setting.length));
  const lines = [`Runtime settings of a run (${plan.control}; docs/runtime.md):`];
  for (const [setting, how] of rows) lines.push(`  ${setting.padEnd(width)}  ${how}`);
  if (plan.changes.length === 0) {
    lines.push("A run has them as started: the launcher starts no other node process.");
  } else {
    lines.push(`For a run the launcher starts node once more, to ${plan.changes.join(", ")}.`);
  }
  return lines.join("\n");
}

/**
 * `--check-config`'s part: prints what a run started like `start` gets and returns exit 0, or
 * 2 after naming a control variable that a run would refuse too.
 */
export function printRuntimeSettings(
  start: ProcessStart,
  out: {
    readonly stdout: { write(text: string): unknown };
    readonly stderr: { write(text: string): unknown };
  },
): number {
  try {
    out.stdout.write(`\n${formatRuntimeSettings(resolveRuntime(start))}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof RuntimeSettingError)) throw err;
    out.stderr.write(`runtime settings invalid:\n${err.message}\n`);
    return 2;
  }
}

/**
 * The settings this process runs with, for the landing page; undefined for a control variable
 * it cannot read (the launcher ends a run for that before it starts, so only by hand).
 */
export function runtimeInForce(start: ProcessStart): RuntimeInForce | undefined {
  try {
    return inForce(resolveRuntime(start));
  } catch {
    return undefined;
  }
}
