/**
 * The error of a listing whose pages do not add up, in the upstream layer because the client
 * finds one kind of it itself (a page longer than asked) before any item is read; the pager
 * (polling/pager.ts) re-exports it and throws the others.
 */
import { ExporterError } from "../shared/errors.js";
import type { PagingErrorReason } from "./pageTypes.js";
import type { EndpointTemplate } from "./types.js";

/**
 * A listing's pages could not be trusted to add up to the listing: the listing fails. Thrown by
 * the pager (polling/pager.ts), and by the client for a page longer than the one asked for,
 * which it finds before it reads a single item of it. Its code is `paging_error` whatever the
 * `reason`; no upstream failure lies beneath it, so it has a `cause` only when a thrower gives one.
 */
export class PagingError extends ExporterError {
  override readonly name = "PagingError";
  readonly code = "paging_error";
  constructor(
    /** The listing's endpoint template, a label of the paging errors counter. */
    readonly endpoint: EndpointTemplate,
    readonly reason: PagingErrorReason,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${endpoint}: paging error (${reason}): ${detail}`, options);
  }
}
