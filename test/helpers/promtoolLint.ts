/**
 * `promtool check metrics` as a list of findings, and the findings the contract names of
 * docs/design.md section 5 cause and the project accepts.
 */
import { execFileSync } from "node:child_process";

/** promtool's lint findings on `text`, one per line (it exits non-zero when there are any). */
export function promtoolLint(path: string, text: string): string[] {
  let out: string;
  try {
    out = execFileSync(path, ["check", "metrics"], { input: text, encoding: "utf8" });
  } catch (err) {
    out = `${(err as { stdout?: string }).stdout ?? ""}${(err as { stderr?: string }).stderr ?? ""}`;
  }
  return out.split("\n").filter((l) => l.trim() !== "");
}

/**
 * Findings a contract name causes, exactly as promtool words them: the design names the policy's
 * retention in days, the unit the service's policy is set in (retentionDays).
 */
export const CONTRACT_LINT_EXCEPTIONS: readonly string[] = [
  'vdbcloud_backup_policy_retention_days use base unit "seconds" instead of "days"',
];

/** Findings other than the accepted ones. */
export function unexpectedLint(path: string, text: string): string[] {
  return promtoolLint(path, text).filter((l) => !CONTRACT_LINT_EXCEPTIONS.includes(l));
}
