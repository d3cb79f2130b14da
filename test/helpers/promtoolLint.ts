/**
 * `promtool check metrics` as a list of findings. Every `vdbcloud_` family must pass it; the only
 * findings the project accepts are those on prom-client's default Node.js process metrics, whose
 * names are prom-client's (it exposes gauges such as nodejs_active_handles_total).
 */
import { execFileSync } from "node:child_process";

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
