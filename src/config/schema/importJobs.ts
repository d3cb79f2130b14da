/**
 * The `import_jobs` section.
 */
import { boolField, durationField, intField } from "../fields.js";
import { section } from "../schemaKit.js";
import { DAY, HOUR, MINUTE, SECOND } from "./common.js";

export const importJobsSchema = section({
  enabled: boolField().default(true),
  interval: durationField({ min: SECOND, max: DAY }).default(MINUTE),
  page_size: intField(5, 100).default(100),
  retention: durationField({ min: 0 }).default(HOUR),
  max_jobs_per_cluster: intField(1, 100_000).default(1000),
}).transform((imports) => ({
  enabled: imports.enabled,
  intervalMs: imports.interval,
  pageSize: imports.page_size,
  retentionMs: imports.retention,
  /** Cap on per-job series per cluster; jobs over it are counted, not exposed. */
  maxJobsPerCluster: imports.max_jobs_per_cluster,
}));
