/**
 * The `groups:` section: SCIM group IDs whose member counts are exported (List Group Members),
 * for access audits (docs/design.md section 4).
 */
import * as z from "zod";
import { durationField, textField } from "../fields.js";
import { always, list, nullAsAbsent, section } from "../schemaKit.js";
import { DAY, HOUR, SECOND } from "./common.js";

/** Group IDs, each non-empty and listed once; a repeat names the first occurrence. */
const groupIds = list(textField()).check(
  z.superRefine((ids: unknown, ctx) => {
    if (!Array.isArray(ids)) return;
    const first = new Map<string, number>();
    ids.forEach((id, index) => {
      if (typeof id !== "string") return;
      const at = first.get(id);
      if (at === undefined) first.set(id, index);
      else
        ctx.addIssue({ code: "custom", message: `duplicate of groups.ids[${at}]`, path: [index], input: id });
    });
  }, always),
);

export const groupsSchema = section({
  // prefault, not default: the JSON Schema (input side) keeps documenting the empty default.
  ids: nullAsAbsent(groupIds.prefault([])),
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(HOUR),
}).transform((groups) => ({
  /** SCIM group IDs, in file order; empty: no group is polled. */
  ids: groups.ids,
  intervalMs: groups.interval,
}));
