/**
 * The `spark_jobs` section, and the shape of one Spark job reference (also the item shape of
 * `spark_jobs.jobs_file`).
 */
import * as z from "zod";
import { settingsSection } from "../../config/camelSettings.js";
import { boolField, durationField, intField, textField } from "../../config/fields.js";
import { DAY, HOUR, MINUTE, pathField, type ResolvePath, SECOND } from "../../config/schema/common.js";
import { nullAsAbsent, sectionError, text, uniqueList } from "../../config/schemaKit.js";
import { configSection, type SectionSettings } from "../../config/section.js";

/** One Spark job reference; also the item shape of `spark_jobs.jobs_file`. */
const sparkJobSchema = z.strictObject(
  {
    project_id: textField(),
    job_id: textField(),
  },
  { error: sectionError },
);

/**
 * A list of Spark job references without duplicates, output in camelCase (`SparkJobRef`);
 * `where` prefixes the duplicate message.
 */
export function sparkJobListSchema(where: string) {
  return uniqueList(
    sparkJobSchema,
    (j) => {
      const project = text(j.project_id);
      const job = text(j.job_id);
      return project === undefined || job === undefined ? undefined : JSON.stringify([project, job]);
    },
    (first) => `duplicate of ${where}[${first}]`,
  ).transform((jobs) => jobs.map((job) => ({ projectId: job.project_id, jobId: job.job_id })));
}

function sparkJobsSchema(resolvePath: ResolvePath) {
  return settingsSection({
    interval: durationField({ min: SECOND, max: DAY }).default(30 * SECOND),
    retention: durationField({ min: 0 }).default(HOUR),
    // prefault, not default: the JSON Schema (input side) keeps documenting the empty default.
    jobs: nullAsAbsent(sparkJobListSchema("spark_jobs.jobs").prefault([])),
    /** Watched YAML file (absolute once parsed) with the same shape as `jobs` (a list, or `{ jobs: [...] }`). */
    jobs_file: pathField(resolvePath).optional(),
    discovery: settingsSection({
      /** List Spark Jobs for every polled cluster. */
      enabled: boolField().default(true),
      interval: durationField({ min: SECOND, max: DAY }).default(MINUTE),
      /** Cap on listed jobs per cluster that get per-job series (and Describe calls). */
      max_per_cluster: intField(1, 100_000).default(500),
    }),
  });
}

export const SPARK_JOBS_SECTION = configSection("spark_jobs", ({ resolvePath }) =>
  sparkJobsSchema(resolvePath),
);

/** One Spark job to poll (an item of `spark_jobs.jobs` or of the jobs file). */
export type SparkJobRef = z.output<ReturnType<typeof sparkJobListSchema>>[number];

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof SPARK_JOBS_SECTION> {}
}
