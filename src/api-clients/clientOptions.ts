/**
 * The upstream client's options from the `api` settings: one definition for the exporter and
 * the history backfill, so both pace, time out and retry the same way.
 */

import type { ApiConfig } from "../config/types.js";
import type { CloudClientOptions } from "../upstream/client.js";

/** Options of the client for `apiKey` under `api`; the caller adds observer, clock, dispatcher. */
export function cloudClientOptions(api: ApiConfig, apiKey: string, version: string): CloudClientOptions {
  return {
    baseUrl: api.baseUrl,
    controllerUrl: api.controllerUrl,
    apiKey,
    requestTimeoutMs: api.requestTimeoutMs,
    rateLimit: api.rateLimit,
    ...(api.rateLimitMarginMs === undefined ? {} : { rateLimitMarginMs: api.rateLimitMarginMs }),
    maxRetries: api.maxRetries,
    maxResponseBytes: api.maxResponseBytes,
    maxInFlight: api.maxInFlight,
    sendRequestTimeoutHeader: api.sendRequestTimeoutHeader ?? true,
    userAgent: `vdbcloud-exporter/${version}`,
  };
}
