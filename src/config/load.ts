/**
 * How a config file is read: read the file, parse YAML, substitute `${VAR}`s, validate against the
 * strict schema (which also normalizes to the camelCase shape), read secrets. Every stage reports all of its problems
 * at once in a `ConfigError`.
 */
import { readFile as fsReadFile, open } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { ConfigError, type ConfigProblem, describeFsError } from "./errors.js";
import { interpolate } from "./interpolate.js";
import { issuesToProblems } from "./issues.js";
import { type ConfigDraft, configSchema } from "./schema.js";
import { type ReadTextFile, resolveSecrets } from "./secrets.js";
import { registeredSections } from "./section.js";
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
 * The largest config file read. A config of a thousand clusters is well under 1 MB; a larger
 * file is a mistake (a log, a binary, a dump), and parsing one costs gigabytes.
 */
export const MAX_CONFIG_BYTES = 10 * 1024 * 1024;

/** A file that is not YAML text, refused in one line that never echoes its content. */
const NOT_TEXT = "is not a text file (it holds NUL bytes or is not valid UTF-8); a config file is YAML text";

/**
 * The config file's text, after the checks that keep a wrong path cheap: a regular file (not a
 * directory or a device), at most MAX_CONFIG_BYTES (checked before reading, on the open file),
 * UTF-8 text without NUL bytes.
 * @throws ConfigError `config_unreadable` naming the file and the problem.
 */
export async function readConfigFile(path: string): Promise<string> {
  const refuse = (message: string, cause?: unknown): never => {
    throw new ConfigError(
      "config_unreadable",
      [{ path, message }],
      cause === undefined ? undefined : { cause },
    );
  };
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, "r");
  } catch (err) {
    return refuse(`cannot read the config file (${describeFsError(err)})`, err);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) refuse("is a directory, not a config file");
    if (!info.isFile())
      refuse("is not a regular file (a device, socket or pipe); a config file is YAML text");
    if (info.size > MAX_CONFIG_BYTES) {
      refuse(`is ${info.size} bytes, over the ${MAX_CONFIG_BYTES / 1024 / 1024} MB a config file may be`);
    }
    const bytes = await handle.readFile();
    // A file that grew between the check and the read is held to the same bound.
    if (bytes.length > MAX_CONFIG_BYTES) {
      refuse(`is over the ${MAX_CONFIG_BYTES / 1024 / 1024} MB a config file may be`);
    }
    return decodeConfigText(bytes, path);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    return refuse(`cannot read the config file (${describeFsError(err)})`, err);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * UTF-8 text of a config file's bytes.
 * @throws ConfigError `config_unreadable` when they hold NUL bytes or are not valid UTF-8.
 */
function decodeConfigText(bytes: Uint8Array, path: string): string {
  if (bytes.includes(0)) throw new ConfigError("config_unreadable", [{ path, message: NOT_TEXT }]);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (err) {
    throw new ConfigError("config_unreadable", [{ path, message: NOT_TEXT }], { cause: err });
  }
}

/** The same bound and text check on text an injected reader gave (tests, tools). */
function checkConfigText(text: string, path: string): string {
  if (Buffer.byteLength(text, "utf8") > MAX_CONFIG_BYTES) {
    throw new ConfigError("config_unreadable", [
      { path, message: `is over the ${MAX_CONFIG_BYTES / 1024 / 1024} MB a config file may be` },
    ]);
  }
  if (text.includes("\u0000") || text.includes("\uFFFD")) {
    throw new ConfigError("config_unreadable", [{ path, message: NOT_TEXT }]);
  }
  return text;
}

/**
 * Validates an already-parsed document (the YAML file's data, or an object built in code such
 * as the demo config) and returns the complete `Config` with every default applied.
 * @throws ConfigError `config_invalid` listing every problem.
 */
export async function buildConfig(raw: unknown, opts: BuildOptions = {}): Promise<Config> {
  const env = opts.env ?? process.env;
  const draft = validateConfig(raw, opts);
  const secrets = await resolveSecrets(draft, { env, readFile: opts.readFile ?? readUtf8 });
  if (!secrets.ok) throw new ConfigError("config_invalid", secrets.problems);
  return secrets.config;
}

/**
 * Validates a parsed document as buildConfig does, without reading its secrets: every setting
 * but the credentials, and where those come from.
 * @throws ConfigError `config_invalid` listing every problem.
 */
function validateConfig(raw: unknown, opts: BuildOptions): ConfigDraft {
  const env = opts.env ?? process.env;
  const interpolated = interpolate(raw, env);
  const schema = configSchema(resolve(opts.baseDir ?? process.cwd()), registeredSections());
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
  return parsed.data;
}

/**
 * Reads and validates the YAML config file at `path` like loadConfig, without reading a key:
 * its settings, for a command that calls nothing (the error-budget rules are rendered from them).
 * @throws ConfigError `config_unreadable`, `config_syntax` or `config_invalid`.
 */
export async function loadConfigSettings(path: string): Promise<ConfigDraft["config"]> {
  const raw = parseYaml(await readConfigFile(path), path);
  return validateConfig(raw, { baseDir: dirname(resolve(path)) }).config;
}

/**
 * Reads and validates the YAML config file at `path` (see readConfigFile for what is refused
 * before parsing). Relative paths inside it resolve against its directory.
 * @throws ConfigError `config_unreadable`, `config_syntax` or `config_invalid`.
 */
export async function loadConfig(path: string, opts: LoadOptions = {}): Promise<Config> {
  const readFile = opts.readFile ?? readUtf8;
  let text: string;
  if (opts.readFile === undefined) text = await readConfigFile(path);
  else {
    try {
      text = checkConfigText(await readFile(path), path);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      const problem: ConfigProblem = {
        path,
        message: `cannot read the config file (${describeFsError(err)})`,
      };
      throw new ConfigError("config_unreadable", [problem], { cause: err });
    }
  }
  const raw = parseYaml(text, path);
  return buildConfig(raw, {
    ...(opts.env === undefined ? {} : { env: opts.env }),
    baseDir: dirname(resolve(path)),
    readFile,
  });
}
