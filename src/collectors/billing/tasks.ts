import { ownsGlobalCalls } from "../../config/shard.js";
import { ownKeyCredential } from "../../polling/credentials.js";
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { listEveryPage } from "../../polling/pager.js";
import { putData, runPoll } from "../../polling/runtime.js";
import { fnv1a32 } from "../../shared/hash.js";
import type { CloudApi, EndpointTemplate, Invoice } from "../../upstream/types.js";
import { ENDPOINT } from "../../upstream/types.js";
import { BILLING_STATE, type BillingState, storeWindow, usageWindow } from "./cache.js";
import { BILLING_SECTION } from "./config.js";
import { dayOf } from "./days.js";
import { BILLING_FAMILIES } from "./families.js";
import { type AmountUnit, mapInvoices, mapUsage, selectInvoices } from "./mapping.js";
import { readUsage } from "./usage.js";

const COLLECTOR = "billing";
/** The billing key's label: the section's own key, whichever key that is. */
const CREDENTIAL = ownKeyCredential(BILLING_SECTION);
/** Targets of the billing collector: one task each. */
export const USAGE_TARGET = "usage";
export const INVOICES_TARGET = "invoices";

/** Page size of List Invoices: an organization has about one invoice a month. */
const INVOICE_PAGE_SIZE = 100;

/**
 * What a key the service refuses a billing call for lack of a role needs, for the one log line
 * of the refusal rule (polling/runtime.ts: the target is then up and not permitted). A key the
 * service refuses as invalid or expired is a failure instead.
 */
const ROLE = "the billing key needs the Organization Owner or Billing Admin role (billing.api_key)";

/** Every invoice, each once. */
export function listAllInvoices(client: CloudApi, signal?: AbortSignal): Promise<Invoice[]> {
  return listEveryPage(
    {
      endpoint: ENDPOINT.listInvoices,
      pageSize: INVOICE_PAGE_SIZE,
      fetch: (page, s) => client.listInvoices(page, s),
      items: (page) => page.invoices,
      key: (invoice) => invoice.id,
    },
    signal,
  );
}

/**
 * One poll of daily usage at `nowMs`: reads the window the cache calls for (the whole month
 * once a day, else the newest days), stores it, and returns the mapping of what is cached.
 */
export async function pollUsage(
  client: CloudApi,
  state: BillingState,
  nowMs: number,
  unit: AmountUnit,
  signal?: AbortSignal,
) {
  const window = usageWindow(state, nowMs);
  storeWindow(state, window, await readUsage(client, window.start, window.end, signal));
  return mapUsage(state.days, dayOf(nowMs), unit);
}

function task(
  env: CollectorEnv,
  target: string,
  endpoint: EndpointTemplate,
  poll: (client: CloudApi, state: BillingState, signal: AbortSignal) => Promise<void>,
): CollectorTask {
  const { ctx } = env;
  const cfg = env.config.billing;
  return collectorTask({
    id: { collector: COLLECTOR, target },
    credential: CREDENTIAL,
    calls: [{ endpoint, count: 1, atLeast: true }],
    intervalMs: cfg.intervalMs,
    run: (signal) =>
      runPoll(ctx, { collector: COLLECTOR, target, credential: CREDENTIAL, role: ROLE }, () =>
        poll(env.clients.ownKey(BILLING_SECTION), env.state.get(BILLING_STATE), signal),
      ),
  });
}

/**
 * The billing tasks: daily usage, and invoices when billing.invoices is on. Cost is
 * organization data (every item, polled cluster or not), so only shard 0 runs them, with the
 * billing key's own client.
 */
export function billingTasks(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.billing;
  if (!cfg.enabled || !ownsGlobalCalls(env.shard)) return [];
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  const fingerprint = fnv1a32(cfg.apiKey);
  const tasks = [
    task(env, USAGE_TARGET, ENDPOINT.queryDailyUsage, async (client, state, signal) => {
      // Another key may be another organization: nothing read with the old one is kept.
      if (state.keyFingerprint !== fingerprint) {
        state.days.clear();
        state.fullReadDay = undefined;
        state.keyFingerprint = fingerprint;
      }
      const mapping = await pollUsage(client, state, env.ctx.now(), cfg.amountUnit, signal);
      putData(env.ctx, COLLECTOR, USAGE_TARGET, mapping, ttlMs);
    }),
  ];
  if (cfg.invoices.enabled) {
    tasks.push(
      task(env, INVOICES_TARGET, ENDPOINT.listInvoices, async (client, _state, signal) => {
        const invoices = selectInvoices(await listAllInvoices(client, signal), cfg.invoices.keep);
        putData(env.ctx, COLLECTOR, INVOICES_TARGET, mapInvoices(invoices, cfg.amountUnit), ttlMs);
      }),
    );
  }
  return tasks;
}

/** The demo's billing key: the simulator lets it read billing only. */
const DEMO_BILLING_KEY = "demo-billing-key";

/** The billing collector: daily cost and usage, month to date, and invoices (docs/cost.md). */
export const billingCollector = defineCollector(COLLECTOR, billingTasks, {
  polls: "daily usage and invoices, with the billing key (shard 0)",
  config: BILLING_SECTION,
  demo: {
    // Billing reads with a key of its own, as a careful deployment would: the simulator refuses
    // the monitoring key there, and this key everywhere else (docs/cost.md).
    settings: ({ full }) =>
      full
        ? { enabled: true, api_key: DEMO_BILLING_KEY, interval: "PT5M", invoices: { keep: 3 } }
        : undefined,
    simulator: () => ({ billingKeys: [DEMO_BILLING_KEY] }),
  },
  areas: [{ title: "Billing", families: BILLING_FAMILIES }],
});
