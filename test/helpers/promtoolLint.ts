/**
 * `promtool check metrics` as a list of findings, or as its exit code. The exporter's whole
 * output passes it: its own families, and prom-client's process metrics less the three gauges
 * named like counters (nodejs_active_*_total), which the exporter drops.
 */
import { execFileSync, spawnSync } from "node:child_process";

/**
 * promtool's lint findings on `text`, one per line (it exits non-zero when there are any and
 * prints them on stderr, kept here rather than echoed into the test output).
 */
export function promtoolLint(path: string, text: string): string[] {
  let out: string;
  try {
    out = execFileSync(path, ["check", "metrics"], { input: text, encoding: "utf8", stdio: "pipe" });
  } catch (err) {
    out = `${(err as { stdout?: string }).stdout ?? ""}${(err as { stderr?: string }).stderr ?? ""}`;
  }
  return out.split("\n").filter((l) => l.trim() !== "");
}

/** A finding on one of prom-client's default process metrics (collectDefaultMetrics). */
const PROCESS_METRIC_FINDING = /^(nodejs|process)_[a-z0-9_]+ /;

/**
 * The findings other than those on prom-client's default process metrics: the exporter's own
 * families, and any parse error (which names no family), must give none.
 */
export function exporterLint(path: string, text: string): string[] {
  return promtoolLint(path, text).filter((l) => !PROCESS_METRIC_FINDING.test(l));
}

/** promtool's exit code on `text` (0: no finding, 3: lint findings, 1: a parse error). */
export function promtoolExitCode(path: string, text: string): number | null {
  return spawnSync(path, ["check", "metrics"], { input: text, encoding: "utf8", stdio: "pipe" }).status;
}
