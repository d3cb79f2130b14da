/**
 * The `jobs:` section: any control-plane job by its ID (migrations, backups, restores,
 * collection clones, imports), polled with Describe Job (V2) until it finishes
 * (docs/design.md section 4). There is no list of such jobs: their IDs come from the calls
 * that started them, so they are named here or in the watched `ids_file`.
 */
import type * as z from "zod";
import { durationField, textField } from "../../config/fields.js";
import { DAY, HOUR, idList, type ResolvePath, SECOND } from "../../config/schema/common.js";
import { type DeepReadonly, nullAsAbsent, optional, section } from "../../config/schemaKit.js";
import { configSection } from "../../config/section.js";

/** Job IDs, each listed once; a repeat names the first occurrence (`where[i]`). */
export function jobIdListSchema(where: string) {
  return idList(where);
}

function jobsSchema(resolvePath: ResolvePath) {
  return section({
    // prefault, not default: the JSON Schema (input side) keeps documenting the empty default.
    ids: nullAsAbsent(jobIdListSchema("jobs.ids").prefault([])),
    ids_file: textField().optional(),
    interval: durationField({ min: SECOND, max: DAY }).default(30 * SECOND),
    retention: durationField({ min: 0 }).default(HOUR),
  }).transform((jobs) => ({
    /** Job IDs to poll, in file order; empty (and no file): nothing is polled. */
    ids: jobs.ids,
    /** Watched YAML file (absolute path): a list of job IDs, or `{ ids: [...] }`. */
    ...optional("idsFile", jobs.ids_file === undefined ? undefined : resolvePath(jobs.ids_file)),
    intervalMs: jobs.interval,
    /** How long a finished job's series stay after it finished. */
    retentionMs: jobs.retention,
  }));
}

export const JOBS_SECTION = configSection("jobs", ({ resolvePath }) => jobsSchema(resolvePath));

declare module "../../config/section.js" {
  interface CollectorSections {
    readonly jobs: DeepReadonly<z.output<ReturnType<typeof jobsSchema>>>;
  }
}
