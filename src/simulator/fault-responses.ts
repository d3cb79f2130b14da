/**
 * How each fault kind answers (or does not answer) a request.
 */
import type { ServerResponse } from "node:http";
import { ApiCode, RATE_LIMIT_MESSAGE } from "./errors.js";
import type { FaultHit } from "./faults.js";
import type { Lifecycle } from "./lifecycle.js";
import { failReply, invalidTokenReply, jsonReply, type Reply, sendReply } from "./reply.js";
import { type RouteDef, successCode } from "./route.js";

const HTML = { "content-type": "text/html; charset=utf-8" };

function html(status: number, title: string): Reply {
  return {
    status,
    headers: HTML,
    body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
  };
}

function trickle(
  res: ServerResponse,
  reply: Reply,
  durationMs: number,
  chunks: number,
  life: Lifecycle,
): void {
  const body = Buffer.from(reply.body);
  const pieces = Math.max(1, Math.min(Math.floor(chunks), body.length));
  const size = Math.ceil(body.length / pieces);
  res.writeHead(reply.status, { ...reply.headers, "content-length": String(body.length) });
  res.flushHeaders();
  let i = 0;
  const step = () => {
    if (res.destroyed) return;
    const part = body.subarray(i * size, (i + 1) * size);
    i++;
    if (i >= pieces) res.end(part);
    else {
      res.write(part);
      life.later(step, durationMs / pieces);
    }
  };
  life.later(step, durationMs / pieces);
}

/**
 * Answers `res` as fault `hit` dictates. `normal` computes the reply the request would have
 * had; only the faults that damage a real body (truncated, slow_body) call it.
 */
/**
 * Messages of the reference's error catalogue (error-codes-v2) for the refusals a client must
 * tell apart: permission (96012-96016, 96027) and plan (96021, 96022, 96028).
 */
const CATALOGUE_MESSAGES: Readonly<Record<number, string>> = {
  96012: "Permission denied.",
  96013: "Org owner or project owner is needed.",
  96014: "Permission denied.",
  96015: "Permission denied.",
  96016: "Please check your Apikey scope.",
  96021: "Free cluster does not support this operation.",
  96022: "Serverless cluster does not support this operation.",
  96027: "Please check your Apikey scope.",
  96028: "Feature only supported for enterprise plan clusters.",
};

export function renderFault(
  hit: FaultHit,
  res: ServerResponse,
  route: RouteDef,
  normal: () => Reply,
  life: Lifecycle,
): void {
  const { kind, spec } = hit;
  switch (kind) {
    case "hang":
      life.hang(res);
      return;
    case "slow_body":
      trickle(res, normal(), spec.durationMs ?? 2000, spec.chunks ?? 10, life);
      return;
    case "truncated": {
      const reply = normal();
      const body = Buffer.from(reply.body);
      const cut = body.subarray(0, Math.max(1, Math.floor(body.length / 2)));
      if (spec.abort) {
        res.writeHead(reply.status, { ...reply.headers, "content-length": String(body.length) });
        res.write(cut, () => res.destroy());
      } else {
        res.writeHead(reply.status, { ...reply.headers, "content-length": String(cut.length) });
        res.end(cut);
      }
      return;
    }
    case "non_json":
      sendReply(res, html(spec.status ?? 200, "500 Internal Server Error"));
      return;
    case "wrong_shape": {
      const data = route.dataShape === "array" ? { unexpected: "shape" } : [{ unexpected: "shape" }];
      sendReply(res, jsonReply(200, { code: successCode(route.version), data }));
      return;
    }
    case "http_500":
      sendReply(res, failReply(500, "Internal Server Error", 500));
      return;
    case "http_502":
      sendReply(res, html(502, "502 Bad Gateway"));
      return;
    case "http_503":
      sendReply(res, html(503, "503 Service Temporarily Unavailable"));
      return;
    case "rate_limit_429":
      sendReply(
        res,
        failReply(ApiCode.RATE_LIMITED, RATE_LIMIT_MESSAGE, 429, {
          "retry-after": String(spec.retryAfterSeconds ?? 1),
        }),
      );
      return;
    case "rate_limit_code":
      sendReply(res, failReply(spec.code ?? ApiCode.RATE_LIMITED, "Rate limit exceeded"));
      return;
    case "invalid_key":
      sendReply(res, invalidTokenReply());
      return;
    case "http_401":
      // An expired or revoked key as an HTTP status, with no code the catalogue knows.
      sendReply(res, failReply(401, "Unauthorized", 401));
      return;
    case "catalogue_refusal": {
      const code = spec.code ?? 96027;
      sendReply(res, failReply(code, CATALOGUE_MESSAGES[code] ?? "Request refused."));
      return;
    }
    case "illegal_token_code0":
      // The failure sample of Describe Cluster's reference, word for word: a success code, a
      // message, and no data.
      sendReply(res, jsonReply(200, { code: 0, message: "The token is illegal." }));
      return;
    case "unknown_cluster":
      sendReply(
        res,
        route.version === 2
          ? failReply(ApiCode.CLUSTER_NOT_FOUND_V2, "Cluster not exist or you don't have permission.")
          : failReply(ApiCode.CLUSTER_NOT_FOUND_V1, "cluster not found"),
      );
      return;
  }
}
