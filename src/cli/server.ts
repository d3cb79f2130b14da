/**
 * The exporter's HTTP(S) server: the app wired to the exporter, the web config's TLS, auth and
 * headers, and the listening itself. Kept apart from main.ts, which orders the steps of a run,
 * because this is the part that turns the web config into sockets and must fail in words a user
 * can act on (a taken port, a privileged one).
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { Logger } from "pino";
import type { Exporter } from "../app/exporter.js";
import type { ListenAddress } from "../config/listen.js";
import { toTlsOptions, type WebConfig } from "../config/webConfig.js";
import { createApp, type ReloadResult } from "../http/app.js";
import type { BasicAuth } from "../http/basicAuth.js";
import type { RuntimeInForce } from "../runtime/format.js";
import type { CliArgs } from "./args.js";

/** What the server takes besides the exporter and the web config. */
export interface ServerOptions {
  readonly runtime: RuntimeInForce | undefined;
  /** `--web.enable-lifecycle`. */
  readonly lifecycle: boolean;
  readonly auth: BasicAuth | undefined;
}

/** The HTTP(S) server of the exporter's app, with the web config's TLS, auth and headers. */
export function createServer(
  exporter: Exporter,
  reload: () => Promise<ReloadResult>,
  web: WebConfig | undefined,
  { runtime, lifecycle, auth }: ServerOptions,
): Server {
  const app = createApp({
    metrics: (h) => exporter.metrics(h),
    landing: () => ({ ...exporter.landing(), ...(runtime ? { runtime } : {}) }),
    ready: () => exporter.ready(),
    nativeTargets: () => exporter.nativeTargets(),
    answering: () => exporter.foreground.enter(),
    reload,
    lifecycle,
    ...(auth ? { auth } : {}),
    ...(web ? { headers: web.headers } : {}),
    ...(web?.rateLimit ? { rateLimit: web.rateLimit } : {}),
    ...(web?.tls?.clientAllowedSans ? { clientAllowedSans: web.tls.clientAllowedSans } : {}),
    ...(web?.tls?.clientAuthType === "RequireAnyClientCert" ||
    web?.tls?.clientAuthType === "VerifyClientCertIfGiven"
      ? { clientCertPolicy: web.tls.clientAuthType }
      : {}),
  });
  const server: Server = web?.tls ? createHttpsServer(toTlsOptions(web.tls), app) : createHttpServer(app);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 65_000;
  return server;
}

/** Resolves once the server listens; rejects when it cannot (address in use, no permission). */
export function listenOn(server: Server, listen: ListenAddress): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
}

/** One line saying why the exporter cannot listen, for the log and stderr. */
export function describeListenError(err: unknown, listen: string): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "EADDRINUSE")
    return `cannot listen on ${listen}: the address is already in use (another process has the port)`;
  if (code === "EACCES")
    return `cannot listen on ${listen}: permission denied (ports below 1024 need privileges)`;
  if (code === "EADDRNOTAVAIL") return `cannot listen on ${listen}: no such local address`;
  return `cannot listen on ${listen}: ${(err as Error)?.message ?? String(err)}`;
}

/** The port actually bound (`:0` picks one), so the log says where to scrape. */
export function logListening(
  logger: Logger,
  server: Server,
  listen: ListenAddress,
  run: { readonly args: CliArgs; readonly exporter: Exporter; readonly tls: boolean },
): void {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : listen.port;
  logger.info(
    {
      listen: `${listen.host}:${port}`,
      tls: run.tls,
      clusters: run.exporter.clusters().length,
      demo: run.args.mode === "demo",
    },
    "vdbcloud-exporter listening",
  );
}
