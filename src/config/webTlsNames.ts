/**
 * Go's crypto/tls names, as the toolkit's web config spells them, translated to the OpenSSL
 * spelling that Node's tls takes. The tables live apart from the TLS settings (webTls.ts) so
 * they can follow Go's lists without touching how the settings are validated.
 */
import type { SecureVersion } from "node:tls";

/** The toolkit's `min_version`/`max_version` values as Node names them. */
export const TLS_VERSIONS = {
  TLS10: "TLSv1",
  TLS11: "TLSv1.1",
  TLS12: "TLSv1.2",
  TLS13: "TLSv1.3",
} as const;

/** Oldest first, to tell whether `max_version` is below `min_version`. */
export const VERSION_ORDER: readonly SecureVersion[] = ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"];

/**
 * Go's cipher suite names (those tls.CipherSuites and tls.InsecureCipherSuites list for TLS 1.2
 * and below) in OpenSSL's spelling.
 */
const CIPHER_SUITES: Readonly<Record<string, string>> = {
  TLS_RSA_WITH_AES_128_CBC_SHA: "AES128-SHA",
  TLS_RSA_WITH_AES_256_CBC_SHA: "AES256-SHA",
  TLS_RSA_WITH_AES_128_GCM_SHA256: "AES128-GCM-SHA256",
  TLS_RSA_WITH_AES_256_GCM_SHA384: "AES256-GCM-SHA384",
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: "ECDHE-ECDSA-AES128-SHA",
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: "ECDHE-ECDSA-AES256-SHA",
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: "ECDHE-RSA-AES128-SHA",
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: "ECDHE-RSA-AES256-SHA",
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: "ECDHE-ECDSA-AES128-GCM-SHA256",
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: "ECDHE-ECDSA-AES256-GCM-SHA384",
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: "ECDHE-RSA-AES128-GCM-SHA256",
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: "ECDHE-RSA-AES256-GCM-SHA384",
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: "ECDHE-RSA-CHACHA20-POLY1305",
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: "ECDHE-RSA-CHACHA20-POLY1305",
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: "ECDHE-ECDSA-CHACHA20-POLY1305",
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: "ECDHE-ECDSA-CHACHA20-POLY1305",
};
/** TLS 1.3 suites: Go accepts their names and uses them all whatever the list says; so do we. */
const TLS13_SUITES = ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"];

/** Go's curve names in OpenSSL's spelling; a curve Node's OpenSSL lacks maps to null (ignored). */
const CURVES: Readonly<Record<string, string | null>> = {
  CurveP256: "P-256",
  CurveP384: "P-384",
  CurveP521: "P-521",
  X25519: "X25519",
  X25519MLKEM768: null,
};

/** The TLS 1.2 suite names an error message offers (TLS 1.3's are accepted but never needed). */
export const CIPHER_SUITE_NAMES: readonly string[] = Object.keys(CIPHER_SUITES);
export const CURVE_NAMES: readonly string[] = Object.keys(CURVES);

export function isCipherSuiteName(name: string): boolean {
  return name in CIPHER_SUITES || TLS13_SUITES.includes(name);
}

export function isCurveName(name: string): boolean {
  return name in CURVES;
}

/**
 * The OpenSSL cipher list for `cipher_suites`, or undefined for OpenSSL's default. TLS 1.3's
 * suites lead the list: Node turns TLS 1.3 off for a list without them, and Go never does.
 */
export function opensslCipherList(names: readonly string[] | undefined): string | undefined {
  const ciphers = names?.filter((name) => name in CIPHER_SUITES).map((name) => CIPHER_SUITES[name]);
  return ciphers === undefined || ciphers.length === 0
    ? undefined
    : [...TLS13_SUITES, ...new Set(ciphers)].join(":");
}

/**
 * The OpenSSL curve list for `curve_preferences` (undefined: OpenSSL's default), and the names
 * this Node.js cannot offer, which the toolkit would use but we can only skip.
 */
export function opensslCurves(names: readonly string[]): {
  readonly ecdhCurve?: string;
  readonly unsupported: readonly string[];
} {
  const usable = names.flatMap((name) => (CURVES[name] ? [CURVES[name]] : []));
  const unsupported = names.filter((name) => CURVES[name] === null);
  return usable.length === 0 ? { unsupported } : { ecdhCurve: usable.join(":"), unsupported };
}
