/**
 * The client's vocabulary, which the rest of the exporter imports from here: the normalized
 * results (results.ts), the endpoints' identities and the derived sets (endpoints/table.ts, the one
 * table of endpoints), the `CloudApi` type derived from it, and the outcomes the client reports.
 * This module knows nothing of Prometheus.
 */

export {
  type CloudApi,
  DATA_PLANE_ENDPOINT,
  ENDPOINT,
  ENDPOINTS,
  type EndpointTemplate,
  PAGED_ENDPOINTS,
} from "./endpoints/table.js";
export * from "./results.js";

import type { EndpointTemplate } from "./endpoints/table.js";

/** Outcome classes of one logical API call (after retries). Stable: used as label values. */
export const OUTCOMES = [
  "success",
  "api_error",
  "invalid_request",
  "auth_error",
  "not_found",
  "rate_limited",
  "http_error",
  "timeout",
  "network_error",
  "schema_error",
  "body_too_large",
  "aborted",
] as const;

/** One outcome class of `OUTCOMES`. */
export type CallOutcome = (typeof OUTCOMES)[number];

/**
 * Events the client reports so that another layer can count them (the client itself never
 * depends on Prometheus). Implementations must be cheap and must not throw.
 */
export interface ClientObserver {
  /** One HTTP attempt finished (including each retry). */
  attempt(endpoint: EndpointTemplate, outcome: CallOutcome, durationSeconds: number): void;
  /** A retry is about to be scheduled after `delayMs`. */
  retry(endpoint: EndpointTemplate, delayMs: number): void;
  /** The upstream answered with rate limiting (HTTP 429 or a rate-limit error code/message). */
  rateLimited(endpoint: EndpointTemplate): void;
  /** A response body did not match the endpoint's schema. */
  schemaError(endpoint: EndpointTemplate): void;
}
