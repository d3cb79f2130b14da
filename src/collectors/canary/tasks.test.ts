/**
 * The canary's tasks over a fake data plane, with the real store and health (what /metrics shows):
 * a task per cluster of this replica with targets, its calls for the schedule, its series, a
 * failed probe shown on the target's health, a data plane it cannot find failing the poll.
 */
import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { storeContext } from "../../../test/helpers/storeContext.js";
import { computeSchedule } from "../../polling/schedule.js";
import { probedPlane } from "../../upstream/canaryTestkit.js";
import type { DataPlaneApi } from "../../upstream/dataPlane.js";
import { CloudError } from "../../upstream/errors.js";
import { blankCluster } from "../../upstream/testkit.js";
import { type CloudApi, DATA_PLANE_ENDPOINT, ENDPOINT } from "../../upstream/types.js";
import { canaryCollector } from "./tasks.js";

const T0 = Date.UTC(2025, 5, 1);
const A = "in01-0123456789abcdef";
const B = "in01-fedcba9876543210";
const SEARCH_E = DATA_PLANE_ENDPOINT.search;

const RAW = {
  clusters: [{ id: A }, { id: B, data_plane: { endpoint: "https://in01-fedcba9876543210.example.com" } }],
  api: { api_key: "test-key", data_plane_hosts: ["http://plane.test"] },
  canary: {
    targets: [
      { cluster_id: A, collection_name: "docs" },
      {
        cluster_id: A,
        db_name: "analytics",
        collection_name: "events",
        operation: "query",
        filter: "id >= 0",
      },
      { cluster_id: B, collection_name: "docs" },
    ],
  },
};

/** A data plane whose collections have a 2-dimensional vector; `fail` makes a call fail. */
function plane(fail: (call: string) => Error | undefined = () => undefined) {
  const calls: string[] = [];
  const answer = async (call: string) => {
    calls.push(call);
    const err = fail(call);
    if (err !== undefined) throw err;
    return { value: { cost: 2, hits: 1 }, seconds: 0.03 };
  };
  const dp = probedPlane({
    describeCollection: async (r) => {
      calls.push(`describe ${r.collectionName}`);
      return { vectorFields: [{ name: "vector", type: "FloatVector", dim: 2 }] };
    },
    search: (r) => answer(`search ${r.collectionName}`),
    query: (r) => answer(`query ${r.collectionName} ${r.filter ?? ""}`),
  });
  return { dp, calls };
}

const control = (address: string | null) =>
  ({
    describeCluster: async (id: string) => blankCluster(id, { connectAddress: address }),
  }) as unknown as CloudApi;

async function setup(dp: DataPlaneApi, address: string | null = "http://plane.test") {
  const s = storeContext(T0);
  const env = await collectorEnv({ ctx: s.ctx, client: control(address), raw: RAW, dataPlane: dp });
  return { s, env, tasks: canaryCollector.tasks(env) };
}

describe("the canary's tasks", () => {
  it("are one per cluster with targets, none without targets", async () => {
    const { tasks } = await setup(plane().dp);
    expect(tasks.map((t) => t.id)).toEqual([
      { collector: "canary", target: A },
      { collector: "canary", target: B },
    ]);
    const s = storeContext(T0);
    const none = await collectorEnv({ ctx: s.ctx, client: control(null), raw: { clusters: RAW.clusters } });
    expect(canaryCollector.tasks(none)).toEqual([]);
  });

  it("count their calls: Describe Cluster without a configured endpoint, and per target its probe", async () => {
    const { tasks } = await setup(plane().dp);
    const calls = (i: number) =>
      Object.fromEntries((tasks[i]?.calls ?? []).map((c) => [c.endpoint, c.count]));
    expect(calls(0)).toEqual({
      [ENDPOINT.describeCluster]: 1,
      [DATA_PLANE_ENDPOINT.describeCollection]: 1,
      [SEARCH_E]: 1,
      [DATA_PLANE_ENDPOINT.query]: 1,
    });
    expect(calls(1)).toEqual({ [DATA_PLANE_ENDPOINT.describeCollection]: 1, [SEARCH_E]: 1 });
  });

  it("probe every target of the cluster and show its series", async () => {
    const p = plane();
    const { s, tasks } = await setup(p.dp);
    expect(await tasks[0]?.run(new AbortController().signal)).toBe("ok");
    expect(p.calls).toEqual(["describe docs", "search docs", "query events id >= 0"]);
    const text = await s.text();
    const docs = `cluster_id="${A}",db_name="default",collection_name="docs",operation="search"`;
    const events = `cluster_id="${A}",db_name="analytics",collection_name="events",operation="query"`;
    expect(text).toContain(`vdbcloud_canary_up{${docs}} 1\n`);
    expect(text).toContain(`vdbcloud_canary_up{${events}} 1\n`);
    expect(text).toContain(`vdbcloud_canary_last_success_timestamp_seconds{${docs}} ${T0 / 1000}\n`);
    expect(text).toContain("# TYPE vdbcloud_canary_duration_seconds histogram\n");
    expect(text).toContain(`vdbcloud_canary_duration_seconds_bucket{${docs},le="0.025"} 0\n`);
    expect(text).toContain(`vdbcloud_canary_duration_seconds_bucket{${docs},le="0.05"} 1\n`);
    expect(text).toContain(`vdbcloud_canary_requests_total{${docs},outcome="success"} 1\n`);
    expect(text).toContain(`vdbcloud_canary_vcu_total{${events}} 2\n`);
  });

  it("count a failed probe as its data, up 0, and show it on the target's health", async () => {
    const refused = new CloudError(
      "auth_error",
      `${SEARCH_E}: upstream code 1800: User hasn't authenticated`,
      {
        endpoint: SEARCH_E,
        apiCode: 1800,
      },
    );
    const p = plane((call) => (call.startsWith("search") ? refused : undefined));
    const { s, tasks } = await setup(p.dp);
    expect(await tasks[0]?.run(new AbortController().signal)).toBe("ok");
    const text = await s.text();
    const docs = `cluster_id="${A}",db_name="default",collection_name="docs",operation="search"`;
    expect(text).toContain(`vdbcloud_canary_up{${docs}} 0\n`);
    expect(text).toContain(`vdbcloud_canary_requests_total{${docs},outcome="refused"} 1\n`);
    expect(text).toContain(`vdbcloud_collector_up{collector="canary",target="${A}"} 1\n`);
    expect(s.health.list().find((h) => h.target === A)?.partialError?.code).toBe("auth_error");
  });

  it("fail the poll when the cluster's data plane cannot be found, and probe nothing", async () => {
    const p = plane();
    const { s, tasks } = await setup(p.dp, null);
    expect(await tasks[0]?.run(new AbortController().signal)).not.toBe("ok");
    expect(p.calls).toEqual([]);
    expect(await s.text()).toContain(`vdbcloud_collector_up{collector="canary",target="${A}"} 0\n`);
  });

  it("--check-config counts the probes per cluster, what they cost and where the others are", async () => {
    const { env } = await setup(plane().dp);
    const schedule = computeSchedule([canaryCollector], env.config);
    expect(schedule.dataPlaneRows).toEqual([
      expect.objectContaining({ clusterId: A, collectors: ["canary"], callsPerCycle: 3, intervalMs: 60_000 }),
      expect.objectContaining({ clusterId: B, collectors: ["canary"], callsPerCycle: 2, intervalMs: 60_000 }),
    ]);
    expect(schedule.notes).toEqual(
      expect.arrayContaining([
        expect.stringContaining("canary: 2 searches and 1 query every PT1M (4,320 a day"),
        expect.stringContaining("billed in vCU on free and serverless clusters"),
      ]),
    );
  });
});
