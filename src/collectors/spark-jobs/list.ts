/**
 * The Spark jobs the config lists by hand: `spark_jobs.jobs`, and the watched
 * `spark_jobs.jobs_file` (a YAML list of `{project_id, job_id}`, or a mapping `{jobs: [...]}`
 * with that list, validated like `spark_jobs.jobs`).
 */
import { type ListFileKind, loadListFile } from "../../config/listFile.js";
import type { ReadTextFile } from "../../config/secrets.js";
import { targetList } from "../../polling/targetLists.js";
import { type SparkJobRef, sparkJobListSchema } from "./config.js";

const KIND: ListFileKind<SparkJobRef> = {
  list: sparkJobListSchema("jobs"),
  key: "jobs",
  shapeMessage: "must be a list of {project_id, job_id}, or a mapping with such a jobs list",
};

/** A Spark job's target name (and shard key): "projectId/jobId". */
export function sparkTargetName(ref: SparkJobRef): string {
  return `${ref.projectId}/${ref.jobId}`;
}

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

/** The configured Spark jobs: the config's and the jobs file's, each once. */
export const SPARK_JOBS_LIST = targetList<SparkJobRef>({
  title: "Spark jobs",
  line: (j) => `spark job ${j.projectId}/${j.jobId}`,
  fileName: "spark jobs file",
  countField: "jobs",
  configuredAt: "spark_jobs.jobs",
  configured: (config) => config.sparkJobs.jobs,
  file: (config) => config.sparkJobs.jobsFile,
  load: (path) => loadSparkJobsFile(path),
  key: sparkTargetName,
});
