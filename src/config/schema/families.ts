/**
 * The `families:` section: which families the exporter exposes (docs/design.md section 4).
 * Each rule is a regular expression matched against a whole family name; a rule that would
 * hide one of the exporter's health families is refused here, naming the rule.
 */
import * as z from "zod";
import { healthProblems } from "../../metrics/familyFilter.js";
import { regexField } from "../fields.js";
import { always, type Ctx, isRecord, list, nullAsAbsent, section } from "../schemaKit.js";

/** The strings of a partially parsed list (a check runs even when an item failed). */
function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

function refuseHiddenHealth(value: unknown, ctx: Ctx): void {
  if (!isRecord(value)) return;
  for (const problem of healthProblems({ allow: strings(value.allow), deny: strings(value.deny) })) {
    ctx.addIssue({ code: "custom", message: problem.message, path: [...problem.path], input: undefined });
  }
}

/** Its keys are its settings' names: no mapping. */
export const familiesSchema = section({
  /** Rules on whole family names; empty: every family. */
  allow: nullAsAbsent(list(regexField()).default([])),
  /** Rules on whole family names; a family one of them matches is not exposed. */
  deny: nullAsAbsent(list(regexField()).default([])),
}).check(z.superRefine(refuseHiddenHealth, always));
