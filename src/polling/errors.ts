import { CloudError } from "../upstream/errors.js";

/** A failure reduced to what may be shown and logged: a stable code and a safe message. */
interface ErrorSummary {
  readonly code: string;
  readonly message: string;
}

/**
 * Summarises any thrown value. Cloud errors carry a stable `code` and messages that were built
 * without secrets; anything else is reported as "internal" with its message only (no stack).
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

/**
 * Whether the collector that threw `err` has logged it already, on its own schedule (a
 * `reported: true` field): the health tracker then keeps its own line at debug, so one cause
 * costs one line.
 */
export function isReported(err: unknown): boolean {
  return err instanceof Error && (err as { reported?: unknown }).reported === true;
}
