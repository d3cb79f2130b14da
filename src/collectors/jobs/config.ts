import { durationField, textField } from "../../config/fields.js";
import { DAY, HOUR, idList, type ResolvePath, SECOND } from "../../config/schema/common.js";
import { nullAsAbsent, optional, section } from "../../config/schemaKit.js";
import { configSection, type SectionSettings } from "../../config/section.js";

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

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof JOBS_SECTION> {}
}
