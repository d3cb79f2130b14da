import { CLUSTER_KINDS, isFreeById } from "../../polling/clusterKinds.js";
import { clusterMetricFamilies } from "../../polling/metricFamilies.js";
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { skipsMetricQueries } from "../../polling/nativeExport.js";
import { mergeMappings, putData, runPoll } from "../../polling/runtime.js";
import { formOfQuery, offeredOnPlan, type QueryForm } from "../../upstream/catalog.js";
import { type MetricQuery, type MetricResult, ENDPOINT as UPSTREAM } from "../../upstream/types.js";
import { buildMetricQueries } from "./batches.js";
import { type FormVerdict, METRIC_QUERY_FORMS, verdictOf } from "./forms.js";
import { mapClusterMetrics, newestBucketSamples, queryFormSamples, rejectedQuerySamples } from "./mapping.js";
import {
  METRIC_REFUSAL_SUSPECTS,
  METRIC_REFUSALS,
  type Quarantined,
  type TargetRefusals,
} from "./quarantine.js";
import {
  type QueryRefusal,
  resolveWithSuspects,
  type SendQueries,
  type SuspectGroup,
  settle,
} from "./refusedQueries.js";
import { METRIC_REFUSAL_WARNINGS } from "./warnings.js";

export { metricsTargetName } from "./targets.js";

import { ExporterError } from "../../shared/errors.js";
import { metricsRequest, metricsTargets } from "./targets.js";

/**
 * The queried window: `lookback` (rounded up to whole granularity steps) ending at the last
 * granularity boundary at or before `nowMs - delayMs`, so consecutive cycles ask for the same
 * buckets and every bucket of the window has ended (a delay also lets late data settle).
 */
export function alignedWindow(
  nowMs: number,
  granularityMs: number,
  lookbackMs: number,
  delayMs = 0,
): { startMs: number; endMs: number } {
  const endMs = Math.floor((nowMs - delayMs) / granularityMs) * granularityMs;
  const steps = Math.max(1, Math.ceil(lookbackMs / granularityMs));
  return { startMs: endMs - steps * granularityMs, endMs };
}

const COLLECTOR = "cluster_metrics";
const ENDPOINT = UPSTREAM.queryClusterMetrics;

/** Why a natively served cluster's targets ask nothing (the landing page's note). */
export const SERVED_NATIVELY =
  "served by the service's own Prometheus endpoint (native_export, /sd/native-export): its metric queries are saved";

/** Raised when the service refused every query of a target: nothing is left to ask. */
class AllQueriesRefusedError extends ExporterError {
  override readonly name = "AllQueriesRefusedError";
  readonly code = "queries_refused";

  constructor(held: readonly Quarantined[]) {
    const first = held[0];
    super(
      `the service refused every metric query of this target${first === undefined ? "" : ` (${first.query.name}: ${first.message})`}; each is tried again after metrics.quarantine`,
    );
  }
}

interface Poll {
  readonly send: SendQueries;
  readonly refusals: TargetRefusals;
  readonly nowMs: number;
  readonly quarantineMs: number;
  readonly warn: (refusal: QueryRefusal) => void;
  /** A quarantined query (as configured) answered on its retrial. */
  readonly cleared: (query: MetricQuery) => void;
  /** What the targets of the same credential and kind were refused (refusedQueries.ts). */
  readonly suspects: SuspectGroup;
  /** The form the target's key speaks this cycle (forms.ts). */
  readonly form: QueryForm;
  /** Whether the key's form is learned (`metrics.form: auto`): a whole batch moved moves the key. */
  readonly learning: boolean;
  /** Whether the cluster's plan offers a query (upstream/catalog.ts `offeredOnPlan`). */
  readonly offered: (query: MetricQuery) => boolean;
}

/**
 * One cycle's queries: the target's batches in the key's form (refusals resolved, see
 * refusedQueries.ts), then each quarantined query whose period is over, alone. Returns every answer
 * received, and what the batch in the key's form said of that form.
 */
async function askAll(p: Poll): Promise<{ value: MetricResult[]; verdict: FormVerdict }> {
  const { active, due } = p.refusals.queriesAt(p.nowMs, p.form, p.offered);
  if (active.length === 0 && due.length === 0) {
    if (p.refusals.held().length === 0) return { value: [], verdict: "none" };
    throw new AllQueriesRefusedError(p.refusals.held());
  }
  const until = p.nowMs + p.quarantineMs;
  const results: MetricResult[] = [];
  let verdict: FormVerdict = "none";
  for (const batch of buildMetricQueries(active)) {
    const outcome = await resolveWithSuspects(batch.queries, p.send, p.suspects);
    results.push(...outcome.results);
    const inKeyForm = batch.queries[0] !== undefined && formOfQuery(batch.queries[0]) === p.form;
    const said = inKeyForm ? verdictOf(batch.queries, outcome) : "none";
    if (said !== "none" && verdict !== "moved") verdict = said;
    // A whole batch answered in the other form moves the key (forms.ts), not each query.
    const keepSwitches = !(p.learning && said === "moved");
    for (const fresh of p.refusals.record(outcome, until, keepSwitches)) p.warn(fresh);
  }
  for (const query of due) {
    const retried = await settle([query], p.send);
    results.push(...retried.results);
    if (retried.accepted.length > 0) p.cleared(p.refusals.release(query));
    else p.refusals.record({ results: [], switched: new Map(), refused: retried.refused }, until);
  }
  if (p.refusals.queriesAt(p.nowMs, p.form, p.offered).active.length === 0 && results.length === 0) {
    throw new AllQueriesRefusedError(p.refusals.held());
  }
  return { value: results, verdict };
}

/**
 * One task per target (a cluster, plus one per configured scope). Each run sends one Query
 * Cluster Metrics request carrying all the target's queries (two when both request forms are
 * configured: they must not mix), maps the results and replaces the target's samples. A query
 * the service refuses costs only itself: see refusedQueries.ts and quarantine.ts.
 */
function clusterMetricsTasks(env: CollectorEnv): CollectorTask[] {
  const { ctx, clients, clusters } = env;
  const cfg = env.config.metrics;
  const stalenessIntervals = env.config.stalenessIntervals;
  if (!cfg.enabled) return [];
  const tasks: CollectorTask[] = [];
  const ttlMs = stalenessIntervals * cfg.intervalMs;
  const book = env.state.get(METRIC_REFUSALS);
  const warnings = env.state.get(METRIC_REFUSAL_WARNINGS);
  const suspects = env.state.get(METRIC_REFUSAL_SUSPECTS);
  const forms = env.state.get(METRIC_QUERY_FORMS);
  // Plans are learnt after the tasks are made (and change): each run asks whether its cluster
  // is served natively now.
  const kinds = env.state.get(CLUSTER_KINDS);
  const targets = new Set<string>();
  // The key's form series are written by one target of the key (the first), once.
  const formOwner = new Map<string, string>();
  for (const t of metricsTargets(cfg, clusters)) {
    const { cluster, scope, batches } = t;
    const configured = t.queries;
    const target = t.name;
    const client = clients.forCluster(cluster);
    const refusals = book.forTarget(target, configured);
    targets.add(target);
    if (!formOwner.has(clients.credentialOf(cluster))) formOwner.set(clients.credentialOf(cluster), target);
    // One warning per refused name across targets (warnings.ts), not one per target.
    const warn = (r: QueryRefusal): void => warnings.refused(ctx.logger, target, r.query, r.message);
    const cleared = (q: MetricQuery): void => warnings.answered(ctx.logger, target, q);
    // Targets of one credential and kind are usually refused the same names (refusedQueries.ts).
    const group = suspects.group(
      `${clients.credentialOf(cluster)}\u0000${scope === undefined ? "cluster" : "scope"}`,
    );
    const credential = clients.credentialOf(cluster);
    // The key's form series, written by one target of the key (formOwner).
    const writeForm = (): void => {
      if (formOwner.get(credential) !== target) return;
      const form = cfg.form === "auto" ? forms.formOf(credential) : cfg.form;
      const formSamples = queryFormSamples(credential, form);
      ctx.store.put(
        { collector: COLLECTOR, target, slot: "form" },
        formSamples.families,
        formSamples.samples,
        ttlMs,
      );
    };
    tasks.push(
      collectorTask({
        id: { collector: COLLECTOR, target },
        credential: clients.credentialOf(cluster),
        // More calls when the service refuses a query: halving, the other form, retrials.
        calls: [{ endpoint: ENDPOINT, count: batches.length, atLeast: true }],
        nativeCluster: cluster.id,
        intervalMs: cfg.intervalMs,
        run: (signal) =>
          runPoll(
            ctx,
            { collector: COLLECTOR, target, credential: clients.credentialOf(cluster) },
            async (run) => {
              if (skipsMetricQueries(env.config.nativeExport, kinds, cluster.id)) {
                // The key's form stays shown even when the target writing it is served natively.
                writeForm();
                // Its series go at once: Prometheus scrapes the service's own families instead.
                ctx.store.delete({ collector: COLLECTOR, target, slot: "data" });
                ctx.store.delete({ collector: COLLECTOR, target, slot: "rejected" });
                run.skip(SERVED_NATIVELY);
                return;
              }
              const nowMs = ctx.now();
              const { startMs, endMs } = alignedWindow(nowMs, cfg.granularityMs, cfg.lookbackMs, cfg.delayMs);
              const window = { startMs, endMs, granularityMs: cfg.granularityMs };
              const send: SendQueries = (queries) =>
                client.queryClusterMetrics(metricsRequest(t, queries, window), signal);
              // Names the cluster's plan does not offer are not asked once the plan is known.
              const plan = isFreeById(cluster.id) ? "free" : kinds.planOf(cluster.id);
              const offered = (q: MetricQuery): boolean => offeredOnPlan(q.name, plan);
              try {
                const results = await forms.withForm(credential, cfg.form, nowMs, ctx.logger, (form) =>
                  askAll({
                    send,
                    refusals,
                    nowMs,
                    quarantineMs: cfg.quarantineMs,
                    warn,
                    cleared,
                    suspects: group,
                    form,
                    learning: cfg.form === "auto",
                    offered,
                  }),
                );
                const mapped = mapClusterMetrics({
                  clusterId: cluster.id,
                  ...(scope ? { scope } : {}),
                  results,
                  window: { endMs, granularityMs: cfg.granularityMs, nowMs },
                });
                const newest = newestBucketSamples(cluster.id, scope, mapped.newestBucketMs);
                putData(ctx, COLLECTOR, target, mergeMappings(mapped, newest), ttlMs);
              } finally {
                writeForm();
                const rejected = rejectedQuerySamples(cluster.id, scope, refusals.held());
                ctx.store.put(
                  { collector: COLLECTOR, target, slot: "rejected" },
                  rejected.families,
                  rejected.samples,
                  ttlMs,
                );
              }
            },
          ),
      }),
    );
  }
  book.retain(targets);
  warnings.retain(targets);
  return tasks;
}

/** The cluster metrics collector: Query Cluster Metrics per cluster and per scope. */
export const clusterMetricsCollector = defineCollector(COLLECTOR, clusterMetricsTasks, {
  polls: "Query Cluster Metrics per cluster and scope",
  families: clusterMetricFamilies,
});
