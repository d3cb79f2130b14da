import { settingsSection } from "../../config/camelSettings.js";
import { durationField } from "../../config/fields.js";
import { DAY, HOUR, idList, pathField, type ResolvePath, SECOND } from "../../config/schema/common.js";
import { nullAsAbsent } from "../../config/schemaKit.js";
import { configSection, type SectionSettings } from "../../config/section.js";

/** Job IDs, each listed once; a repeat names the first occurrence (`where[i]`). */
export function jobIdListSchema(where: string) {
  return idList(where);
}

function jobsSchema(resolvePath: ResolvePath) {
  return settingsSection({
    /** Job IDs to poll, in file order; empty (and no file): nothing is polled. */
    // prefault, not default: the JSON Schema (input side) keeps documenting the empty default.
    ids: nullAsAbsent(jobIdListSchema("jobs.ids").prefault([])),
    /** Watched YAML file (absolute once parsed): a list of job IDs, or `{ ids: [...] }`. */
    ids_file: pathField(resolvePath).optional(),
    interval: durationField({ min: SECOND, max: DAY }).default(30 * SECOND),
    /** How long a finished job's series stay after it finished. */
    retention: durationField({ min: 0 }).default(HOUR),
  });
}

export const JOBS_SECTION = configSection("jobs", ({ resolvePath }) => jobsSchema(resolvePath));

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof JOBS_SECTION> {}
}
