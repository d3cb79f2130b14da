import { describe, expect, it } from "vitest";
import type { MetricsTarget } from "../collectors/cluster-metrics/targets.js";
import { queryKey } from "../upstream/catalog.js";
import { CloudError } from "../upstream/errors.js";
import {
  type CloudApi,
  type ClusterMetricsRequest,
  type MetricQuery,
  ENDPOINT as UPSTREAM,
} from "../upstream/types.js";
import { CallSize } from "./chunks.js";
import { fetchChunk } from "./fetch.js";
import { BackfillRefusals } from "./refused.js";

const ENDPOINT = UPSTREAM.queryClusterMetrics;
const MINUTE = 60_000;

/** A strict service: refuses any request holding one of `refused` (by query key), names no culprit. */
function service(refused: readonly string[]) {
  const requests: ClusterMetricsRequest[] = [];
  const client = {
    queryClusterMetrics: async (req: ClusterMetricsRequest) => {
      requests.push(req);
      const bad = req.queries.find((q) => refused.includes(queryKey(q)));
      if (bad !== undefined) {
        throw new CloudError(
          "api_error",
          `${ENDPOINT}: upstream code 96000: invalid metric name: ${bad.name}`,
          {
            endpoint: ENDPOINT,
          },
        );
      }
      return req.queries.map((q) => ({
        name: q.name,
        ...(q.stat ? { stat: q.stat } : {}),
        unit: "count",
        values: [{ timestampMs: req.startMs, value: 1 }],
      }));
    },
  } as unknown as CloudApi;
  return { client, requests };
}

const Q = (name: string): MetricQuery => ({ name, stat: "AVG" });
const QUERIES = [Q("CU_CAPACITY"), Q("READ_VCU"), Q("STORAGE_USE"), Q("ENTITIES_COUNT")];
const TARGET = {
  cluster: { id: "in01-a", scopes: [] },
  name: "in01-a",
  queries: QUERIES,
  batches: [{ queries: QUERIES }],
} as unknown as MetricsTarget;

describe("fetchChunk with a refused query", () => {
  it("finds it once, leaves it out of every later call of the run, and keeps every other value", async () => {
    const { client, requests } = service(["READ_VCU/AVG", "READ_VCU"]);
    const refusals = new BackfillRefusals();
    const ctx = {
      client,
      size: new CallSize(),
      granularityMs: MINUTE,
      signal: new AbortController().signal,
      onCall: () => {},
      onRefused: () => {},
      refusals,
    };
    const first = await fetchChunk(TARGET, { startMs: 0, endMs: 10 * MINUTE }, ctx);
    expect(first.map((r) => r.name).sort()).toEqual(["CU_CAPACITY", "ENTITIES_COUNT", "STORAGE_USE"]);
    const searched = requests.length;
    const second = await fetchChunk(TARGET, { startMs: 10 * MINUTE, endMs: 20 * MINUTE }, ctx);
    expect(second.map((r) => r.name).sort()).toEqual(["CU_CAPACITY", "ENTITIES_COUNT", "STORAGE_USE"]);
    // The next chunk is one call, without the refused query.
    expect(requests.length).toBe(searched + 1);
    expect(requests.at(-1)?.queries.map((q) => q.name)).toEqual([
      "CU_CAPACITY",
      "STORAGE_USE",
      "ENTITIES_COUNT",
    ]);
    expect(refusals.list().map((r) => `${r.target} ${r.query.name}: ${r.message}`)).toEqual([
      "in01-a READ_VCU: invalid metric name: READ_VCU",
    ]);
  });

  it("fails the chunk when the search finds nothing to leave out (the refusal did not repeat)", async () => {
    const { client } = service(["CU_CAPACITY/AVG"]);
    let calls = 0;
    const flaky = {
      queryClusterMetrics: async (req: ClusterMetricsRequest) => {
        calls += 1;
        if (calls === 1)
          throw new CloudError("api_error", `${ENDPOINT}: upstream code 96000: busy`, { endpoint: ENDPOINT });
        return client.queryClusterMetrics({ ...req, queries: [] });
      },
    } as unknown as CloudApi;
    const ctx = {
      client: flaky,
      size: new CallSize(),
      granularityMs: MINUTE,
      signal: new AbortController().signal,
      onCall: () => {},
      onRefused: () => {},
      refusals: new BackfillRefusals(),
    };
    // Metrics without a second form: the search asks each alone, both answer, nothing is left out.
    const plain = [Q("REQ_SUCCESS_RATE"), Q("REQ_FAIL_RATE")];
    const target = { ...TARGET, queries: plain, batches: [{ queries: plain }] } as MetricsTarget;
    await expect(fetchChunk(target, { startMs: 0, endMs: 10 * MINUTE }, ctx)).rejects.toThrow(/busy/);
    expect(calls).toBe(3);
  });
});
