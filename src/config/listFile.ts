/**
 * A watched list file (`spark_jobs.jobs_file`, `jobs.ids_file`): a YAML list, or a mapping with
 * that list under one key, validated like the config's own list.
 */
import { readFile as fsReadFile } from "node:fs/promises";
import * as z from "zod";
import { ConfigError, describeFsError } from "./errors.js";
import { issuesToProblems } from "./issues.js";
import type { ReadTextFile } from "./secrets.js";
import { parseYaml } from "./yaml.js";

/** How one kind of list file is read. */
export interface ListFileKind<T> {
  /** The list's schema (duplicates named relative to `key`). */
  readonly list: z.ZodType<T[]>;
  /** The key of the mapping form (`jobs`, `ids`). */
  readonly key: string;
  /** The message for a document of neither form, e.g. "must be a list of job IDs, or ...". */
  readonly shapeMessage: string;
}

/**
 * Reads and validates a list file. An empty file is an empty list. Problem paths are relative
 * to the file (`jobs[2].job_id`, or `[2].job_id` for a bare list).
 * @throws ConfigError `config_unreadable`, `config_syntax` or `config_invalid`.
 */
export async function loadListFile<T>(
  path: string,
  kind: ListFileKind<T>,
  opts: { readonly readFile?: ReadTextFile } = {},
): Promise<T[]> {
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
  const mapping = z.strictObject(
    { [kind.key]: kind.list },
    { error: (issue) => (issue.code === "invalid_type" ? kind.shapeMessage : undefined) },
  );
  const schema: z.ZodType = Array.isArray(raw) ? kind.list : mapping;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = issuesToProblems(parsed.error.issues, schema).map((p) => ({
      path: p.path === "(root)" ? path : p.path,
      message: p.message,
    }));
    throw new ConfigError("config_invalid", problems, { cause: parsed.error });
  }
  return Array.isArray(parsed.data)
    ? (parsed.data as T[])
    : ((parsed.data as Record<string, T[]>)[kind.key] ?? []);
}
