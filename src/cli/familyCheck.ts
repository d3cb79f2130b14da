/**
 * What `--check-config` says about `families.allow` and `families.deny` besides the polling schedule: the
 * shipped alerting and recording rules that read a denied family, and the rules of the lists
 * that match no family at all. Warnings only: the config is valid, and the exporter runs with it.
 */
import { COLLECTORS, STATIC_FAMILIES } from "../collectors/registry.js";
import { loadShippedRules, SHIPPED_RULES_DIR, type ShippedRule } from "../config/shippedRules.js";
import type { Config } from "../config/types.js";
import { SelfMetrics } from "../exposition/selfMetrics.js";
import { HEALTH_FAMILY_NAMES, PROCESS_SELF_HISTOGRAMS } from "../metrics/families.js";
import {
  type FamilyFilter,
  type FamilyLists,
  familyFilter,
  familyListPath,
  unmatchedRules,
} from "../metrics/familyFilter.js";

/** What a denial is called in a warning: the deny rule that matches, or the allow list. */
function deniedBy(filter: FamilyFilter, family: string): string | undefined {
  const denial = filter.denial(family);
  if (denial === undefined) return undefined;
  return denial.list === "deny" ? `families.deny[${denial.index}] denies` : "families.allow does not admit";
}

/**
 * The warnings, one line each: a shipped rule (`rules`, undefined when the package has none to
 * read) that reads a denied family, naming the rule, its file, the family and the list rule that
 * denies it; then each list rule that matches none of `known`.
 */
export function familyWarnings(
  lists: FamilyLists,
  rules: readonly ShippedRule[] | undefined,
  known: Iterable<string>,
): string[] {
  const filter = familyFilter(lists);
  const out: string[] = [];
  if (!filter.everything) {
    for (const rule of rules ?? []) {
      for (const { family, via } of rule.reads) {
        const denied = deniedBy(filter, family);
        if (denied === undefined) continue;
        const what = rule.kind === "alert" ? "alert" : "recording rule";
        const through = via === undefined ? "" : ` (through ${via})`;
        out.push(`${what} ${rule.name} (${rule.file}) reads ${family}${through}, which ${denied}`);
      }
    }
  }
  for (const problem of unmatchedRules(lists, known))
    out.push(`${familyListPath(problem.path)}: ${problem.message}`);
  return out;
}

/**
 * The family warnings of `config` as `--check-config` prints them (a "Warnings:" block, or
 * nothing): against the rules shipped beside the installed package, and every family the
 * registry's collectors, the health and the process metrics can write.
 */
export async function familyCheckText(config: Config, version: string): Promise<string> {
  const lists = config.families;
  if (lists.allow.length === 0 && lists.deny.length === 0) return "";
  // A rule reads a histogram through its _bucket, _sum and _count series.
  const histograms = new Set([
    ...Object.values(PROCESS_SELF_HISTOGRAMS).map((h) => h.name),
    ...STATIC_FAMILIES.filter((f) => f.type === "histogram").map((f) => f.name),
  ]);
  const rules = await loadShippedRules(histograms);
  const known = new Set([
    ...COLLECTORS.flatMap((c) => c.families(config)),
    ...HEALTH_FAMILY_NAMES,
    ...new SelfMetrics({ version, defaultMetrics: true }).familyNames(),
  ]);
  const warnings = familyWarnings(lists, rules, known);
  if (rules === undefined)
    warnings.push(`no shipped rules at ${SHIPPED_RULES_DIR}: not checked against the family lists`);
  return warnings.length === 0 ? "" : `\nWarnings:\n${warnings.map((w) => `  - ${w}`).join("\n")}\n`;
}
