import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { metricsDataSchema, metricsRequestBody, normalizeMetrics } from "./metrics.js";
import { closeTestClients, TEST_API_KEY, TEST_BASE_URL, testClient } from "./testkit.js";
import type { ClusterMetricsRequest } from "./types.js";

const START = Date.UTC(2024, 4, 1, 12, 0, 0);
const firstForm: ClusterMetricsRequest = {
  clusterId: "in01-0123456789abcdef",
  startMs: START,
  endMs: START + 300_000 + 123,
  granularityMs: 60_000,
  queries: [
    { name: "CU_COMPUTATION", stat: "AVG" },
    { name: "REQ_SEARCH_LATENCY", stat: "P99" },
  ],
};
const secondForm: ClusterMetricsRequest = {
  clusterId: "in01-0123456789abcdef",
  startMs: START,
  endMs: START + 90_000,
  granularityMs: 30_000,
  dbName: "default",
  collectionName: "docs",
  queries: [{ name: "REQ_SEARCH_LATENCY_P99" }, { name: "ENTITIES_COUNT" }],
};

beforeAll(() => nock.disableNetConnect());
afterEach(async () => {
  nock.cleanAll();
  await closeTestClients();
});
afterAll(() => nock.enableNetConnect());

describe("metricsRequestBody", () => {
  it.each([
    {
      form: "first (stat per query)",
      req: firstForm,
      body: {
        start: "2024-05-01T12:00:00Z",
        end: "2024-05-01T12:05:00Z",
        granularity: "PT1M",
        metricQueries: [
          { name: "CU_COMPUTATION", stat: "AVG" },
          { name: "REQ_SEARCH_LATENCY", stat: "P99" },
        ],
      },
    },
    {
      form: "second (scope, no stat)",
      req: secondForm,
      body: {
        start: "2024-05-01T12:00:00Z",
        end: "2024-05-01T12:01:30Z",
        granularity: "PT30S",
        metricQueries: [{ name: "REQ_SEARCH_LATENCY_P99" }, { name: "ENTITIES_COUNT" }],
        dbName: "default",
        collectionName: "docs",
      },
    },
  ])("builds the $form form", ({ req, body }) => {
    expect(metricsRequestBody(req)).toStrictEqual(body);
  });
});

describe("Query Cluster Metrics over HTTP", () => {
  it.each([
    { form: "first", req: firstForm },
    { form: "second", req: secondForm },
  ])("POSTs the $form form with auth, JSON and Request-Timeout headers", async ({ req }) => {
    const scope = nock(TEST_BASE_URL, {
      reqheaders: {
        authorization: `Bearer ${TEST_API_KEY}`,
        "content-type": "application/json",
        accept: "application/json",
        "request-timeout": "5",
      },
    })
      .post(
        "/v2/clusters/in01-0123456789abcdef/metrics/query",
        metricsRequestBody(req) as unknown as nock.DataMatcherMap,
      )
      .reply(200, { code: 0, data: { results: [] } });
    const { client, observer } = testClient();
    await expect(client.queryClusterMetrics(req)).resolves.toEqual([]);
    expect(scope.isDone()).toBe(true);
    expect(observer.events).toEqual([
      { kind: "attempt", endpoint: "POST /v2/clusters/{id}/metrics/query", outcome: "success" },
    ]);
  });

  it("encodes the cluster ID as one path segment", async () => {
    const scope = nock(TEST_BASE_URL)
      .post("/v2/clusters/a%2Fb/metrics/query")
      .reply(200, { code: 0, data: { results: [] } });
    const { client } = testClient();
    await client.queryClusterMetrics({ ...firstForm, clusterId: "a/b" });
    expect(scope.isDone()).toBe(true);
  });

  it("accepts every documented result variant and normalizes it", async () => {
    nock(TEST_BASE_URL)
      .post("/v2/clusters/in01-0123456789abcdef/metrics/query")
      .reply(200, {
        code: 0,
        data: {
          results: [
            {
              name: "CU_COMPUTATION",
              stat: "AVG",
              unit: "percent",
              extra: "ignored",
              values: [
                { timestamp: "2024-05-01T12:00:00Z", value: "12.5" },
                { timestamp: "2024-05-01T12:01:00Z", value: null },
              ],
            },
            {
              metricName: "REQ_SEARCH_LATENCY_P99",
              unit: "ms",
              values: [{ timestamp: 1714564800, value: 7 }],
            },
          ],
        },
      });
    const { client } = testClient();
    await expect(client.queryClusterMetrics(firstForm)).resolves.toStrictEqual([
      {
        name: "CU_COMPUTATION",
        stat: "AVG",
        unit: "percent",
        values: [
          { timestampMs: START, value: "12.5" },
          { timestampMs: START + 60_000, value: null },
        ],
      },
      { name: "REQ_SEARCH_LATENCY_P99", unit: "ms", values: [{ timestampMs: START, value: "7" }] },
    ]);
  });
});

describe("normalizeMetrics variants", () => {
  it.each<{ name: string; item: Record<string, unknown>; expected: Record<string, unknown> }>([
    {
      name: "`name` with stat",
      item: { name: "A", stat: "P99", unit: "ms", values: [] },
      expected: { name: "A", stat: "P99", unit: "ms", values: [] },
    },
    {
      name: "`metricName` without stat",
      item: { metricName: "B", unit: "count", values: [] },
      expected: { name: "B", unit: "count", values: [] },
    },
    {
      name: "lower-case stat",
      item: { name: "C", stat: "avg", unit: "%", values: [] },
      expected: { name: "C", stat: "AVG", unit: "%", values: [] },
    },
    {
      name: "unknown stat dropped, null stat, missing unit and values",
      item: { name: "D", stat: null },
      expected: { name: "D", unit: "", values: [] },
    },
    {
      name: "unknown statistic",
      item: { name: "E", stat: "MAX", unit: "ms", values: null },
      expected: { name: "E", unit: "ms", values: [] },
    },
    {
      name: "value missing, epoch ms timestamp",
      item: { name: "F", unit: "GB", values: [{ timestamp: START }] },
      expected: { name: "F", unit: "GB", values: [{ timestampMs: START, value: null }] },
    },
  ])("$name", ({ item, expected }) => {
    expect(normalizeMetrics(metricsDataSchema.parse({ results: [item] }))).toStrictEqual([expected]);
  });

  it.each([{ results: null }, {}])("reads %j as no results", (data) => {
    expect(normalizeMetrics(metricsDataSchema.parse(data))).toEqual([]);
  });

  it.each([
    { name: "no name at all", item: { unit: "ms", values: [] } },
    { name: "a bad timestamp", item: { name: "A", values: [{ timestamp: "soon", value: "1" }] } },
    { name: "a boolean value", item: { name: "A", values: [{ timestamp: START, value: true }] } },
  ])("rejects $name", ({ item }) => {
    expect(metricsDataSchema.safeParse({ results: [item] }).success).toBe(false);
  });
});
