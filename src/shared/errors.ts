/**
 * The root of the exporter's errors. Every error class of src/ extends it (a test checks), so
 * each failure the exporter raises carries a stable `code`: a snake_case word that logs, the
 * landing page and the self-metrics show instead of a message, and tests match on. The
 * underlying failure, where there is one, is the standard `cause` (never logged whole: its
 * shape is not under the exporter's control).
 *
 * The runtime settings and the simulator sit beside this layer and keep their own errors.
 */
export abstract class ExporterError extends Error {
  /** What kind of failure, stable across releases: `config_invalid`, `paging_error`, `timeout`. */
  abstract readonly code: string;
}
