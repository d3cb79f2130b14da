import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { TEST_API_KEY, TEST_BASE_URL, testClient, useMockUpstream } from "../testkit.js";
import type { ClusterMetricsRequest } from "../types.js";
import { attributeStats, metricsDataSchema, metricsRequestBody, normalizeMetrics } from "./metrics.js";

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

const upstream = useMockUpstream();

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
    const want = metricsRequestBody(req);
    upstream
      .get(TEST_BASE_URL)
      .intercept({
        method: "POST",
        path: "/v2/clusters/in01-0123456789abcdef/metrics/query",
        // The same JSON value, whatever the key order.
        body: (sent) => isDeepStrictEqual(JSON.parse(sent), want),
        headers: {
          authorization: `Bearer ${TEST_API_KEY}`,
          "content-type": "application/json",
          accept: "application/json",
          "request-timeout": "5",
        },
      })
      .reply(200, { code: 0, data: { results: [] } });
    const { client, observer } = testClient();
    await expect(client.queryClusterMetrics(req)).resolves.toEqual([]);
    upstream.assertNoPendingInterceptors();
    expect(observer.events).toEqual([
      { kind: "attempt", endpoint: "POST /v2/clusters/{id}/metrics/query", outcome: "success" },
    ]);
  });

  it("encodes the cluster ID as one path segment", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "POST", path: "/v2/clusters/a%2Fb/metrics/query" })
      .reply(200, { code: 0, data: { results: [] } });
    const { client } = testClient();
    await client.queryClusterMetrics({ ...firstForm, clusterId: "a/b" });
    upstream.assertNoPendingInterceptors();
  });

  it("accepts every documented result variant and normalizes it", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "POST", path: "/v2/clusters/in01-0123456789abcdef/metrics/query" })
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

  // One odd result costs that result only: it is kept nameless (the mapping drops it as an
  // unknown metric) or with its usable fields, and the other results stay.
  it.each([
    { name: "no name at all", item: { unit: "ms", values: [] }, want: { name: "", unit: "ms" } },
    {
      name: "a null name beside metricName",
      item: { name: null, metricName: "B", unit: "%" },
      want: { name: "B", unit: "%" },
    },
    { name: "a numeric unit", item: { name: "C", unit: 7 }, want: { name: "C", unit: "7" } },
    { name: "a result that is not an object", item: "CU_COMPUTATION", want: { name: "", unit: "" } },
    {
      name: "values that are not a list",
      item: { name: "D", unit: "%", values: "1.0" },
      want: { name: "D", unit: "%" },
    },
  ])("keeps the answer for $name", ({ item, want }) => {
    const parsed = metricsDataSchema.safeParse({ results: [item, { name: "OK", unit: "%", values: [] }] });
    expect(parsed.success).toBe(true);
    const [odd, ok] = normalizeMetrics(parsed.data ?? { results: [] });
    expect({ name: odd?.name, unit: odd?.unit }).toEqual(want);
    expect(ok?.name).toBe("OK");
  });

  it.each([{ results: "x" }, "x", { results: { a: 1 } }])("rejects data of the wrong shape %j", (data) => {
    expect(metricsDataSchema.safeParse(data).success).toBe(false);
  });

  // One bad point must not cost the response: it is kept as unusable, and the mapping drops it.
  it.each([
    {
      name: "an unreadable timestamp",
      point: { timestamp: "soon", value: "1" },
      want: { timestampMs: Number.NaN, value: "1" },
    },
    {
      name: "an empty timestamp",
      point: { timestamp: "", value: "1" },
      want: { timestampMs: Number.NaN, value: "1" },
    },
    { name: "no timestamp", point: { value: "1" }, want: { timestampMs: Number.NaN, value: "1" } },
    {
      name: "a boolean value",
      point: { timestamp: START, value: true },
      want: { timestampMs: START, value: "" },
    },
    {
      name: "an object value",
      point: { timestamp: START, value: { v: 1 } },
      want: { timestampMs: START, value: "" },
    },
    {
      name: "a point that is not an object",
      point: "12:00 1.0",
      want: { timestampMs: Number.NaN, value: "" },
    },
    {
      name: "a zone-less timestamp (UTC)",
      point: { timestamp: "2024-05-01T12:00:00", value: "1.00" },
      want: { timestampMs: START, value: "1.00" },
    },
  ])("keeps $name as a point of its result", ({ point, want }) => {
    const data = metricsDataSchema.parse({
      results: [
        { name: "A", unit: "%", values: [point] },
        { name: "B", values: [] },
      ],
    });
    const [a, b] = normalizeMetrics(data);
    expect(a?.values).toStrictEqual([want]);
    expect(b?.name).toBe("B");
  });
});

describe("attributeStats: the statistic comes from the request when the answer omits it", () => {
  it.each<{
    name: string;
    queries: { name: string; stat?: "AVG" | "P99" }[];
    results: { name: string; stat?: "AVG" | "P99"; rawStat?: string }[];
    want: ("AVG" | "P99" | undefined)[];
  }>([
    {
      name: "by name when one query has it",
      queries: [
        { name: "CU_COMPUTATION", stat: "AVG" },
        { name: "REQ_SEARCH_LATENCY", stat: "P99" },
      ],
      results: [{ name: "REQ_SEARCH_LATENCY" }, { name: "CU_COMPUTATION" }],
      want: ["P99", "AVG"],
    },
    {
      name: "by position among the same name (AVG and P99 of one metric)",
      queries: [
        { name: "REQ_SEARCH_LATENCY", stat: "P99" },
        { name: "CU_COMPUTATION", stat: "AVG" },
        { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
      ],
      results: [{ name: "REQ_SEARCH_LATENCY" }, { name: "CU_COMPUTATION" }, { name: "REQ_SEARCH_LATENCY" }],
      want: ["P99", "AVG", "AVG"],
    },
    {
      name: "the answer's own stat wins",
      queries: [{ name: "REQ_SEARCH_LATENCY", stat: "AVG" }],
      results: [{ name: "REQ_SEARCH_LATENCY", stat: "P99" }],
      want: ["P99"],
    },
    {
      name: "case and spacing of the name do not matter",
      queries: [{ name: "REQ_QUERY_LATENCY", stat: "P99" }],
      results: [{ name: " req_query_latency " }],
      want: ["P99"],
    },
    {
      name: "more results of a name than queries: no guess",
      queries: [
        { name: "REQ_SEARCH_LATENCY", stat: "P99" },
        { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
      ],
      results: [
        { name: "REQ_SEARCH_LATENCY" },
        { name: "REQ_SEARCH_LATENCY" },
        { name: "REQ_SEARCH_LATENCY" },
      ],
      want: ["P99", "AVG", undefined],
    },
    {
      name: "one query, two results of its name: no guess for the second",
      queries: [{ name: "REQ_SEARCH_LATENCY", stat: "P99" }],
      results: [{ name: "REQ_SEARCH_LATENCY" }, { name: "REQ_SEARCH_LATENCY" }],
      want: ["P99", undefined],
    },
    {
      name: "a statistic the answer names but this exporter does not know is not relabelled",
      queries: [{ name: "REQ_SEARCH_LATENCY", stat: "AVG" }],
      results: [{ name: "REQ_SEARCH_LATENCY", rawStat: "MAX" }],
      want: [undefined],
    },
    {
      name: "a name nobody asked for",
      queries: [{ name: "CU_COMPUTATION", stat: "AVG" }],
      results: [{ name: "SURPRISE" }],
      want: [undefined],
    },
    {
      name: "second-form queries have no stat to give",
      queries: [{ name: "REQ_SEARCH_LATENCY_P99" }],
      results: [{ name: "REQ_SEARCH_LATENCY_P99" }],
      want: [undefined],
    },
  ])("$name", ({ queries, results, want }) => {
    expect(attributeStats(queries, results)).toEqual(want);
  });

  it("labels statless results of a first-form request through normalizeMetrics", () => {
    const data = metricsDataSchema.parse({
      results: [
        { name: "REQ_SEARCH_LATENCY", unit: "ms", values: [] },
        { name: "REQ_SEARCH_LATENCY", unit: "ms", values: [] },
      ],
    });
    const req: ClusterMetricsRequest = {
      ...firstForm,
      queries: [
        { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
        { name: "REQ_SEARCH_LATENCY", stat: "P99" },
      ],
    };
    expect(normalizeMetrics(data, req).map((r) => r.stat)).toEqual(["AVG", "P99"]);
  });
});
