/**
 * The watched `spark_jobs.jobs_file`: a YAML list of `{project_id, job_id}`, or a mapping
 * `{jobs: [...]}` with that list, validated like `spark_jobs.jobs`.
 */
import { readFile as fsReadFile } from "node:fs/promises";
import * as z from "zod";
import { ConfigError, describeFsError } from "./errors.js";
import { issuesToProblems } from "./issues.js";
import { sparkJobListSchema } from "./schema.js";
import type { ReadTextFile } from "./secrets.js";
import type { SparkJobRef } from "./types.js";
import { parseYaml } from "./yaml.js";

const listSchema = sparkJobListSchema("jobs");
const mappingSchema = z.strictObject(
  { jobs: listSchema },
  {
    error: (issue) =>
      issue.code === "invalid_type"
        ? "must be a list of {project_id, job_id}, or a mapping with such a jobs list"
        : undefined,
  },
);

/**
 * Reads and validates a Spark jobs file. An empty file is an empty list. Problem paths are
 * relative to the file (`jobs[2].job_id`, or `[2].job_id` for a bare list).
 * @throws ConfigError `config_unreadable`, `config_syntax` or `config_invalid`.
 */
export async function loadSparkJobsFile(
  path: string,
  opts: { readonly readFile?: ReadTextFile } = {},
): Promise<SparkJobRef[]> {
  let text: string;
  try {
    text = await (opts.readFile ?? ((p: string) => fsReadFile(p, "utf8")))(path);
  } catch (err) {
    throw new ConfigError("config_unreadable", [{ path, message: `cannot read (${describeFsError(err)})` }], {
      cause: err,
    });
  }
  const raw = parseYaml(text, path) ?? [];
  // Pick the variant by the document's shape, so problems are about that variant and not a
  // generic "no union member matched".
  const schema = Array.isArray(raw) ? listSchema : mappingSchema;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = issuesToProblems(parsed.error.issues, schema).map((p) => ({
      path: p.path === "(root)" ? path : p.path,
      message: p.message,
    }));
    throw new ConfigError("config_invalid", problems, { cause: parsed.error });
  }
  return Array.isArray(parsed.data) ? parsed.data : parsed.data.jobs;
}
