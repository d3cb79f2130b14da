/**
 * A response before it is written: status, headers and serialized body. Faults such as
 * truncated or slow_body transform a reply instead of the handler's output.
 */
import type { ServerResponse } from "node:http";
import { ApiCode } from "./errors.js";

/** A complete HTTP answer, not yet written. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };

/** A JSON reply. */
export function jsonReply(status: number, payload: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { ...JSON_TYPE, ...headers }, body: JSON.stringify(payload) };
}

/** An upstream failure envelope `{code, message}`. */
export function failReply(
  code: number,
  message: string,
  status = 200,
  headers: Record<string, string> = {},
): Reply {
  return jsonReply(status, { code, message }, headers);
}

/** The answer to a missing or unknown API key (HTTP 200, as the service does). */
export function invalidTokenReply(): Reply {
  return failReply(
    ApiCode.INVALID_TOKEN,
    "Invalid token: your token is not valid. Please double check your request.",
  );
}

/** Writes `reply` in full. */
export function sendReply(res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, { ...reply.headers, "content-length": String(Buffer.byteLength(reply.body)) });
  res.end(reply.body);
}
