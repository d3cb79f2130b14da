/**
 * The one error type of configuration loading. Its message is meant to be printed as is by
 * `--check-config` and on reload: one `path.to.field: what is wrong` line per problem, no
 * stack, and never a secret value.
 */
import { ExporterError } from "../shared/errors.js";
import { EXIT_FAILURE, EXIT_USAGE } from "../shared/exitCodes.js";

/** Stable codes: `config_invalid` (values), `config_unreadable` (file I/O), `config_syntax` (YAML). */
type ConfigErrorCode = "config_invalid" | "config_unreadable" | "config_syntax";

/**
 * One problem. `path` names the field in the file's own spelling (`clusters[1].id`,
 * `metrics.queries[0].stat`, `api.api_key_file`), or a file location (`FILE:LINE:COL`) for
 * syntax errors and a file name for unreadable files.
 */
export interface ConfigProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * A configuration that cannot be used. `problems` lists every problem found (not just the
 * first); the message is those problems, one per line.
 */
export class ConfigError extends ExporterError {
  readonly code: ConfigErrorCode;
  readonly problems: readonly ConfigProblem[];

  constructor(code: ConfigErrorCode, problems: readonly ConfigProblem[], options?: { cause?: unknown }) {
    super(formatProblems(problems), options);
    this.name = "ConfigError";
    this.code = code;
    this.problems = problems;
  }
}

/** Renders problems as `path: message` lines (a problem without a path is its message alone). */
export function formatProblems(problems: readonly ConfigProblem[]): string {
  return problems.map((p) => (p.path === "" ? p.message : `${p.path}: ${p.message}`)).join("\n");
}

/**
 * Formats a path of keys and indexes the way the file is written: `clusters[1].scopes[0].db_name`.
 * The empty path (the document itself) is `(root)`.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
}

/**
 * Describes an OS-level file error by its code (ENOENT, EACCES, ...) so that a problem names
 * the cause without a stack trace.
 */
export function describeFsError(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return "ENOENT: no such file";
  if (code === "EACCES" || code === "EPERM") return `${code}: permission denied`;
  if (code === "EISDIR") return "EISDIR: is a directory";
  if (typeof code === "string") return code;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Tells a command's user why its config could not be read, on `out`, and returns the exit code:
 * a config the user can fix exits 2 (as bad arguments do), anything else is a failure (1). Every
 * command that reads a config (the server, backfill, slo-rules) ends this way.
 */
export function reportConfigError(err: unknown, out: { write(text: string): unknown }): number {
  if (err instanceof ConfigError) {
    out.write(`configuration invalid:\n${err.message}\n`);
    return EXIT_USAGE;
  }
  out.write(`error: ${(err as Error)?.message ?? String(err)}\n`);
  return EXIT_FAILURE;
}
