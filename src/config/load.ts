/**
 * The config pipeline: read the file, parse YAML, substitute `${VAR}`s, validate against the
 * strict schema (which also normalizes to the camelCase shape), read secrets. Every stage reports all of its problems
 * at once in a `ConfigError`.
 */
import { readFile as fsReadFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { ConfigError, type ConfigProblem, describeFsError } from "./errors.js";
import { interpolate } from "./interpolate.js";
import { issuesToProblems } from "./issues.js";
import { configSchema } from "./schema.js";
import { type ReadTextFile, resolveSecrets } from "./secrets.js";
import type { Config } from "./types.js";
import { parseYaml } from "./yaml.js";

/** Options of `buildConfig`. */
interface BuildOptions {
  /** Variables for `${VAR}` and VDBCLOUD_API_KEY. Default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Directory that relative paths (key files, jobs_file, web_config_file) resolve against. Default: cwd. */
  readonly baseDir?: string;
  /** Reads key files. Default: fs.readFile as UTF-8. */
  readonly readFile?: ReadTextFile;
}

/** Options of `loadConfig`: `readFile` also reads the config file itself. */
interface LoadOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly readFile?: ReadTextFile;
}

const readUtf8: ReadTextFile = (path) => fsReadFile(path, "utf8");

/**
 * Validates an already-parsed document (the YAML file's data, or an object built in code such
 * as the demo config) and returns the complete `Config` with every default applied.
 * @throws ConfigError `config_invalid` listing every problem.
 */
export async function buildConfig(raw: unknown, opts: BuildOptions = {}): Promise<Config> {
  const env = opts.env ?? process.env;
  const interpolated = interpolate(raw, env);
  const schema = configSchema(resolve(opts.baseDir ?? process.cwd()));
  const parsed = schema.safeParse(interpolated.value);
  if (!parsed.success) {
    // An unset variable left its field empty; the schema's complaint about that is noise.
    const blamed = new Set(interpolated.problems.map((p) => p.path));
    const schemaProblems = issuesToProblems(parsed.error.issues, schema).filter((p) => !blamed.has(p.path));
    throw new ConfigError("config_invalid", [...interpolated.problems, ...schemaProblems], {
      cause: parsed.error,
    });
  }
  if (interpolated.problems.length > 0) throw new ConfigError("config_invalid", interpolated.problems);
  const secrets = await resolveSecrets(parsed.data, { env, readFile: opts.readFile ?? readUtf8 });
  if (!secrets.ok) throw new ConfigError("config_invalid", secrets.problems);
  return secrets.config;
}

/**
 * Reads and validates the YAML config file at `path`. Relative paths inside it resolve
 * against its directory.
 * @throws ConfigError `config_unreadable`, `config_syntax` or `config_invalid`.
 */
export async function loadConfig(path: string, opts: LoadOptions = {}): Promise<Config> {
  const readFile = opts.readFile ?? readUtf8;
  let text: string;
  try {
    text = await readFile(path);
  } catch (err) {
    const problem: ConfigProblem = { path, message: `cannot read the config file (${describeFsError(err)})` };
    throw new ConfigError("config_unreadable", [problem], { cause: err });
  }
  const raw = parseYaml(text, path);
  return buildConfig(raw, {
    ...(opts.env === undefined ? {} : { env: opts.env }),
    baseDir: dirname(resolve(path)),
    readFile,
  });
}
