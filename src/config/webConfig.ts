/**
 * The Prometheus exporter-toolkit web config file (`server.web_config_file`): TLS and bcrypt
 * basic auth for the exporter's own HTTP server, in the format Prometheus users already know.
 * Every key of the toolkit's format is accepted, so an existing file works as it is:
 * `tls_server_config` {cert_file, key_file, cert, key, client_ca, client_auth_type,
 * client_ca_file, client_allowed_sans, min_version, max_version, cipher_suites,
 * prefer_server_cipher_suites, curve_preferences}, `http_server_config` {http2, headers},
 * `basic_auth_users` {name: bcrypt hash}, `rate_limit` {interval, burst}. The one the exporter
 * cannot honour (`http_server_config.http2`: its server speaks HTTP/1.1) is listed in
 * `ignored`, for the caller to log once. Unknown keys are still errors.
 *
 * This module loads the file and owns the small sections; the TLS section (webTls.ts, with Go's
 * names in webTlsNames.ts) and the bcrypt hashes (webBasicAuth.ts) have modules of their own.
 * Their exports the rest of the exporter uses are re-exported here, so importers name one file.
 */
import { readFile as fsReadFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import * as z from "zod";
import { ConfigError, type ConfigProblem, describeFsError } from "./errors.js";
import { issuesToProblems } from "./issues.js";
import { bcryptHash } from "./webBasicAuth.js";
import {
  asMapping,
  type ReadBinaryFile,
  readTls,
  tlsServerConfigSchema,
  type WebTlsConfig,
} from "./webTls.js";
import { parseYaml } from "./yaml.js";

export { bcryptCost, MAX_BCRYPT_COST } from "./webBasicAuth.js";
export { toTlsOptions } from "./webTls.js";

/** The toolkit's `rate_limit`: a token bucket of `burst` requests refilled one per `intervalMs`. */
export interface WebRateLimit {
  readonly intervalMs: number;
  readonly burst: number;
}

/** A validated web config. An empty file means plain HTTP without authentication. */
export interface WebConfig {
  readonly tls?: WebTlsConfig;
  /** User name -> bcrypt hash. Empty: no authentication. */
  readonly basicAuthUsers: ReadonlyMap<string, string>;
  /** Extra response headers (canonical names). */
  readonly headers: Readonly<Record<string, string>>;
  /** Absent, or an interval of 0: no rate limit. */
  readonly rateLimit?: WebRateLimit;
  /** Settings accepted but not honoured, as `path: why` lines, for the caller to log once. */
  readonly ignored: readonly string[];
}

// The headers the toolkit allows, by lower-cased name.
const ALLOWED_HEADERS = new Map(
  [
    "Strict-Transport-Security",
    "X-Content-Type-Options",
    "X-Frame-Options",
    "X-XSS-Protection",
    "Content-Security-Policy",
  ].map((h) => [h.toLowerCase(), h]),
);

/** A Go duration (`1s`, `100ms`, `1m30s`) in milliseconds, else undefined. */
export function parseGoDuration(text: string): number | undefined {
  if (text === "0") return 0;
  const UNITS: Readonly<Record<string, number>> = {
    ns: 1e-6,
    us: 1e-3,
    µs: 1e-3,
    ms: 1,
    s: 1e3,
    m: 6e4,
    h: 3.6e6,
  };
  const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;
  let ms = 0;
  let at = 0;
  while (at < text.length) {
    part.lastIndex = at;
    const m = part.exec(text);
    if (!m?.[1] || !m[2]) return undefined;
    ms += Number(m[1]) * (UNITS[m[2]] ?? 0);
    at = part.lastIndex;
  }
  return text === "" ? undefined : ms;
}

const goDuration = z
  .union([z.string(), z.number()], { error: "must be a duration such as 1s or 100ms" })
  .transform((v, ctx) => {
    const ms = typeof v === "number" ? (v === 0 ? 0 : undefined) : parseGoDuration(v);
    if (ms === undefined) {
      ctx.addIssue({
        code: "custom",
        message: "must be a duration such as 1s or 100ms (0 disables)",
        input: "",
      });
      return z.NEVER;
    }
    return ms;
  });

const webConfigSchema = z.preprocess(
  (v) => (v === null || v === undefined ? {} : v),
  z.strictObject(
    {
      tls_server_config: tlsServerConfigSchema.optional(),
      basic_auth_users: z
        .record(z.string().min(1, { error: "user names must not be empty" }), bcryptHash, asMapping)
        .optional(),
      http_server_config: z
        .strictObject(
          {
            http2: z.boolean({ error: "must be true or false" }).optional(),
            headers: z
              .record(z.string(), z.string({ error: "must be a string" }), asMapping)
              .superRefine((headers, ctx) => {
                // Checked here rather than on the record's key schema, whose failures zod
                // reports only as a generic "invalid key".
                for (const name of Object.keys(headers)) {
                  if (ALLOWED_HEADERS.has(name.toLowerCase())) continue;
                  ctx.addIssue({
                    code: "custom",
                    message: `only these headers can be set: ${[...ALLOWED_HEADERS.values()].join(", ")}`,
                    path: [name],
                    input: name,
                  });
                }
              })
              .optional(),
          },
          asMapping,
        )
        .optional(),
      rate_limit: z
        .strictObject(
          {
            interval: goDuration.optional(),
            burst: z
              .number({ error: "must be a whole number" })
              .int({ error: "must be a whole number" })
              .min(0, { error: "must not be negative" })
              .optional(),
          },
          asMapping,
        )
        .optional(),
    },
    asMapping,
  ),
);

/**
 * Validates an already-parsed web config document; files resolve against `baseDir`.
 * @throws ConfigError `config_invalid` listing every problem (paths relative to the file).
 */
async function parseWebConfig(
  raw: unknown,
  opts: { readonly baseDir: string; readonly readFile?: ReadBinaryFile },
): Promise<WebConfig> {
  const parsed = webConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError("config_invalid", issuesToProblems(parsed.error.issues, webConfigSchema), {
      cause: parsed.error,
    });
  }
  const problems: ConfigProblem[] = [];
  const ignored: string[] = [];
  const {
    tls_server_config: tlsSection,
    basic_auth_users: users,
    http_server_config: http,
    rate_limit: rateLimit,
  } = parsed.data;
  const tls =
    tlsSection === undefined
      ? undefined
      : await readTls(tlsSection, opts.baseDir, opts.readFile ?? ((p) => fsReadFile(p)), problems, ignored);
  if (problems.length > 0) throw new ConfigError("config_invalid", problems);
  if (http?.http2 !== undefined) {
    ignored.push("http_server_config.http2: the exporter's server speaks HTTP/1.1 only");
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(http?.headers ?? {})) {
    headers[ALLOWED_HEADERS.get(name.toLowerCase()) ?? name] = value;
  }
  const intervalMs = rateLimit?.interval ?? 0;
  return {
    ...(tls === undefined ? {} : { tls }),
    basicAuthUsers: new Map(Object.entries(users ?? {})),
    headers,
    ...(intervalMs > 0 ? { rateLimit: { intervalMs, burst: rateLimit?.burst ?? 0 } } : {}),
    ignored,
  };
}

/**
 * Reads and validates the web config file at `path`; relative paths inside it resolve
 * against its directory, as the toolkit does.
 * @throws ConfigError `config_unreadable`, `config_syntax` or `config_invalid`.
 */
export async function loadWebConfig(
  path: string,
  opts: { readonly readFile?: ReadBinaryFile } = {},
): Promise<WebConfig> {
  const readFile = opts.readFile ?? ((p: string) => fsReadFile(p));
  let text: string;
  try {
    text = (await readFile(path)).toString("utf8");
  } catch (err) {
    throw new ConfigError("config_unreadable", [{ path, message: `cannot read (${describeFsError(err)})` }], {
      cause: err,
    });
  }
  return parseWebConfig(parseYaml(text, path), { baseDir: dirname(resolve(path)), readFile });
}
