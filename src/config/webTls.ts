/**
 * The web config's `tls_server_config`: its schema, the reading of its PEM material (inline or
 * from files, relative to the web config file), and the Node `tls` options it becomes. Kept
 * apart from the loader (webConfig.ts) because it is the one part with cross-field rules and
 * file reads, and the one part the server start-up needs again (toTlsOptions).
 */
import { resolve } from "node:path";
import { createSecureContext, type SecureVersion, type TlsOptions } from "node:tls";
import * as z from "zod";
import { type ConfigProblem, describeFsError } from "./errors.js";
import {
  CIPHER_SUITE_NAMES,
  CURVE_NAMES,
  isCipherSuiteName,
  isCurveName,
  opensslCipherList,
  opensslCurves,
  TLS_VERSIONS,
  VERSION_ORDER,
} from "./webTlsNames.js";

/** Client certificate policies, named as in Go's crypto/tls (the toolkit's spelling). */
type ClientAuthType =
  | "NoClientCert"
  | "RequestClientCert"
  | "RequireAnyClientCert"
  | "VerifyClientCertIfGiven"
  | "RequireAndVerifyClientCert";

/** TLS settings with the PEM material already read. */
export interface WebTlsConfig {
  /** Absent when the certificate is given inline (`cert`). */
  readonly certFile?: string;
  /** Absent when the key is given inline (`key`). */
  readonly keyFile?: string;
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly clientAuthType: ClientAuthType;
  readonly clientCaFile?: string;
  readonly clientCa?: Buffer;
  readonly minVersion: SecureVersion;
  readonly maxVersion?: SecureVersion;
  /** OpenSSL cipher list from `cipher_suites` (TLS 1.2 and below; TLS 1.3 keeps its own, as in Go). */
  readonly ciphers?: string;
  /** `prefer_server_cipher_suites` (the toolkit's default: true). */
  readonly honorCipherOrder: boolean;
  /** OpenSSL curve list from `curve_preferences`. */
  readonly ecdhCurve?: string;
  /** `client_allowed_sans`: a client certificate must carry one of these SANs exactly. */
  readonly clientAllowedSans?: readonly string[];
}

/** Reads a file as bytes (injectable for tests). */
export type ReadBinaryFile = (path: string) => Promise<Buffer>;

/** The one wording for a section that is not a mapping, shared by every section of the file. */
export const asMapping = {
  error: (i: { code?: string }) => (i.code === "invalid_type" ? "must be a mapping" : undefined),
};
const filePath = z.string({ error: "must be a file path" }).min(1, { error: "must not be empty" });
const pem = z.string({ error: "must be PEM text" }).min(1, { error: "must not be empty" });
const version = z.enum(["TLS10", "TLS11", "TLS12", "TLS13"], {
  error: "must be TLS10, TLS11, TLS12 or TLS13",
});
const stringList = z.array(z.string({ error: "must be a string" }), { error: "must be a list" });
const cipherSuites = stringList.superRefine((names, ctx) => {
  for (const [i, name] of names.entries()) {
    if (isCipherSuiteName(name)) continue;
    ctx.addIssue({
      code: "custom",
      message: `unknown cipher suite; one of ${CIPHER_SUITE_NAMES.join(", ")}`,
      path: [i],
      input: name,
    });
  }
});
const curves = stringList.superRefine((names, ctx) => {
  for (const [i, name] of names.entries()) {
    if (isCurveName(name)) continue;
    ctx.addIssue({
      code: "custom",
      message: `unknown curve; one of ${CURVE_NAMES.join(", ")}`,
      path: [i],
      input: name,
    });
  }
});

/** `tls_server_config` as written; readTls applies the rules that span several keys. */
export const tlsServerConfigSchema = z.strictObject(
  {
    cert_file: filePath.optional(),
    key_file: filePath.optional(),
    cert: pem.optional(),
    key: pem.optional(),
    client_ca: pem.optional(),
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
    client_allowed_sans: stringList.optional(),
    min_version: version.optional(),
    max_version: version.optional(),
    cipher_suites: cipherSuites.optional(),
    prefer_server_cipher_suites: z.boolean({ error: "must be true or false" }).optional(),
    curve_preferences: curves.optional(),
  },
  asMapping,
);

type TlsSection = z.output<typeof tlsServerConfigSchema>;

/** One PEM input: inline text or a file, never both. */
async function pemInput(
  names: { readonly inline: string; readonly file: string },
  inline: string | undefined,
  file: string | undefined,
  ctx: { readonly baseDir: string; readonly readFile: ReadBinaryFile; readonly problems: ConfigProblem[] },
): Promise<{ data?: Buffer; file?: string; given: boolean }> {
  if (inline !== undefined && file !== undefined) {
    ctx.problems.push({
      path: `tls_server_config.${names.inline}`,
      message: `and ${names.file} are both set: give one`,
    });
    return { given: true };
  }
  if (inline !== undefined) return { data: Buffer.from(inline), given: true };
  if (file === undefined) return { given: false };
  const path = resolve(ctx.baseDir, file);
  try {
    return { data: await ctx.readFile(path), file: path, given: true };
  } catch (err) {
    ctx.problems.push({
      path: `tls_server_config.${names.file}`,
      message: `cannot read ${path} (${describeFsError(err)})`,
    });
    return { file: path, given: true };
  }
}

/**
 * Reads the PEM material of a parsed `tls_server_config` and checks what spans several keys.
 * Problems go to `problems` (undefined is returned then), settings accepted but not honoured to
 * `ignored`.
 */
export async function readTls(
  tls: TlsSection,
  baseDir: string,
  readFile: ReadBinaryFile,
  problems: ConfigProblem[],
  ignored: string[],
): Promise<WebTlsConfig | undefined> {
  const ctx = { baseDir, readFile, problems };
  const cert = await pemInput({ inline: "cert", file: "cert_file" }, tls.cert, tls.cert_file, ctx);
  const key = await pemInput({ inline: "key", file: "key_file" }, tls.key, tls.key_file, ctx);
  const ca = await pemInput(
    { inline: "client_ca", file: "client_ca_file" },
    tls.client_ca,
    tls.client_ca_file,
    ctx,
  );
  if (!cert.given)
    problems.push({ path: "tls_server_config.cert_file", message: "must be a file path (or cert inline)" });
  if (!key.given)
    problems.push({ path: "tls_server_config.key_file", message: "must be a file path (or key inline)" });

  // Same defaults and cross-checks as the toolkit: a CA alone implies verification.
  const clientAuthType: ClientAuthType =
    tls.client_auth_type ?? (ca.given ? "RequireAndVerifyClientCert" : "NoClientCert");
  if (ca.given && clientAuthType === "NoClientCert") {
    problems.push({
      path: "tls_server_config.client_auth_type",
      message: "is NoClientCert, but client_ca_file is set: choose a client auth policy or remove the CA",
    });
  }
  if (
    !ca.given &&
    (clientAuthType === "VerifyClientCertIfGiven" || clientAuthType === "RequireAndVerifyClientCert")
  ) {
    problems.push({ path: "tls_server_config.client_ca_file", message: `is required by ${clientAuthType}` });
  }
  const sans = tls.client_allowed_sans;
  if (
    sans !== undefined &&
    sans.length > 0 &&
    clientAuthType !== "RequireAnyClientCert" &&
    clientAuthType !== "RequireAndVerifyClientCert"
  ) {
    // Any other policy lets a client in without a certificate, so no SAN would be checked.
    problems.push({
      path: "tls_server_config.client_allowed_sans",
      message: "needs client_auth_type RequireAnyClientCert or RequireAndVerifyClientCert",
    });
  }
  const minVersion = TLS_VERSIONS[tls.min_version ?? "TLS12"];
  const maxVersion = tls.max_version === undefined ? undefined : TLS_VERSIONS[tls.max_version];
  if (maxVersion !== undefined && VERSION_ORDER.indexOf(maxVersion) < VERSION_ORDER.indexOf(minVersion)) {
    problems.push({ path: "tls_server_config.max_version", message: "must not be lower than min_version" });
  }
  const { ecdhCurve, unsupported } = opensslCurves(tls.curve_preferences ?? []);
  for (const name of unsupported) {
    ignored.push(`tls_server_config.curve_preferences: ${name} (not offered by this Node.js)`);
  }
  if (cert.data === undefined || key.data === undefined || (ca.given && ca.data === undefined))
    return undefined;
  const cipherList = opensslCipherList(tls.cipher_suites);
  try {
    // Catches unparsable PEM, a key that does not belong to the certificate, and cipher or
    // curve lists OpenSSL refuses now, not at the first TLS handshake.
    createSecureContext({
      cert: cert.data,
      key: key.data,
      ...(ca.data === undefined ? {} : { ca: ca.data }),
      ...(cipherList === undefined ? {} : { ciphers: cipherList }),
      ...(ecdhCurve === undefined ? {} : { ecdhCurve }),
    });
  } catch (err) {
    problems.push({
      path: "tls_server_config",
      message: `the certificate, key or CA cannot be used together (${(err as Error).message})`,
    });
    return undefined;
  }
  return {
    ...(cert.file === undefined ? {} : { certFile: cert.file }),
    ...(key.file === undefined ? {} : { keyFile: key.file }),
    cert: cert.data,
    key: key.data,
    clientAuthType,
    ...(ca.data === undefined ? {} : { clientCa: ca.data }),
    ...(ca.file === undefined ? {} : { clientCaFile: ca.file }),
    minVersion,
    ...(maxVersion === undefined ? {} : { maxVersion }),
    ...(cipherList === undefined ? {} : { ciphers: cipherList }),
    honorCipherOrder: tls.prefer_server_cipher_suites ?? true,
    ...(ecdhCurve === undefined ? {} : { ecdhCurve }),
    ...(sans === undefined || sans.length === 0 ? {} : { clientAllowedSans: sans }),
  };
}

/**
 * Node `tls` server options for a TLS config. Node cannot express two of Go's policies
 * directly: for RequireAnyClientCert and VerifyClientCertIfGiven the certificate is requested
 * but not enforced here, so the HTTP layer must check `socket.getPeerCertificate()` /
 * `socket.authorized` itself (and `client_allowed_sans` too).
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
    ...(tls.ciphers === undefined ? {} : { ciphers: tls.ciphers }),
    honorCipherOrder: tls.honorCipherOrder,
    ...(tls.ecdhCurve === undefined ? {} : { ecdhCurve: tls.ecdhCurve }),
  };
}
