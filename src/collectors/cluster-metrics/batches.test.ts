import { describe, expect, it } from "vitest";
import type { MetricQuery } from "../../upstream/types.js";
import { buildMetricQueries } from "./batches.js";

const CU_AVG: MetricQuery = { name: "CU_COMPUTATION", stat: "AVG" };
const LAT_P99: MetricQuery = { name: "REQ_SEARCH_LATENCY", stat: "P99" };
const LAT_P99_2ND: MetricQuery = { name: "REQ_SEARCH_LATENCY_P99" };
const STORAGE: MetricQuery = { name: "STORAGE_USE" };
const FIRST = [CU_AVG, LAT_P99];
const SECOND = [LAT_P99_2ND, STORAGE];
const MIXED = [CU_AVG, LAT_P99_2ND, LAT_P99, STORAGE];

describe("buildMetricQueries", () => {
  it.each<[label: string, queries: MetricQuery[], expected: MetricQuery[][]]>([
    ["both forms: two requests", MIXED, [FIRST, SECOND]],
    ["first form only: one request", FIRST, [FIRST]],
    ["second form only: one request", SECOND, [SECOND]],
    ["nothing", [], []],
  ])("%s", (_label, queries, expected) => {
    expect(buildMetricQueries(queries).map((b) => b.queries)).toEqual(expected);
  });

  it("never mixes the forms in one request", () => {
    for (const batch of buildMetricQueries(MIXED)) {
      const withStat = batch.queries.filter((q) => q.stat !== undefined).length;
      expect([0, batch.queries.length]).toContain(withStat);
    }
  });

  it("sends a repeated query once, but keeps the same name with another stat", () => {
    const out = buildMetricQueries([
      { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
      { name: "REQ_SEARCH_LATENCY", stat: "P99" },
      { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
      { name: "STORAGE_USE" },
      { name: "STORAGE_USE" },
    ]);
    expect(out.map((b) => b.queries)).toEqual([
      [
        { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
        { name: "REQ_SEARCH_LATENCY", stat: "P99" },
      ],
      [{ name: "STORAGE_USE" }],
    ]);
  });

  it("does not send a stat key on second-form items", () => {
    const [batch] = buildMetricQueries([{ name: "STORAGE_USE" }]);
    expect(Object.keys(batch?.queries[0] ?? {})).toEqual(["name"]);
  });
});
