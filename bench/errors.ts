/** Stable codes of the harness's own failures (not of the exporter under test). */
export type BenchErrorCode =
  | "bad_arguments"
  | "child_failed"
  | "child_timeout"
  | "ipc_failed"
  | "scrape_failed"
  | "scrape_timeout";

/**
 * A failure of the benchmark or soak harness itself: bad flags, a child process that did not
 * start or answer, a scrape that could not be made. `code` is stable; `cause` keeps the origin.
 */
export class BenchError extends Error {
  readonly code: BenchErrorCode;

  constructor(code: BenchErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "BenchError";
    this.code = code;
  }
}
