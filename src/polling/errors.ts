import { CloudError } from "../upstream/errors.js";

/** A failure reduced to what may be shown and logged: a stable code and a safe message. */
interface ErrorSummary {
  readonly code: string;
  readonly message: string;
}

/**
 * Summarises any thrown value. The exporter's errors (shared/errors.ts: CloudError, PagingError,
 * ...) carry a stable `code` and messages that were built without secrets; an error without a
 * string `code` is reported as "internal" with its message only (no stack).
 */
export function describeError(err: unknown): ErrorSummary {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { code: typeof code === "string" ? code : "internal", message: err.message };
  }
  return { code: "internal", message: String(err) };
}

/**
 * Whether retrying soon is pointless (auth, not found, invalid request): the scheduler backs
 * off these. Only the upstream can say so; any other failure may pass.
 */
export function isPermanent(err: unknown): boolean {
  return err instanceof CloudError && err.permanent;
}
