import { ownsGlobalCalls } from "../../config/shard.js";
import { BILLING_CREDENTIAL } from "../../polling/credentials.js";
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { type NotPermitted, type PollContext, putData, runPoll } from "../../polling/runtime.js";
import { fnv1a32 } from "../../shared/hash.js";
import { CloudError } from "../../upstream/errors.js";
import type { CloudApi, EndpointTemplate, Invoice } from "../../upstream/types.js";
import { ENDPOINT } from "../../upstream/types.js";
import { BILLING_STATE, type BillingState, storeWindow, usageWindow } from "./cache.js";
import { dayOf } from "./days.js";
import { type AmountUnit, mapInvoices, mapUsage, selectInvoices } from "./mapping.js";
import { readUsage } from "./usage.js";

const COLLECTOR = "billing";
/** Targets of the billing collector: one task each. */
export const USAGE_TARGET = "usage";
export const INVOICES_TARGET = "invoices";

/** Page size of List Invoices: an organization has about one invoice a month. */
const INVOICE_PAGE_SIZE = 100;
/** Hard stop for paging through invoices (a server that ignores `currentPage`). */
const MAX_INVOICE_PAGES = 50;
/** The missing-role warning is repeated at most this often. */
export const REFUSAL_WARN_EVERY_MS = 3_600_000;

/** What a key without the Organization Owner or Billing Admin role gets, for its log line. */
const ROLE_HINT = "the billing key needs the Organization Owner or Billing Admin role (billing.api_key)";

/** A refusal of the key itself (HTTP 401/403, an invalid-token code), not of one request. */
function isRefusal(err: unknown): err is CloudError {
  return err instanceof CloudError && err.code === "auth_error";
}

/**
 * Runs `read`; a refusal of the billing key becomes one warning naming the collector and the
 * credential, repeated at most every REFUSAL_WARN_EVERY_MS (both tasks share it), and the
 * target is reported not permitted (up, with vdbcloud_collector_not_permitted 1): a key without
 * the role costs that line and nothing else. Its previous data ages out at its staleness bound.
 */
async function guarded(
  ctx: PollContext,
  state: BillingState,
  read: () => Promise<void>,
  // biome-ignore lint/suspicious/noConfusingVoidType: most polls return nothing (void), a refused one says so
): Promise<void | NotPermitted> {
  try {
    return await read();
  } catch (err) {
    if (!isRefusal(err)) throw err;
    const now = ctx.now();
    if (state.warnedAtMs === undefined || now - state.warnedAtMs >= REFUSAL_WARN_EVERY_MS) {
      state.warnedAtMs = now;
      ctx.logger?.warn(
        { collector: COLLECTOR, credential: BILLING_CREDENTIAL, endpoint: err.endpoint, err: err.message },
        `billing data not readable: ${ROLE_HINT}`,
      );
    }
    return { notPermitted: BILLING_CREDENTIAL };
  }
}

/** Every invoice, page by page until `count` (without it: until a short page). */
export async function listAllInvoices(client: CloudApi, signal?: AbortSignal): Promise<Invoice[]> {
  const all: Invoice[] = [];
  for (let currentPage = 1; currentPage <= MAX_INVOICE_PAGES; currentPage++) {
    const page = await client.listInvoices({ pageSize: INVOICE_PAGE_SIZE, currentPage }, signal);
    all.push(...page.invoices);
    if (page.invoices.length === 0) return all;
    if (page.count !== null ? all.length >= page.count : page.invoices.length < page.pageSize) return all;
  }
  return all;
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
    credential: BILLING_CREDENTIAL,
    calls: [{ endpoint, count: 1, atLeast: true }],
    intervalMs: cfg.intervalMs,
    run: (signal) =>
      runPoll(ctx, COLLECTOR, target, () => {
        const state = env.state.get(BILLING_STATE);
        return guarded(ctx, state, () => poll(env.clients.billing(), state, signal));
      }),
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

/** The billing collector: daily cost and usage, month to date, and invoices (docs/cost.md). */
export const billingCollector = defineCollector(COLLECTOR, billingTasks);
