/**
 * The metric-query budget of natively served clusters: with native_export.skip_metric_queries,
 * a cluster whose plan is known to be Enterprise asks nothing (checked at each run, since plans
 * are learnt after the tasks are made), its series go, and its health says why.
 */
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { SelfMetrics } from "../../exposition/selfMetrics.js";
import { SampleStore } from "../../exposition/store.js";
import { CLUSTER_KINDS } from "../../polling/clusterKinds.js";
import { HealthTracker } from "../../polling/health.js";
import type { PollContext } from "../../polling/runtime.js";
import type { CloudApi, ClusterMetricsRequest, MetricResult } from "../../upstream/types.js";
import { clusterMetricsCollector, SERVED_NATIVELY } from "./tasks.js";

const NOW = Date.UTC(2026, 0, 1, 12);
const ENT = "in01-enterprise";
const STD = "in01-standard";

async function setup(native: Record<string, unknown>) {
  const asked: string[] = [];
  const client = {
    queryClusterMetrics: async (req: ClusterMetricsRequest): Promise<MetricResult[]> => {
      asked.push(req.dbName === undefined ? req.clusterId : `${req.clusterId}/${req.dbName}`);
      return req.queries.map((q) => ({
        name: q.name,
        ...(q.stat === undefined ? {} : { stat: q.stat }),
        unit: q.name === "CU_COMPUTATION" ? "percent" : "count",
        values: [{ timestampMs: NOW - 120_000, value: "50" }],
      }));
    },
  } as unknown as CloudApi;
  const store = new SampleStore({ now: () => NOW });
  const health = new HealthTracker(store, pino({ level: "silent" }), () => NOW);
  const ctx: PollContext = {
    store,
    health,
    self: new SelfMetrics({ version: "test", defaultMetrics: false }),
    now: () => NOW,
  };
  const env = await collectorEnv({
    ctx,
    client,
    raw: {
      clusters: [
        { id: ENT, scopes: [{ db_name: "default", queries: [{ name: "ENTITIES_COUNT" }] }] },
        { id: STD },
      ],
      metrics: { queries: [{ name: "CU_COMPUTATION", stat: "AVG" }] },
      native_export: native,
    },
  });
  const tasks = clusterMetricsCollector.tasks(env);
  const kinds = env.state.get(CLUSTER_KINDS);
  const cycle = async () => {
    asked.length = 0;
    for (const t of tasks) await t.run(new AbortController().signal);
    return [...asked].sort();
  };
  const hasData = (target: string) => store.has({ collector: "cluster_metrics", target, slot: "data" });
  const note = (target: string) => health.list().find((h) => h.target === target)?.skipped;
  return { tasks, kinds, cycle, hasData, note };
}

describe("natively served clusters ask no metric queries", () => {
  it("once the plan is known: its cluster and scope targets skip, say why, and lose their series", async () => {
    const t = await setup({ enabled: true });
    // The tasks exist from the start: plans are not known when they are made.
    expect(t.tasks.map((x) => x.id.target)).toEqual([ENT, `${ENT}/default/`, STD]);
    expect(await t.cycle()).toEqual([ENT, `${ENT}/default`, STD]);
    expect(t.hasData(ENT)).toBe(true);

    t.kinds.note({ clusterId: ENT, plan: "Enterprise" });
    t.kinds.note({ clusterId: STD, plan: "Standard" });
    expect(await t.cycle()).toEqual([STD]);
    expect(t.hasData(ENT)).toBe(false);
    expect(t.hasData(`${ENT}/default/`)).toBe(false);
    expect(t.hasData(STD)).toBe(true);
    expect(t.note(ENT)).toBe(SERVED_NATIVELY);
    expect(t.note(`${ENT}/default/`)).toBe(SERVED_NATIVELY);
    expect(t.note(STD)).toBeNull();

    // A downgrade: polled again at the next run.
    t.kinds.note({ clusterId: ENT, plan: "Standard" });
    expect(await t.cycle()).toEqual([ENT, `${ENT}/default`, STD]);
    expect(t.note(ENT)).toBeNull();
    expect(t.hasData(ENT)).toBe(true);
  });

  it.each([
    ["native export off", { enabled: false }],
    ["metric queries kept", { enabled: true, skip_metric_queries: false }],
    ["another cluster listed", { enabled: true, clusters: [STD] }],
  ])("still asks when %s", async (_name, native) => {
    const t = await setup(native);
    t.kinds.note({ clusterId: ENT, plan: "Enterprise" });
    t.kinds.note({ clusterId: STD, plan: "Standard" });
    expect(await t.cycle()).toEqual([ENT, `${ENT}/default`, STD]);
  });
});
