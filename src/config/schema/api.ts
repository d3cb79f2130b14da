/**
 * The `api` section: where the upstream is, the default credential, timeouts, the rate limit
 * and retries.
 */
import * as z from "zod";
import { DATA_PLANE_HOST_ENTRY } from "../../upstream/dataPlaneHosts.js";
import { DEFAULT_RATE_LIMIT_MARGIN_MS } from "../../upstream/rateLimiter.js";
import {
  boolField,
  durationField,
  httpUrlField,
  intField,
  regionUrlTemplateField,
  textField,
} from "../fields.js";
import { always, list, nullAsAbsent, section } from "../schemaKit.js";
import { apiKeyFields, keySource, MINUTE, type ResolvePath, rejectBothKeys, SECOND } from "./common.js";
import { DEFAULTS } from "./defaults.js";

export function apiSchema(resolvePath: ResolvePath) {
  return section({
    base_url: httpUrlField().default(DEFAULTS.baseUrl),
    controller_url: regionUrlTemplateField().default(DEFAULTS.controllerUrl),
    ...apiKeyFields,
    key_id: textField().optional(),
    request_timeout: durationField({ min: 100, max: 10 * MINUTE }).default(10 * SECOND),
    rate_limit: intField(1, 1000).default(20),
    // Why 100 ms: DEFAULT_RATE_LIMIT_MARGIN_MS. Half a second already costs a third of the budget.
    rate_limit_margin: durationField({ min: 0, max: 500 }).default(DEFAULT_RATE_LIMIT_MARGIN_MS),
    max_retries: intField(0, 10).default(3),
    max_response_bytes: intField(1024, 1024 ** 3).default(16 * 1024 ** 2),
    max_in_flight: intField(1, 1000).default(16),
    send_request_timeout_header: boolField().default(true),
    replicas_per_key: intField(1, 1000).optional(),
    data_plane_hosts: nullAsAbsent(
      list(
        textField({
          regex: DATA_PLANE_HOST_ENTRY,
          description: 'a host name or address, or "*.<domain>", optionally after "http://"',
        }),
      ).default([]),
    ),
  })
    .check(z.superRefine(rejectBothKeys, always))
    .transform((api) => ({
      settings: {
        baseUrl: api.base_url,
        /** Template with `{region}`, e.g. https://controller.api.{region}.zillizcloud.com */
        controllerUrl: api.controller_url,
        /**
         * The ID of the default key itself (List API Keys' apiKeyId), so that what it holds can be
         * checked against what monitoring needs; absent: not checked. An ID, never the secret.
         */
        ...(api.key_id === undefined ? {} : { keyId: api.key_id }),
        requestTimeoutMs: api.request_timeout,
        /** Requests per second per endpoint per credential. */
        rateLimit: api.rate_limit,
        /**
         * Added to the one-second window the limiter keeps `rateLimit` requests in, for network
         * jitter; the usable rate is rateLimit / (1 s + margin).
         */
        rateLimitMarginMs: api.rate_limit_margin,
        maxRetries: api.max_retries,
        /** Responses larger than this are refused. */
        maxResponseBytes: api.max_response_bytes,
        /** Cap on concurrent upstream requests per credential. */
        maxInFlight: api.max_in_flight,
        /** Send the documented `Request-Timeout` header (seconds) with each request. */
        sendRequestTimeoutHeader: api.send_request_timeout_header,
        /**
         * Replicas that use this key at once (absent: every replica, --total-shards); each
         * spends its share of the per-endpoint budget (polling/budgets.ts).
         */
        ...(api.replicas_per_key === undefined ? {} : { replicasPerKey: api.replicas_per_key }),
        /**
         * Hosts beyond the service's own domains that a data-plane address from Describe Cluster
         * may name ("*.<domain>" for a whole domain; "http://" before an entry allows plaintext
         * to it). A configured clusters[].data_plane.endpoint is used as given.
         */
        dataPlaneHosts: api.data_plane_hosts,
      },
      key: keySource(api, resolvePath),
    }));
}
