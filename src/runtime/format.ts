/** The runtime settings as `--check-config` prints them and the landing page shows them. */
import { formatSetting, type RuntimePlan, type SettingState } from "./resolve.js";

/** The runtime settings a running exporter has, for its landing page. */
export interface RuntimeInForce {
  /** What chose them: "built-in", "VDBCLOUD_RUNTIME=off", or the replacing variables. */
  readonly control: string;
  /** Whether the launcher started this process (the settings were missing where it was started). */
  readonly relaunched: boolean;
  readonly settings: readonly SettingState[];
}

/** The landing page's view of a plan: the settings of this very process. */
export function inForce(plan: RuntimePlan): RuntimeInForce {
  return { control: plan.control, relaunched: plan.relaunched, settings: plan.inForce };
}

/** Where a setting comes from, in words: "command line", "environment, added by the launcher". */
export function describeSource(s: SettingState): string {
  if (s.value === null) return s.builtIn === null ? "not set" : `not set (built-in: ${s.builtIn})`;
  const source = s.source ?? "";
  if (s.byLauncher) return `${source}, set by the launcher`;
  if (s.builtIn !== null && s.value !== s.builtIn) return `${source}, instead of the built-in ${s.builtIn}`;
  return source;
}

/** The settings a run started like this process gets, and what the launcher does for them. */
export function formatRuntimePlan(plan: RuntimePlan): string {
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
