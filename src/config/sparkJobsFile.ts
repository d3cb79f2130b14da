/**
 * The watched `spark_jobs.jobs_file`: a YAML list of `{project_id, job_id}`, or a mapping
 * `{jobs: [...]}` with that list, validated like `spark_jobs.jobs`.
 */
import { type ListFileKind, loadListFile } from "./listFile.js";
import { sparkJobListSchema } from "./schema.js";
import type { ReadTextFile } from "./secrets.js";
import type { SparkJobRef } from "./types.js";

const KIND: ListFileKind<SparkJobRef> = {
  list: sparkJobListSchema("jobs"),
  key: "jobs",
  shapeMessage: "must be a list of {project_id, job_id}, or a mapping with such a jobs list",
};

/**
 * Reads and validates a Spark jobs file. An empty file is an empty list. Problem paths are
 * relative to the file (`jobs[2].job_id`, or `[2].job_id` for a bare list).
 * @throws ConfigError `config_unreadable`, `config_syntax` or `config_invalid`.
 */
export function loadSparkJobsFile(
  path: string,
  opts: { readonly readFile?: ReadTextFile } = {},
): Promise<SparkJobRef[]> {
  return loadListFile(path, KIND, opts);
}
