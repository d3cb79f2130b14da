import { describe, expect, it } from "vitest";
import { DESIGN_SECOND_FORM_NAMES } from "../upstream/namesTestkit.js";
import {
  checkQuery,
  checkQueryName,
  checkScopeQuery,
  DEFAULT_METRIC_QUERIES,
  expandQueries,
  expandQuery,
  queriesForTarget,
  queryKey,
  scopeQueries,
  toCurrentForm,
} from "./queries.js";

describe("DEFAULT_METRIC_QUERIES", () => {
  // Contract changed by issue 44: the current reference's enum, name only (was the 2024
  // reference's enum with a stat on every query).
  it("is the current reference's enum in the current form: 40 names, no stat", () => {
    const names = DEFAULT_METRIC_QUERIES.map((q) => q.name);
    expect(names).toHaveLength(40);
    expect(new Set(names).size).toBe(40);
    expect(DEFAULT_METRIC_QUERIES.every((q) => q.stat === undefined)).toBe(true);
    // The current reference's enum, in its order, as docs/design.md section 7 states it.
    expect(names).toEqual(DESIGN_SECOND_FORM_NAMES);
    expect(checkAll()).toEqual([]);
    expect(DEFAULT_METRIC_QUERIES.flatMap((q) => checkQueryName(q.name, false))).toEqual([]);
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
    // Plain names are valid for every documented metric: the exporter picks the form.
    [{ name: "REQ_SEARCH_LATENCY" }],
    [{ name: "REQ_FAIL_RATE" }],
    [{ name: "REQ_SUCCESS_RATE" }],
  ])("accepts %j", (query) => {
    expect(checkQuery(query)).toEqual([]);
  });

  it.each([
    [{ name: "CU_COMPUTATION", stat: "P99" as const }, "P99 is only available for latency metrics"],
    [{ name: "REQ_SEARCH_LATENCY_P99", stat: "P99" as const }, "already names its statistic"],
    [{ name: "REQ_SEARCH_LATENCY_AVG", stat: "AVG" as const }, "already names its statistic"],
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

describe("expandQuery: a plain name picks its request form", () => {
  it.each<[query: { name: string; stat?: "AVG" | "P99" }, sent: { name: string; stat?: "AVG" | "P99" }[]]>([
    // Contract change (issue 44): a current-form name is asked as written (the key's form
    // decides how it is sent).
    [{ name: "CU_COMPUTATION" }, [{ name: "CU_COMPUTATION" }]],
    [{ name: "ENTITIES_COUNT" }, [{ name: "ENTITIES_COUNT" }]],
    [
      { name: "REQ_SEARCH_LATENCY" },
      [
        { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
        { name: "REQ_SEARCH_LATENCY", stat: "P99" },
      ],
    ],
    // Current-only names, and unknown ones without a latency spelling: as written.
    [{ name: "READ_VCU" }, [{ name: "READ_VCU" }]],
    [{ name: "VECTOR_REQ_DELETE_COUNT" }, [{ name: "VECTOR_REQ_DELETE_COUNT" }]],
    [{ name: "FUTURE_METRIC" }, [{ name: "FUTURE_METRIC" }]],
    [{ name: "REQ_SEARCH_LATENCY_P99" }, [{ name: "REQ_SEARCH_LATENCY_P99" }]],
    // Names only the 2024 reference has: that form, with their statistics.
    [{ name: "REQ_SUCCESS_RATE" }, [{ name: "REQ_SUCCESS_RATE", stat: "AVG" }]],
    [{ name: "REQ_FAIL_RATE" }, [{ name: "REQ_FAIL_RATE", stat: "AVG" }]],
    [{ name: "ENTITIES_INSERT_RATE" }, [{ name: "ENTITIES_INSERT_RATE", stat: "AVG" }]],
    [
      { name: "REQ_BULK_INSERT_LATENCY" },
      [
        { name: "REQ_BULK_INSERT_LATENCY", stat: "AVG" },
        { name: "REQ_BULK_INSERT_LATENCY", stat: "P99" },
      ],
    ],
    [{ name: "REQ_SEARCH_LATENCY", stat: "P99" }, [{ name: "REQ_SEARCH_LATENCY", stat: "P99" }]],
  ])("%j -> %j", (query, sent) => {
    expect(expandQuery(query)).toEqual(sent);
  });

  it("sends each (name, stat) once after expansion", () => {
    expect(
      expandQueries([
        { name: "REQ_SEARCH_LATENCY" },
        { name: "REQ_SEARCH_LATENCY", stat: "P99" },
        { name: "X" },
      ]),
    ).toEqual([
      { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
      { name: "REQ_SEARCH_LATENCY", stat: "P99" },
      { name: "X" },
    ]);
  });
});

describe("toCurrentForm: what a per-collection scope can carry", () => {
  it.each<[query: { name: string; stat?: "AVG" | "P99" }, second: string | undefined]>([
    [{ name: "ENTITIES_COUNT" }, "ENTITIES_COUNT"],
    [{ name: "STORAGE_USE", stat: "AVG" }, "STORAGE_USE"],
    [{ name: "REQ_SEARCH_LATENCY", stat: "P99" }, "REQ_SEARCH_LATENCY_P99"],
    [{ name: "REQ_QUERY_LATENCY", stat: "AVG" }, "REQ_QUERY_LATENCY_AVG"],
    [{ name: "REQ_BULK_INSERT_LATENCY", stat: "AVG" }, undefined],
    [{ name: "REQ_SUCCESS_RATE", stat: "AVG" }, undefined],
    [{ name: "REQ_FAIL_RATE", stat: "AVG" }, undefined],
    [{ name: "ENTITIES_INSERT_RATE", stat: "AVG" }, undefined],
    [{ name: "REQ_FUTURE_LATENCY", stat: "P99" }, "REQ_FUTURE_LATENCY_P99"],
  ])("%j -> %s", (query, second) => {
    expect(toCurrentForm(query)).toEqual(second === undefined ? undefined : { name: second });
  });
});

describe("scopeQueries and queriesForTarget", () => {
  const cluster = [
    { name: "CU_COMPUTATION", stat: "AVG" as const },
    { name: "REQ_SEARCH_LATENCY", stat: "AVG" as const },
    { name: "REQ_SEARCH_LATENCY", stat: "P99" as const },
    { name: "REQ_SUCCESS_RATE", stat: "AVG" as const },
    { name: "ENTITIES_COUNT" },
    { name: "REQ_SEARCH_LATENCY_P99" },
  ];

  it("derives a scope's list: current-form names, cluster-level metrics left out, each once", () => {
    expect(queriesForTarget(cluster, { collectionName: "docs" })).toEqual([
      { name: "REQ_SEARCH_LATENCY_AVG" },
      { name: "REQ_SEARCH_LATENCY_P99" },
      { name: "ENTITIES_COUNT" },
    ]);
  });

  it("gives the cluster-wide target the list as is", () => {
    expect(queriesForTarget(cluster)).toBe(cluster);
  });

  it("takes a scope's own list when it has one, even cluster-level names", () => {
    const own = scopeQueries(cluster, [{ name: "CU_CAPACITY" }, { name: "REQ_QUERY_LATENCY" }]);
    expect(own).toEqual([
      { name: "CU_CAPACITY" },
      { name: "REQ_QUERY_LATENCY_AVG" },
      { name: "REQ_QUERY_LATENCY_P99" },
    ]);
    expect(queriesForTarget(cluster, { collectionName: "docs", queries: own })).toBe(own);
  });

  it("asks every documented per-collection metric of the default list", () => {
    const names = queriesForTarget(DEFAULT_METRIC_QUERIES, { dbName: "default" }).map((q) => q.name);
    // 40 default names less the 7 cluster-level ones (CU_COMPUTATION, CU_CAPACITY,
    // CLUSTER_WRITE_CAPACITY, READ_VCU, WRITE_VCU, COLLECTIONS_COUNT, UNLOADED_COLLECTIONS_COUNT).
    expect(names).toHaveLength(DEFAULT_METRIC_QUERIES.length - 7);
    expect(names).toContain("REQ_SEARCH_LATENCY_P99");
    expect(names).not.toContain("CU_COMPUTATION");
  });
});

describe("checkScopeQuery", () => {
  it.each<[query: { name: string; stat?: "AVG" | "P99" }, problem: string | undefined]>([
    [{ name: "ENTITIES_COUNT" }, undefined],
    [{ name: "REQ_SEARCH_LATENCY" }, undefined],
    [{ name: "REQ_SEARCH_LATENCY", stat: "P99" }, undefined],
    [{ name: "REQ_SUCCESS_RATE" }, "REQ_SUCCESS_RATE has no per-collection (current) form"],
    [{ name: "REQ_BULK_INSERT_LATENCY" }, "REQ_BULK_INSERT_LATENCY has no per-collection (current) form"],
    [{ name: "CU_COMPUTATION", stat: "P99" }, "P99 is only available for latency metrics"],
  ])("%j", (query, problem) => {
    const problems = checkScopeQuery(query);
    if (problem === undefined) expect(problems).toEqual([]);
    else expect(problems[0]?.message).toContain(problem);
  });
});

describe("checkQueryName: names outside the catalog", () => {
  it.each<[name: string, allowUnknown: boolean, problem: string | undefined]>([
    ["CU_COMPUTATION", false, undefined],
    ["REQ_SEARCH_LATENCY_P99", false, undefined],
    ["READ_VCU", false, undefined],
    ["CU_COMPUTATON", false, "unknown metric CU_COMPUTATON (did you mean CU_COMPUTATION?"],
    ["REQ_SERCH_COUNT", false, "did you mean REQ_SEARCH_COUNT"],
    ["ZZZZZZZZZZZZZZZZZZ", false, "not in the metric catalog (docs/metrics.md)"],
    ["SOME_FUTURE_METRIC", true, undefined],
  ])("%s (allow_unknown_names %s)", (name, allowUnknown, problem) => {
    const problems = checkQueryName(name, allowUnknown);
    if (problem === undefined) expect(problems).toEqual([]);
    else {
      expect(problems).toHaveLength(1);
      expect(problems[0]?.field).toBe("name");
      expect(problems[0]?.message).toContain(problem);
      expect(problems[0]?.message).toContain("metrics.allow_unknown_names");
    }
  });
});
