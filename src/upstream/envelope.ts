/**
 * The response envelope `{code, data}` / `{code, message}`. The spec says 0 means success;
 * samples of v1 endpoints show 200 and of v2 endpoints show 0. A tolerant reader accepts both
 * on both planes rather than guessing which plane a deployment follows.
 */
import { errorForApiCode, errorForDatalessSuccess, type MappingContext } from "./errorMapping.js";
import { CloudError } from "./errors.js";

/** Envelope codes meaning success (0 per the spec and v2 samples, 200 per v1 samples). */
const SUCCESS_CODES: ReadonlySet<number> = new Set([0, 200]);

/** The envelope fields, each present only when well-typed on the wire. */
interface EnvelopeFields {
  readonly code?: number;
  readonly message?: string;
  readonly hasData: boolean;
  readonly data: unknown;
}

function toCode(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) return Number(value);
  return undefined;
}

/**
 * Reads envelope fields from any parsed body without throwing; `undefined` when the body is
 * not a JSON object. A numeric-string `code` is accepted.
 */
export function readEnvelope(body: unknown): EnvelopeFields | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const code = toCode(record.code);
  const message = typeof record.message === "string" ? record.message : undefined;
  return {
    ...(code === undefined ? {} : { code }),
    ...(message === undefined ? {} : { message }),
    hasData: "data" in record,
    data: record.data,
  };
}

/**
 * True for a JSON object that is no envelope (no integer `code`): the payload itself, as some
 * endpoints document their answer. Lists and scalars are never a bare payload.
 */
function isBareBody(body: unknown): boolean {
  const envelope = readEnvelope(body);
  return envelope !== undefined && envelope.code === undefined;
}

/**
 * Returns `data` of a success envelope. Throws the mapped CloudError for any other code; for a
 * success code without data (absent or null), the error its message names (`auth_error` for a
 * token or key message, else `api_error`), or a `schema_error` when it has no message either;
 * and a `schema_error` when the body is not an envelope at all.
 */
export function unwrapEnvelope(body: unknown, ctx: MappingContext): unknown {
  const envelope = readEnvelope(body);
  if (envelope?.code === undefined) {
    throw new CloudError("schema_error", `${ctx.endpoint}: response is not an envelope (no integer "code")`, {
      endpoint: ctx.endpoint,
      ...(ctx.httpStatus === undefined ? {} : { httpStatus: ctx.httpStatus }),
    });
  }
  if (!SUCCESS_CODES.has(envelope.code)) throw errorForApiCode(envelope.code, envelope.message ?? "", ctx);
  if (envelope.hasData && envelope.data !== null) return envelope.data;
  // The reference's own failure sample is `{"code": 0, "message": "The token is illegal."}`:
  // a success code is no success without data. Its message says what went wrong.
  if (envelope.message !== undefined && envelope.message.trim() !== "") {
    throw errorForDatalessSuccess(envelope.code, envelope.message, ctx);
  }
  throw new CloudError("schema_error", `${ctx.endpoint}: response has code ${envelope.code} but no data`, {
    endpoint: ctx.endpoint,
    apiCode: envelope.code,
    ...(ctx.httpStatus === undefined ? {} : { httpStatus: ctx.httpStatus }),
  });
}

/**
 * Like {@link unwrapEnvelope}, for endpoints whose answer may also come without an envelope
 * (the reference's samples of the global-cluster endpoints carry none): a JSON object or array
 * without an integer `code` is the payload itself; anything with a `code` is an envelope and
 * read as one, so `{code, message}` failures stay failures.
 */
export function unwrapOptionalEnvelope(body: unknown, ctx: MappingContext): unknown {
  if (Array.isArray(body) || isBareBody(body)) return body;
  return unwrapEnvelope(body, ctx);
}

/**
 * Like {@link unwrapEnvelope}, for endpoints whose answer carries fields of its own beside
 * `data` (Search's `cost` and `topks`): the success envelope itself is the payload, after the
 * same checks (a failure code, or a success without data, throws as there).
 */
export function unwrapWholeEnvelope(body: unknown, ctx: MappingContext): unknown {
  unwrapEnvelope(body, ctx);
  return body;
}
