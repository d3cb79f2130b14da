/**
 * The watched `jobs.ids_file`: a YAML list of job IDs, or a mapping `{ids: [...]}` with that
 * list, validated like `jobs.ids`.
 */
import { type ListFileKind, loadListFile } from "./listFile.js";
import { jobIdListSchema } from "./schema.js";
import type { ReadTextFile } from "./secrets.js";

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
