import express, { type NextFunction, type Request, type Response } from "express";
import { writeGathered } from "../exposition/blocks.js";
import type { MetricsResponse } from "../exposition/exposition.js";
import type { BasicAuth } from "./basicAuth.js";
import { allowedSansMiddleware, clientCertMiddleware, type SoftClientCertPolicy } from "./clientCert.js";
import { type LandingInfo, renderLanding } from "./landing.js";
import { parseLandingQuery } from "./landingQuery.js";

/** Result of a reload request: the new config is applied, or rejected with its problems. */
export interface ReloadResult {
  readonly ok: boolean;
  readonly problems: readonly string[];
}

/** A body made ahead of requests (GET /sd/native-export), served as it is. */
export interface PreparedAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** What the HTTP layer needs from the exporter. The app holds no logic of its own. */
export interface HttpDeps {
  metrics(headers: {
    accept?: string | undefined;
    acceptEncoding?: string | undefined;
  }): Promise<MetricsResponse>;
  landing(): LandingInfo;
  ready(): boolean;
  reload(): Promise<ReloadResult>;
  /**
   * GET /sd/native-export: Prometheus http_sd_configs JSON of the clusters the service's own
   * endpoint serves (or 404 with the reason), behind the same auth as /metrics.
   */
  nativeTargets(): PreparedAnswer;
  /** Marks a /metrics answer as in progress, for the time it is written; the returned function ends it. */
  answering?: () => () => void;
  /** When set, every route but the health probes (/healthz, /readyz, /-/healthy, /-/ready) requires these credentials. */
  auth?: BasicAuth;
  /** A client certificate policy the TLS layer cannot enforce alone (see clientCert.ts). */
  clientCertPolicy?: SoftClientCertPolicy;
  /** Extra response headers (web config `http_server_config.headers`). */
  headers?: Readonly<Record<string, string>>;
  /** Web config `tls_server_config.client_allowed_sans`: a client certificate must carry one. */
  clientAllowedSans?: readonly string[];
  /** Web config `rate_limit`: every route but the health probes shares this bucket. */
  rateLimit?: { readonly intervalMs: number; readonly burst: number };
  /**
   * `--web.enable-lifecycle`: POST /-/reload works only when true (as in Prometheus); otherwise
   * it answers 403 and a reload takes SIGHUP or an edit of the file.
   */
  lifecycle?: boolean;
  /** Injected for tests: the rate limit's clock. */
  now?: () => number;
}

/** Request bodies are never read; anything announcing more than this is refused. */
const MAX_REQUEST_BODY_BYTES = 1024;

const ROUTES: Record<string, readonly string[]> = {
  "/": ["GET", "HEAD"],
  "/metrics": ["GET", "HEAD"],
  "/healthz": ["GET", "HEAD"],
  "/readyz": ["GET", "HEAD"],
  "/-/healthy": ["GET", "HEAD"],
  "/-/ready": ["GET", "HEAD"],
  "/-/reload": ["POST"],
  "/sd/native-export": ["GET", "HEAD"],
};

/**
 * The express app: GET /metrics, /, /healthz, /readyz (and their Prometheus-style names
 * /-/healthy, /-/ready), /sd/native-export and POST /-/reload; every other path is 404 and every
 * other method 405 (with Allow). No framework banner, no body parsing.
 */
export function createApp(deps: HttpDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.set("query parser", false);

  app.use((req: Request, res: Response, next: NextFunction) => {
    for (const [k, v] of Object.entries(deps.headers ?? {})) res.setHeader(k, v);
    const allowed = ROUTES[req.path];
    if (!allowed) {
      res.status(404).type("text/plain").send("404 page not found\n");
      return;
    }
    if (!allowed.includes(req.method)) {
      res.setHeader("Allow", allowed.join(", "));
      res.status(405).type("text/plain").send("405 method not allowed\n");
      return;
    }
    const length = Number(req.headers["content-length"] ?? 0);
    if (length > MAX_REQUEST_BODY_BYTES || (req.headers["transfer-encoding"] && req.method !== "GET")) {
      res.status(413).type("text/plain").send("413 request body too large\n");
      return;
    }
    next();
  });

  // The /-/ names are Prometheus's own: probes and tooling written for Prometheus components work
  // unchanged. Same handlers, same openness (before the auth middleware below).
  app.get(["/healthz", "/-/healthy"], (_req, res) => {
    res.type("text/plain").send("OK\n");
  });
  app.get(["/readyz", "/-/ready"], (_req, res) => {
    if (deps.ready()) res.type("text/plain").send("ready\n");
    else res.status(503).type("text/plain").send("not ready: first collection cycle not complete\n");
  });

  if (deps.clientCertPolicy) app.use(clientCertMiddleware(deps.clientCertPolicy));
  if (deps.clientAllowedSans) app.use(allowedSansMiddleware(deps.clientAllowedSans));

  if (deps.rateLimit) {
    const bucket = new TokenBucket(deps.rateLimit.intervalMs, deps.rateLimit.burst, deps.now ?? Date.now);
    app.use((_req, res, next) => {
      if (bucket.take()) return next();
      res.status(429).type("text/plain").send("429 too many requests\n");
    });
  }

  if (deps.auth) {
    const auth = deps.auth;
    app.use((req, res, next) => {
      auth.check(req.headers.authorization).then(
        (outcome) => {
          if (outcome === "allowed") return next();
          if (outcome === "busy") {
            // Refused at once rather than queued without bound: see basicAuth.ts.
            res.setHeader("Retry-After", "1");
            res.status(503).type("text/plain").send("503 too many authentication checks at once\n");
            return;
          }
          res.setHeader("WWW-Authenticate", 'Basic realm="vdbcloud-exporter", charset="UTF-8"');
          res.status(401).type("text/plain").send("401 unauthorized\n");
        },
        (err: unknown) => next(err),
      );
    });
  }

  app.get("/metrics", async (req, res, next) => {
    // Until the last byte is handed to the socket (or the client is gone): the drains of a
    // body's tail need the loop as much as its first writes.
    const done = deps.answering?.();
    if (done) {
      res.once("finish", done);
      res.once("close", done);
    }
    try {
      const out = await deps.metrics({
        accept: req.headers.accept,
        acceptEncoding: req.headers["accept-encoding"],
      });
      res.setHeader("Content-Type", out.contentType);
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Vary", "Accept, Accept-Encoding");
      if (out.contentEncoding) res.setHeader("Content-Encoding", out.contentEncoding);
      res.setHeader("Content-Length", out.length);
      if (req.method === "HEAD") return void res.end();
      if (await writeGathered(res, out.body)) res.end();
    } catch (err) {
      next(err);
    }
  });

  app.get("/sd/native-export", (_req, res) => {
    const out = deps.nativeTargets();
    res.status(out.status).setHeader("Content-Type", out.contentType);
    res.setHeader("Cache-Control", "no-store");
    res.send(out.body);
  });

  // The query string is read here, by the page's own rules (the app's query parser is off).
  app.get("/", (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.type("html").send(renderLanding(deps.landing(), parseLandingQuery(req.url)));
  });

  app.post("/-/reload", async (_req, res, next) => {
    if (deps.lifecycle !== true) {
      res.status(403).type("text/plain").send("403 lifecycle API is not enabled (--web.enable-lifecycle)\n");
      return;
    }
    try {
      const r = await deps.reload();
      if (r.ok) res.type("text/plain").send("configuration reloaded\n");
      else
        res
          .status(400)
          .type("text/plain")
          .send(`configuration rejected, still running the previous one:\n${r.problems.join("\n")}\n`);
    } catch (err) {
      next(err);
    }
  });

  // Errors never reach the client with a stack trace.
  app.use((_err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (!res.headersSent) res.status(500).type("text/plain").send("500 internal error\n");
    else res.end();
  });
  return app;
}

/**
 * The toolkit's rate limiter (Go's rate.Limiter): `burst` tokens, one more every `intervalMs`.
 * A burst of 0 admits nothing, as in Go.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly intervalMs: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.at = now();
  }

  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + (t - this.at) / this.intervalMs);
    this.at = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
