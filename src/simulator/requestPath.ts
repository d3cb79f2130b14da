/**
 * The path every API request takes: count it, maybe inject a fault, authenticate, rate limit,
 * run the handler and wrap its result in the envelope. Faults come first because they stand
 * for what sits in front of the service (gateways, network); they take no rate-limit token.
 */
import type { Express, Request, Response } from "express";
import { isRetired, type SimContext } from "./context.js";
import { DataPlaneCode } from "./data-plane.js";
import { BACKUP_PERMISSION_CODE, BACKUP_PERMISSION_MESSAGE } from "./data-protection.js";
import { ApiCode, RATE_LIMIT_MESSAGE, SimApiError } from "./errors.js";
import { renderFault } from "./fault-responses.js";
import type { Faults } from "./faults.js";
import type { Lifecycle } from "./lifecycle.js";
import type { RequestDone } from "./options.js";
import type { SimQuirks } from "./quirks.js";
import type { SimRateLimiter } from "./rate-limiter.js";
import { failReply, invalidTokenReply, jsonReply, type Reply, sendReply } from "./reply.js";
import { type RouteDef, type RouteRequest, successCode } from "./route.js";
import type { StatsRecorder } from "./stats.js";

/** Collaborators of the request path. */
export interface RequestPathDeps {
  readonly ctx: SimContext;
  readonly stats: StatsRecorder;
  readonly faults: Faults;
  readonly limiter: SimRateLimiter;
  /** Accepted keys; undefined accepts any non-empty key. */
  readonly apiKeys: ReadonlySet<string> | undefined;
  /**
   * Keys with the billing role; undefined: every accepted key reads billing. When set, billing
   * routes take only these, and every other route refuses them.
   */
  readonly billingKeys?: ReadonlySet<string> | undefined;
  readonly life: Lifecycle;
  readonly log: (line: string) => void;
  readonly onRequestDone?: (done: RequestDone) => void;
  /** Keys accepted everywhere but refused the backup permission (HTTP 403 on backup routes). */
  readonly backupDeniedKeys?: ReadonlySet<string>;
  /** Who may use a cluster's data plane (data-plane.ts). */
  readonly dataPlaneAuthorized?: (clusterId: string, key: string, apiKeyOk: boolean) => boolean;
}

/** The content type of Prometheus text exposition (the service's own Prometheus endpoint). */
const EXPOSITION_TYPE = { "content-type": "text/plain; version=0.0.4; charset=utf-8" };

/** The key of an `Authorization: Bearer <key>` header, or undefined. */
export function bearerKey(header: string | undefined): string | undefined {
  const m = header === undefined ? null : /^Bearer\s+(.+)$/i.exec(header.trim());
  const key = m?.[1]?.trim();
  return key ? key : undefined;
}

function firstValues(query: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (typeof query !== "object" || query === null) return out;
  for (const [k, v] of Object.entries(query)) {
    const first: unknown = Array.isArray(v) ? v[0] : v;
    out[k] = typeof first === "string" ? first : undefined;
  }
  return out;
}

/**
 * The handler's answer, with the paging quirks of the route's listing applied: a server that
 * ignores `currentPage` serves page 1 to every call, and one without totals leaves them out.
 */
function answer(route: RouteDef, quirks: SimQuirks, input: RouteRequest): unknown {
  const firstPageOnly = quirks.pagesIgnored.includes(route.template);
  const asked: RouteRequest = firstPageOnly
    ? {
        ...input,
        query: "currentPage" in input.query ? { ...input.query, currentPage: "1" } : input.query,
        body:
          typeof input.body === "object" && input.body !== null && "currentPage" in input.body
            ? { ...input.body, currentPage: 1 }
            : input.body,
      }
    : input;
  const data = route.handle(asked);
  if (!quirks.countless.includes(route.template) || typeof data !== "object" || data === null) return data;
  const { count: _count, total: _total, ...rest } = data as Record<string, unknown>;
  return rest;
}

function handle(route: RouteDef, deps: RequestPathDeps, req: Request, res: Response): void {
  const nowMs = deps.ctx.now();
  const params = req.params as Record<string, string | undefined>;
  const bearer = bearerKey(req.headers.authorization);
  const input: RouteRequest = {
    params,
    query: firstValues(req.query),
    body: req.body as unknown,
    region: params.region,
    nowMs,
    ...(bearer === undefined ? {} : { key: bearer }),
  };
  const clusterId = route.clusterId?.(input);
  deps.stats.request(route.template, clusterId, bearerKey(req.headers.authorization), {
    method: req.method,
    path: req.path,
    query: { ...input.query },
    headers: { ...req.headers },
    body: input.body,
    atMs: nowMs,
  });
  if (route.mutating) deps.stats.mutating(`${req.method} ${req.path}`);
  const onDone = deps.onRequestDone;
  if (onDone) {
    res.on("finish", () =>
      onDone({ template: route.template, clusterId, body: input.body, status: res.statusCode }),
    );
  }

  const normal = (): Reply => {
    const key = bearerKey(req.headers.authorization);
    const billingKey = key !== undefined && deps.billingKeys?.has(key) === true;
    const apiKeyOk = key !== undefined && (deps.apiKeys === undefined || deps.apiKeys.has(key) || billingKey);
    if (route.dataPlane) {
      if (key === undefined || !deps.dataPlaneAuthorized?.(clusterId ?? "", key, apiKeyOk)) {
        return failReply(DataPlaneCode.NOT_AUTHENTICATED, "User hasn't authenticated");
      }
    } else if (!apiKeyOk) return invalidTokenReply();
    if (route.permission === "backup" && key !== undefined && deps.backupDeniedKeys?.has(key)) {
      return failReply(BACKUP_PERMISSION_CODE, BACKUP_PERMISSION_MESSAGE);
    } else if (deps.billingKeys !== undefined && (route.billing === true) !== billingKey) {
      return failReply(
        ApiCode.PERMISSION_DENIED,
        route.billing === true
          ? "permission denied: this operation needs the Organization Owner or Billing Admin role"
          : "permission denied: this API key may only read billing",
        403,
      );
    }
    // A data plane is its own server: its budget is per cluster endpoint.
    const scope = route.dataPlane ? `\u0000${clusterId ?? ""}` : "";
    if (!deps.limiter.take(`${key}\u0000${route.template}${scope}`)) {
      deps.stats.rateLimit(route.template);
      return failReply(ApiCode.RATE_LIMITED, RATE_LIMIT_MESSAGE, 429, { "retry-after": "1" });
    }
    try {
      const data = answer(route, deps.ctx.quirks, input);
      if (route.exposition === true) return { status: 200, headers: EXPOSITION_TYPE, body: String(data) };
      if (route.bare?.() === true) return jsonReply(200, data);
      return jsonReply(200, { code: successCode(route.version), data });
    } catch (err) {
      if (err instanceof SimApiError) return failReply(err.code, err.message, err.httpStatus);
      deps.log(
        `simulator handler error on ${route.template}: ${err instanceof Error ? err.stack : String(err)}`,
      );
      return failReply(500, "Internal Server Error", 500);
    }
  };

  // A removed endpoint answers as an unknown path does, before anything else looks at it.
  if (isRetired(deps.ctx.retired, route)) {
    sendReply(res, failReply(ApiCode.NOT_FOUND, `Not Found: ${req.method} ${req.path}`, 404));
    return;
  }
  const fault = deps.faults.pick(route.template, clusterId);
  if (fault) {
    deps.stats.fault(fault.kind);
    renderFault(fault, res, route, normal, deps.life);
    return;
  }
  const waitMs = route.latency?.(input);
  if (waitMs === null) {
    deps.life.hang(res);
    return;
  }
  if (waitMs !== undefined && waitMs > 0) {
    // Answered as it arrived (counted, authenticated, rate limited), sent once it has taken its time.
    const reply = normal();
    deps.life.later(() => {
      if (!res.destroyed) sendReply(res, reply);
    }, waitMs);
    return;
  }
  sendReply(res, normal());
}

/** Registers `route` on `app`; version 1 routes also answer under /ctl/:region. */
export function mountRoute(app: Express, route: RouteDef, deps: RequestPathDeps): void {
  const paths = route.version === 1 ? [`/ctl/:region${route.path}`, route.path] : [route.path];
  const handler = (req: Request, res: Response) => handle(route, deps, req, res);
  for (const path of paths) {
    if (route.method === "GET") app.get(path, handler);
    else if (route.method === "POST") app.post(path, handler);
    else if (route.method === "PUT") app.put(path, handler);
    else if (route.method === "PATCH") app.patch(path, handler);
    else app.delete(path, handler);
  }
}
