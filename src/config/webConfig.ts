/**
 * The Prometheus exporter-toolkit web config file (`server.web_config_file`): TLS and bcrypt
 * basic auth for the exporter's own HTTP server, in the format Prometheus users already know.
 * Supported: `tls_server_config` {cert_file, key_file, client_auth_type, client_ca_file,
 * min_version, max_version}, `basic_auth_users` {name: bcrypt hash}, `http_server_config`
 * {headers}. Anything else is an error, so a setting is never silently ignored.
 */
import { readFile as fsReadFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { createSecureContext, type SecureVersion, type TlsOptions } from "node:tls";
import * as z from "zod";
import { ConfigError, type ConfigProblem, describeFsError } from "./errors.js";
import { issuesToProblems } from "./issues.js";
import { parseYaml } from "./yaml.js";

/** Client certificate policies, named as in Go's crypto/tls (the toolkit's spelling). */
type ClientAuthType =
  | "NoClientCert"
  | "RequestClientCert"
  | "RequireAnyClientCert"
  | "VerifyClientCertIfGiven"
  | "RequireAndVerifyClientCert";

/** TLS settings with the PEM material already read. */
interface WebTlsConfig {
  readonly certFile: string;
  readonly keyFile: string;
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly clientAuthType: ClientAuthType;
  readonly clientCaFile?: string;
  readonly clientCa?: Buffer;
  readonly minVersion: SecureVersion;
  readonly maxVersion?: SecureVersion;
}

/** A validated web config. An empty file means plain HTTP without authentication. */
export interface WebConfig {
  readonly tls?: WebTlsConfig;
  /** User name -> bcrypt hash. Empty: no authentication. */
  readonly basicAuthUsers: ReadonlyMap<string, string>;
  /** Extra response headers (canonical names). */
  readonly headers: Readonly<Record<string, string>>;
}

/** Reads a file as bytes (injectable for tests). */
type ReadBinaryFile = (path: string) => Promise<Buffer>;

const TLS_VERSIONS = { TLS10: "TLSv1", TLS11: "TLSv1.1", TLS12: "TLSv1.2", TLS13: "TLSv1.3" } as const;
const VERSION_ORDER: readonly SecureVersion[] = ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"];

/** bcrypt modular crypt format: $2a$/$2b$/$2y$, two-digit cost, 22 salt + 31 hash characters. */
const BCRYPT_HASH = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;

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

const mapping = {
  error: (i: { code?: string }) => (i.code === "invalid_type" ? "must be a mapping" : undefined),
};
const filePath = z.string({ error: "must be a file path" }).min(1, { error: "must not be empty" });
const version = z.enum(["TLS10", "TLS11", "TLS12", "TLS13"], {
  error: "must be TLS10, TLS11, TLS12 or TLS13",
});

const bcryptHash = z.string({ error: "must be a bcrypt hash (a string)" }).refine(
  (hash) => {
    const cost = Number(BCRYPT_HASH.exec(hash)?.[1]);
    return cost >= 4 && cost <= 31;
  },
  {
    error:
      "must be a bcrypt hash: $2a$, $2b$ or $2y$, a cost from 04 to 31, 60 characters " +
      "(make one with: htpasswd -nBC 10 '' | tr -d ':\\n')",
  },
);

const webConfigSchema = z.preprocess(
  (v) => (v === null || v === undefined ? {} : v),
  z.strictObject(
    {
      tls_server_config: z
        .strictObject(
          {
            cert_file: filePath,
            key_file: filePath,
            client_auth_type: z
              .enum(
                [
                  "NoClientCert",
                  "RequestClientCert",
                  "RequireAnyClientCert",
                  "VerifyClientCertIfGiven",
                  "RequireAndVerifyClientCert",
                ],
                {
                  error:
                    "must be one of NoClientCert, RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven, RequireAndVerifyClientCert",
                },
              )
              .optional(),
            client_ca_file: filePath.optional(),
            min_version: version.optional(),
            max_version: version.optional(),
          },
          mapping,
        )
        .optional(),
      basic_auth_users: z
        .record(z.string().min(1, { error: "user names must not be empty" }), bcryptHash, mapping)
        .optional(),
      http_server_config: z
        .strictObject(
          {
            headers: z
              .record(z.string(), z.string({ error: "must be a string" }), mapping)
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
          mapping,
        )
        .optional(),
    },
    mapping,
  ),
);

type TlsSection = NonNullable<z.output<typeof webConfigSchema>["tls_server_config"]>;

async function readTls(
  tls: TlsSection,
  baseDir: string,
  readFile: ReadBinaryFile,
  problems: ConfigProblem[],
): Promise<WebTlsConfig | undefined> {
  const read = async (field: string, file: string): Promise<Buffer | undefined> => {
    try {
      return await readFile(file);
    } catch (err) {
      problems.push({
        path: `tls_server_config.${field}`,
        message: `cannot read ${file} (${describeFsError(err)})`,
      });
      return undefined;
    }
  };
  const certFile = resolve(baseDir, tls.cert_file);
  const keyFile = resolve(baseDir, tls.key_file);
  const caFile = tls.client_ca_file === undefined ? undefined : resolve(baseDir, tls.client_ca_file);
  const cert = await read("cert_file", certFile);
  const key = await read("key_file", keyFile);
  const ca = caFile === undefined ? undefined : await read("client_ca_file", caFile);

  // Same defaults and cross-checks as the toolkit: a CA alone implies verification.
  const clientAuthType: ClientAuthType =
    tls.client_auth_type ?? (caFile === undefined ? "NoClientCert" : "RequireAndVerifyClientCert");
  if (caFile !== undefined && clientAuthType === "NoClientCert") {
    problems.push({
      path: "tls_server_config.client_auth_type",
      message: "is NoClientCert, but client_ca_file is set: choose a client auth policy or remove the CA",
    });
  }
  if (
    caFile === undefined &&
    (clientAuthType === "VerifyClientCertIfGiven" || clientAuthType === "RequireAndVerifyClientCert")
  ) {
    problems.push({ path: "tls_server_config.client_ca_file", message: `is required by ${clientAuthType}` });
  }
  const minVersion = TLS_VERSIONS[tls.min_version ?? "TLS12"];
  const maxVersion = tls.max_version === undefined ? undefined : TLS_VERSIONS[tls.max_version];
  if (maxVersion !== undefined && VERSION_ORDER.indexOf(maxVersion) < VERSION_ORDER.indexOf(minVersion)) {
    problems.push({ path: "tls_server_config.max_version", message: "must not be lower than min_version" });
  }
  if (cert === undefined || key === undefined || (caFile !== undefined && ca === undefined)) return undefined;
  try {
    // Catches unparsable PEM and a key that does not belong to the certificate now, not at
    // the first TLS handshake.
    createSecureContext({ cert, key, ...(ca === undefined ? {} : { ca }) });
  } catch (err) {
    problems.push({
      path: "tls_server_config",
      message: `the certificate, key or CA cannot be used together (${(err as Error).message})`,
    });
    return undefined;
  }
  return {
    certFile,
    keyFile,
    cert,
    key,
    clientAuthType,
    ...(caFile === undefined || ca === undefined ? {} : { clientCaFile: caFile, clientCa: ca }),
    minVersion,
    ...(maxVersion === undefined ? {} : { maxVersion }),
  };
}

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
  const { tls_server_config: tlsSection, basic_auth_users: users, http_server_config: http } = parsed.data;
  const tls =
    tlsSection === undefined
      ? undefined
      : await readTls(tlsSection, opts.baseDir, opts.readFile ?? ((p) => fsReadFile(p)), problems);
  if (problems.length > 0) throw new ConfigError("config_invalid", problems);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(http?.headers ?? {})) {
    headers[ALLOWED_HEADERS.get(name.toLowerCase()) ?? name] = value;
  }
  return {
    ...(tls === undefined ? {} : { tls }),
    basicAuthUsers: new Map(Object.entries(users ?? {})),
    headers,
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

/**
 * Node `tls` server options for a TLS config. Node cannot express two of Go's policies
 * directly: for RequireAnyClientCert and VerifyClientCertIfGiven the certificate is requested
 * but not enforced here, so the HTTP layer must check `socket.getPeerCertificate()` /
 * `socket.authorized` itself.
 */
export function toTlsOptions(tls: WebTlsConfig): TlsOptions {
  const verify = tls.clientAuthType === "RequireAndVerifyClientCert";
  return {
    cert: tls.cert,
    key: tls.key,
    ...(tls.clientCa === undefined ? {} : { ca: tls.clientCa }),
    requestCert: tls.clientAuthType !== "NoClientCert",
    rejectUnauthorized: verify,
    minVersion: tls.minVersion,
    ...(tls.maxVersion === undefined ? {} : { maxVersion: tls.maxVersion }),
  };
}
