/**
 * The job IDs the config lists: `jobs.ids`, and the watched `jobs.ids_file` (a YAML list of job
 * IDs, or a mapping `{ids: [...]}` with that list, validated like `jobs.ids`). There is no
 * listing of such jobs: their IDs come from the calls that started them.
 */
import { type ListFileKind, loadListFile } from "../../config/listFile.js";
import type { ReadTextFile } from "../../config/secrets.js";
import { targetList } from "../../polling/targetLists.js";
import { jobIdListSchema } from "./config.js";

const KIND: ListFileKind<string> = {
  list: jobIdListSchema("ids"),
  key: "ids",
  shapeMessage: "must be a list of job IDs, or a mapping with such an ids list",
};

/**
 * Reads and validates a job IDs file. An empty file is an empty list. Problem paths are
 * relative to the file (`ids[2]`, or `[2]` for a bare list).
 * @throws ConfigError `config_unreadable`, `config_syntax` or `config_invalid`.
 */
export function loadJobIdsFile(
  path: string,
  opts: { readonly readFile?: ReadTextFile } = {},
): Promise<string[]> {
  return loadListFile(path, KIND, opts);
}

/** The jobs by ID: `jobs.ids` and the IDs file's, each once (keyed by job ID). */
export const JOB_IDS_LIST = targetList<string>({
  title: "job IDs",
  line: (id) => `job ${id}`,
  fileName: "job IDs file",
  countField: "ids",
  configuredAt: "jobs.ids",
  configured: (config) => config.jobs.ids,
  file: (config) => config.jobs.idsFile,
  load: (path) => loadJobIdsFile(path),
  key: (id) => id,
});
