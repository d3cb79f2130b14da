import { describe, expect, it } from "vitest";
import { checkQuery, DEFAULT_METRIC_QUERIES, queryKey } from "./queries.js";

describe("DEFAULT_METRIC_QUERIES", () => {
  it("is the documented second-form catalog: 40 names, no stat, no duplicates", () => {
    const names = DEFAULT_METRIC_QUERIES.map((q) => q.name);
    expect(names).toHaveLength(40);
    expect(new Set(names).size).toBe(40);
    expect(DEFAULT_METRIC_QUERIES.every((q) => q.stat === undefined)).toBe(true);
    expect(names).toEqual(
      expect.arrayContaining([
        "CU_COMPUTATION",
        "REQ_BULK_INSERT_COUNT",
        "VECTOR_REQ_SEARCH_COUNT",
        "REQ_QUERY_LATENCY_P99",
        "REQ_FAIL_RATE_BULK_INSERT",
        "UNLOADED_COLLECTIONS_COUNT",
      ]),
    );
    expect(names).not.toContain("VECTOR_REQ_QUERY_COUNT");
    expect(names).not.toContain("REQ_BULK_INSERT_LATENCY_AVG");
    expect(checkAll()).toEqual([]);
  });
});

function checkAll() {
  return DEFAULT_METRIC_QUERIES.flatMap(checkQuery);
}

describe("checkQuery", () => {
  it.each([
    [{ name: "CU_COMPUTATION" }],
    [{ name: "CU_COMPUTATION", stat: "AVG" as const }],
    [{ name: "REQ_SEARCH_LATENCY", stat: "P99" as const }],
    [{ name: "REQ_SEARCH_LATENCY", stat: "AVG" as const }],
    [{ name: "REQ_SEARCH_LATENCY_P99" }],
    [{ name: "REQ_SUCCESS_RATE", stat: "AVG" as const }],
    [{ name: "SOME_FUTURE_METRIC" }],
  ])("accepts %j", (query) => {
    expect(checkQuery(query)).toEqual([]);
  });

  it.each([
    [{ name: "CU_COMPUTATION", stat: "P99" as const }, "P99 is only available for latency metrics"],
    [{ name: "REQ_SEARCH_LATENCY_P99", stat: "P99" as const }, "already names its statistic"],
    [{ name: "REQ_SEARCH_LATENCY_AVG", stat: "AVG" as const }, "already names its statistic"],
    [{ name: "REQ_SEARCH_LATENCY" }, "is required for REQ_SEARCH_LATENCY"],
    [{ name: "REQ_FAIL_RATE" }, "exists only in the first form"],
  ])("rejects %j", (query, message) => {
    const problems = checkQuery(query);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.field).toBe("stat");
    expect(problems[0]?.message).toContain(message);
  });

  it("keys queries by name and stat", () => {
    expect(queryKey({ name: "A" })).not.toBe(queryKey({ name: "A", stat: "AVG" }));
    expect(queryKey({ name: "A", stat: "AVG" })).toBe(queryKey({ name: "A", stat: "AVG" }));
  });
});
