/**
 * API keys: List API Keys, every page through the one pager, on the replica that owns
 * account-wide calls (shard 0), with the section's own key (`api_keys.api_key`, else the
 * default key) through its own client, under the credential label "api_keys" whichever key it
 * is. One task, target "organization". A key that may not list keys is "not permitted" (the one
 * refusal rule of runPoll), one line: only an Organization Owner sees every key, a Project Admin
 * those of its projects. So a deployment whose main key is read-only, as it should be, gives
 * this section an Owner key of its own.
 *
 * With `api.key_id`, the exporter's own key (the main key, `api.api_key`, not this section's) is
 * found in the listing and checked against what monitoring needs (privilege.ts); what it holds
 * beyond that is a series and one warning per change (notices.ts). Nothing of a person (creator,
 * description) reaches this folder: the endpoint's schema drops it.
 */

import { ownsGlobalCalls } from "../../config/shard.js";
import type { Config } from "../../config/types.js";
import { ownKeyCredential } from "../../polling/credentials.js";
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { listEveryPage } from "../../polling/pager.js";
import { putData, runPoll } from "../../polling/runtime.js";
import { formatDuration } from "../../shared/duration.js";
import { type ApiKey, type CloudApi, ENDPOINT } from "../../upstream/types.js";
import { API_KEYS_SECTION } from "./config.js";
import { API_KEY_FAMILIES } from "./families.js";
import { mapApiKeys } from "./mapping.js";
import { API_KEY_NOTICES } from "./notices.js";

const COLLECTOR = "api_keys";
const TARGET = "organization";
/** The label of the section's own key, whichever key that is (the default one when it has none). */
const CREDENTIAL = ownKeyCredential(API_KEYS_SECTION);

/** The page size asked for: the documented maximum. */
export const API_KEYS_PAGE_SIZE = 100;

/** Who may list keys, and where such a key goes, for the one line of a refusal. */
export const API_KEYS_ROLE =
  "Organization Owner (or Project Admin for its projects' keys): give api_keys a key of its own (api_keys.api_key)";

/** Every key of the organization the caller may see, each once, through the pager. */
export function listAllApiKeys(client: CloudApi, signal?: AbortSignal): Promise<ApiKey[]> {
  return listEveryPage(
    {
      endpoint: ENDPOINT.listApiKeys,
      pageSize: API_KEYS_PAGE_SIZE,
      fetch: (page, s) => client.listApiKeys(page, s),
      items: (page) => page.apiKeys,
      key: (k) => k.apiKeyId,
    },
    signal,
  );
}

/**
 * The one task (shard 0, `api_keys.enabled`), or none. Its client is the section's own key's,
 * asked at each run (a reload that changes the key replaces it); `api.key_id` names the main key.
 */
function apiKeyTasks(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.apiKeys;
  if (!cfg.enabled || !ownsGlobalCalls(env.shard)) return [];
  const { ctx } = env;
  const ownKeyId = env.config.api.keyId;
  const notices = env.state.get(API_KEY_NOTICES);
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return [
    collectorTask({
      id: { collector: COLLECTOR, target: TARGET },
      credential: CREDENTIAL,
      // One page for up to 100 keys; more only for a larger organization.
      calls: [{ endpoint: ENDPOINT.listApiKeys, count: 1, atLeast: true }],
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(
          ctx,
          { collector: COLLECTOR, target: TARGET, credential: CREDENTIAL, role: API_KEYS_ROLE },
          async () => {
            const keys = await listAllApiKeys(env.clients.ownKey(API_KEYS_SECTION), signal);
            const input = { ownKeyId, maxAgeMs: cfg.maxAgeMs, nowMs: ctx.now() };
            for (const n of notices.lines(keys, input))
              ctx.logger?.[n.level]({ collector: COLLECTOR, ...n.fields }, n.msg);
            putData(ctx, COLLECTOR, TARGET, mapApiKeys(keys, ownKeyId), ttlMs);
          },
        ),
    }),
  ];
}

/** What `--check-config` says of it: what `api_keys.max_age` and `api.key_id` do. */
function apiKeyNotes(config: Config): string[] {
  const cfg = config.apiKeys;
  if (!cfg.enabled) return [];
  const keyId = config.api.keyId;
  return [
    `API keys: keys older than api_keys.max_age (${formatDuration(cfg.maxAgeMs)}) are logged as the set changes; the alert VdbcloudApiKeyOld has its own threshold in config/prometheus/thresholds.yml`,
    keyId === undefined
      ? "API keys: api.key_id is not set, so the exporter's own key is not checked for more than monitoring needs"
      : `API keys: the exporter's own key (api.key_id ${keyId}) is checked for more than monitoring needs (Owner, or a project role above Read-Only)`,
  ];
}

/** The name the simulator gives the key it says is the exporter's own (src/simulator/api-keys.ts). */
const SIM_OWN_KEY_NAME = "vdbcloud-exporter";

/**
 * The ID of the demo's own key: the simulator's key of that name, read by shape (the collector
 * knows nothing of the simulator's types).
 */
function demoOwnKeyId(simulator: unknown): string | undefined {
  const keys = (simulator as { apiKeys?: readonly { apiKeyId: string; name: string }[] } | undefined)
    ?.apiKeys;
  return keys?.find((k) => k.name === SIM_OWN_KEY_NAME)?.apiKeyId;
}

/** The organization's API keys, their roles and ages, and whether the exporter's own holds too much. */
export const apiKeysCollector = defineCollector(COLLECTOR, apiKeyTasks, {
  polls: "List API Keys: the organization's keys, their roles and ages (shard 0)",
  config: API_KEYS_SECTION,
  notes: apiKeyNotes,
  demo: {
    // Keys change rarely (PT1H by default); the demo reads them every minute. Its simulator's
    // own key holds a project Admin role and some keys are over a year old: the bad cases.
    settings: () => ({ interval: "PT1M" }),
    api: ({ simulator }) => {
      const keyId = demoOwnKeyId(simulator);
      return keyId === undefined ? {} : { key_id: keyId };
    },
    simulator: () => ({ apiKeysBadCases: true }),
  },
  areas: [{ title: "API keys", families: API_KEY_FAMILIES }],
});
