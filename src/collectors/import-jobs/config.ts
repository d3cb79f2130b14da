/**
 * The `import_jobs` section.
 */
import * as z from "zod";
import { settingsSection } from "../../config/camelSettings.js";
import { boolField, durationField, intField } from "../../config/fields.js";
import { DAY, HOUR, MINUTE, SECOND } from "../../config/schema/common.js";
import { configSection, type SectionSettings } from "../../config/section.js";

/** Which List Import Jobs the collector calls: V2 (v1 where V2 is refused), V2 only, or v1 only. */
const IMPORT_JOB_APIS = ["auto", "v2", "v1"] as const;

const importJobsSchema = settingsSection({
  enabled: boolField().default(true),
  interval: durationField({ min: SECOND, max: DAY }).default(MINUTE),
  page_size: intField(5, 100).default(100),
  retention: durationField({ min: 0 }).default(HOUR),
  /** Cap on per-job series per cluster; jobs over it are counted, not exposed. */
  max_jobs_per_cluster: intField(1, 100_000).default(1000),
  /**
   * auto: List Import Jobs (V2), falling back to v1 per cluster where V2 is refused as an
   * unknown endpoint; v2 or v1: that one only. Only v1 needs the cluster's region.
   */
  api: z.enum(IMPORT_JOB_APIS, { error: "must be auto, v2 or v1" }).default("auto"),
  /** Get Import Job Progress calls per cluster per cycle (V2 listings only); 0: none. */
  progress_max: intField(0, 1000).default(20),
});

export const IMPORT_JOBS_SECTION = configSection("import_jobs", () => importJobsSchema);

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof IMPORT_JOBS_SECTION> {}
}
