import { readFileSync } from "node:fs";
import { createServer, request } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { failure } from "./testkit.js";
import { loadWebConfig, parseGoDuration, toTlsOptions, type WebConfig } from "./webConfig.js";

const fixture = (name: string) => readFileSync(new URL(`./testdata/${name}`, import.meta.url));
const CERT = fixture("cert.pem");
const KEY = fixture("key.pem");
const OTHER_KEY = fixture("other-key.pem");
const HASH = "$2b$04$o.v0sokTo6nC3Vy.YkrFAefil2snTOS1op3opFqqRX6TrKlzUv9vy"; // "secret", cost 4
const WEB = "/etc/exporter/web.yaml";

function load(yaml: string, extra: Record<string, Buffer> = {}): Promise<WebConfig> {
  const files: Record<string, Buffer> = {
    [WEB]: Buffer.from(yaml),
    "/etc/exporter/tls/cert.pem": CERT,
    "/etc/exporter/tls/key.pem": KEY,
    "/etc/exporter/tls/other-key.pem": OTHER_KEY,
    "/etc/exporter/tls/garbage.pem": Buffer.from("not a pem"),
    ...extra,
  };
  return loadWebConfig(WEB, {
    readFile: async (path) => {
      const data = files[path];
      if (data === undefined) throw Object.assign(new Error("missing"), { code: "ENOENT" });
      return data;
    },
  });
}

const indent = (pem: Buffer) =>
  pem
    .toString()
    .trimEnd()
    .split("\n")
    .map((l) => `    ${l}\n`)
    .join("");

const tls = (extra = "") =>
  `tls_server_config:\n  cert_file: tls/cert.pem\n  key_file: tls/key.pem\n${extra}`;

describe("loadWebConfig", () => {
  it("loads TLS material, users and headers, resolving paths against the file's directory", async () => {
    const web = await load(
      `${tls("  min_version: TLS13\n")}basic_auth_users:\n  alice: '${HASH}'\nhttp_server_config:\n  headers:\n    x-frame-options: deny\n`,
    );
    expect(web.tls?.cert.equals(CERT)).toBe(true);
    expect(web.tls?.key.equals(KEY)).toBe(true);
    expect(web.tls).toMatchObject({
      certFile: "/etc/exporter/tls/cert.pem",
      keyFile: "/etc/exporter/tls/key.pem",
      clientAuthType: "NoClientCert",
      minVersion: "TLSv1.3",
    });
    expect([...web.basicAuthUsers]).toEqual([["alice", HASH]]);
    expect(web.headers).toEqual({ "X-Frame-Options": "deny" });
  });

  it("treats an empty file as plain HTTP without authentication", async () => {
    const web = await load("");
    expect(web.tls).toBeUndefined();
    expect(web.basicAuthUsers.size).toBe(0);
    expect(web.headers).toEqual({});
  });

  it("defaults to RequireAndVerifyClientCert when only a client CA is given", async () => {
    const web = await load(tls("  client_ca_file: tls/cert.pem\n"));
    expect(web.tls?.clientAuthType).toBe("RequireAndVerifyClientCert");
    expect(web.tls?.clientCa?.equals(CERT)).toBe(true);
    const options = web.tls && toTlsOptions(web.tls);
    expect(options).toMatchObject({ requestCert: true, rejectUnauthorized: true, minVersion: "TLSv1.2" });
  });

  it.each<[name: string, yaml: string, expected: string]>([
    ["YAML syntax error", "tls_server_config: [\n", "/etc/exporter/web.yaml:2:1:"],
    [
      "unknown top-level key",
      "tls_config: {}\n",
      "tls_config: unknown key (allowed: tls_server_config, basic_auth_users",
    ],
    [
      "misspelt top-level key",
      "basic_auth_user: {}\n",
      'basic_auth_user: unknown key (did you mean "basic_auth_users"?)',
    ],
    [
      "unknown TLS key",
      "tls_server_config:\n  cert_fil: a\n  key_file: b\n",
      'tls_server_config.cert_fil: unknown key (did you mean "cert_file"?)',
    ],
    [
      "missing cert_file",
      "tls_server_config:\n  key_file: tls/key.pem\n",
      "tls_server_config.cert_file: must be a file path",
    ],
    [
      "unknown http_server_config key",
      "http_server_config:\n  http3: true\n",
      "http_server_config.http3: unknown key",
    ],
    [
      "unknown cipher suite",
      tls("  cipher_suites: [TLS_NOPE]\n"),
      "tls_server_config.cipher_suites[0]: unknown cipher suite",
    ],
    [
      "unknown curve",
      tls("  curve_preferences: [CurveP999]\n"),
      "tls_server_config.curve_preferences[0]: unknown curve",
    ],
    [
      "allowed SANs without a required certificate",
      tls("  client_allowed_sans: [prom.example]\n"),
      "tls_server_config.client_allowed_sans: needs client_auth_type RequireAnyClientCert or RequireAndVerifyClientCert",
    ],
    [
      "inline cert and cert_file",
      `${tls()}  cert: "x"\n`,
      "tls_server_config.cert: and cert_file are both set",
    ],
    ["bad rate limit interval", "rate_limit:\n  interval: soon\n", "rate_limit.interval: must be a duration"],
    ["bad hash", "basic_auth_users:\n  alice: plaintext\n", "basic_auth_users.alice: must be a bcrypt hash"],
    ["users not a mapping", "basic_auth_users: [alice]\n", "basic_auth_users: must be a mapping"],
    [
      "missing cert file",
      "tls_server_config:\n  cert_file: tls/nope.pem\n  key_file: tls/key.pem\n",
      "tls_server_config.cert_file: cannot read /etc/exporter/tls/nope.pem (ENOENT: no such file)",
    ],
    [
      "missing key file",
      "tls_server_config:\n  cert_file: tls/cert.pem\n  key_file: /keys/k.pem\n",
      "tls_server_config.key_file: cannot read /keys/k.pem (ENOENT",
    ],
    [
      "key of another certificate",
      "tls_server_config:\n  cert_file: tls/cert.pem\n  key_file: tls/other-key.pem\n",
      "tls_server_config: the certificate, key or CA cannot be used together",
    ],
    [
      "garbage certificate",
      "tls_server_config:\n  cert_file: tls/garbage.pem\n  key_file: tls/key.pem\n",
      "tls_server_config: the certificate, key or CA cannot be used together",
    ],
    [
      "CA with NoClientCert",
      tls("  client_ca_file: tls/cert.pem\n  client_auth_type: NoClientCert\n"),
      "tls_server_config.client_auth_type: is NoClientCert, but client_ca_file is set",
    ],
    [
      "verification without a CA",
      tls("  client_auth_type: RequireAndVerifyClientCert\n"),
      "tls_server_config.client_ca_file: is required by RequireAndVerifyClientCert",
    ],
    [
      "unknown client_auth_type",
      tls("  client_auth_type: Sometimes\n"),
      "tls_server_config.client_auth_type: must be one of NoClientCert",
    ],
    [
      "bad TLS version",
      tls("  min_version: TLS14\n"),
      "tls_server_config.min_version: must be TLS10, TLS11, TLS12 or TLS13",
    ],
    [
      "max below min",
      tls("  min_version: TLS13\n  max_version: TLS12\n"),
      "tls_server_config.max_version: must not be lower than min_version",
    ],
    [
      "header not allowed",
      "http_server_config:\n  headers:\n    X-Powered-By: me\n",
      "http_server_config.headers.X-Powered-By: only these headers can be set",
    ],
  ])("rejects: %s", async (_name, yaml, expected) => {
    const err = await failure(load(yaml));
    expect(err.message).toContain(expected);
  });

  /** Alice's password hash: `expected` follows "basic_auth_users.alice: " in the message. */
  it.each<[name: string, hash: string, expected: string]>([
    ["bcrypt cost above 14", HASH.replace("$04$", "$15$"), "bcrypt cost 15 is above the maximum of 14"],
    ["bcrypt cost 31", HASH.replace("$04$", "$31$"), "bcrypt cost 31 is above the maximum of 14"],
    ["bad hash prefix", HASH.replace("$2b$", "$2x$"), "must be a bcrypt hash"],
    ["bcrypt cost below 4", HASH.replace("$04$", "$03$"), "must be a bcrypt hash"],
    ["truncated hash", HASH.slice(0, 50), "must be a bcrypt hash"],
  ])("rejects: %s", async (_name, hash, expected) => {
    const err = await failure(load(`basic_auth_users:\n  alice: '${hash}'\n`));
    expect(err.message).toContain(`basic_auth_users.alice: ${expected}`);
  });

  it("accepts every exporter-toolkit key; honours what Node can and lists the rest as ignored", async () => {
    const web = await load(
      [
        "tls_server_config:",
        "  cert_file: tls/cert.pem",
        "  key_file: tls/key.pem",
        "  client_ca_file: tls/cert.pem",
        "  client_auth_type: RequireAndVerifyClientCert",
        "  client_allowed_sans: [prom.example, 10.0.0.1]",
        "  min_version: TLS12",
        "  max_version: TLS13",
        "  cipher_suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_AES_128_GCM_SHA256]",
        "  prefer_server_cipher_suites: false",
        "  curve_preferences: [X25519, CurveP256, X25519MLKEM768]",
        "http_server_config:",
        "  http2: true",
        "  headers: { X-Content-Type-Options: nosniff }",
        `basic_auth_users: { alice: '${HASH}' }`,
        "rate_limit: { interval: 100ms, burst: 5 }",
        "",
      ].join("\n"),
    );
    expect(web.tls).toMatchObject({
      ciphers:
        "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:ECDHE-RSA-AES128-GCM-SHA256",
      honorCipherOrder: false,
      ecdhCurve: "X25519:P-256",
      clientAllowedSans: ["prom.example", "10.0.0.1"],
      maxVersion: "TLSv1.3",
    });
    expect(web.rateLimit).toEqual({ intervalMs: 100, burst: 5 });
    expect(web.ignored).toEqual([
      "tls_server_config.curve_preferences: X25519MLKEM768 (not offered by this Node.js)",
      "http_server_config.http2: the exporter's server speaks HTTP/1.1 only",
    ]);
    expect(web.tls && toTlsOptions(web.tls)).toMatchObject({
      honorCipherOrder: false,
      ecdhCurve: "X25519:P-256",
    });
  });

  it("takes inline PEM (cert, key) as the toolkit does", async () => {
    const web = await load(`tls_server_config:\n  cert: |\n${indent(CERT)}  key: |\n${indent(KEY)}`);
    expect(web.tls?.cert.toString()).toBe(CERT.toString());
    expect(web.tls?.certFile).toBeUndefined();
  });

  it.each([
    ["1s", 1000],
    ["100ms", 100],
    ["1m30s", 90_000],
    ["0", 0],
    ["", undefined],
    ["5", undefined],
    ["1d", undefined],
  ])("parseGoDuration(%j) is %s", (text, want) => {
    expect(parseGoDuration(text)).toBe(want);
  });

  it("reports an unreadable web config file with config_unreadable", async () => {
    const err = await failure(
      loadWebConfig("/nowhere/web.yaml", {
        readFile: () => Promise.reject(Object.assign(new Error("x"), { code: "EACCES" })),
      }),
    );
    expect(err.code).toBe("config_unreadable");
    expect(err.message).toBe("/nowhere/web.yaml: cannot read (EACCES: permission denied)");
  });
});

describe("toTlsOptions", () => {
  let server: ReturnType<typeof createServer> | undefined;

  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it("serves HTTPS with the loaded certificate", async () => {
    const web = await load(tls());
    if (web.tls === undefined) throw new Error("expected TLS");
    server = createServer(toTlsOptions(web.tls), (_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port, path: "/", ca: CERT, servername: "localhost" },
        (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => {
            text += chunk.toString();
          });
          res.on("end", () => resolve(text));
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(body).toBe("ok");
  });
});
