import { describe, expect, it } from "vitest";
import type { Sample } from "../../metrics/sample.js";
import {
  describeIndexDataSchema,
  type IndexDescription,
  type IndexRef,
  normalizeDescribeIndex,
} from "../../upstream/indexes.js";
import {
  REFERENCE_DESCRIBE_INDEX_SAMPLE,
  SAMPLE_INDEX_DESCRIPTION,
  SAMPLE_INDEX_ITEM,
} from "../../upstream/testkit.js";
import { INDEX_STATES, indexStateValue, mapIndexes } from "./indexMapping.js";

const REF: IndexRef = { dbName: "default", collectionName: "docs", indexName: "embedding_idx" };
const LABELS = {
  cluster_id: "in01-a",
  db_name: "default",
  collection_name: "docs",
  index_name: "embedding_idx",
};

/** The sample of docs/design.md section 7, changed by `over`. */
function description(over: Partial<IndexDescription> = {}): IndexDescription {
  return { ...SAMPLE_INDEX_DESCRIPTION, ...over };
}

/** The engine's index states (docs/design.md section 7) and their state-set values. */
const ENGINE_STATES = [
  ["IndexStateNone", "none"],
  ["Unissued", "unissued"],
  ["InProgress", "in_progress"],
  ["Finished", "finished"],
  ["Failed", "failed"],
  ["Retry", "retry"],
] as const;

const first = (samples: readonly Sample[], family: string): number | undefined =>
  samples.find((s) => s.family === family)?.value;

/** The state set's current state, and every state it lists, in order. */
function states(samples: readonly Sample[]): { current: string[]; all: string[] } {
  const set = samples.filter((s) => s.family === "vdbcloud_index_state");
  return {
    current: set.filter((s) => s.value === 1).map((s) => s.labels.state as string),
    all: set.map((s) => s.labels.state as string),
  };
}

describe("indexStateValue", () => {
  it.each<readonly [string, string]>([
    // The engine's names, as the service sends them.
    ...ENGINE_STATES,
    // The same with the engine's prefix, in capitals, or spaced.
    ["IndexStateInProgress", "in_progress"],
    ["IN_PROGRESS", "in_progress"],
    ["in progress", "in_progress"],
    [" Finished ", "finished"],
    // A state no page names yet: snake case.
    ["BuildQueued", "build_queued"],
    ["IndexStateCPUBound", "cpu_bound"],
    ["", ""],
  ])("%j -> %j", (upstream, want) => {
    expect(indexStateValue(upstream)).toBe(want);
  });
});

describe("mapIndexes", () => {
  it.each(ENGINE_STATES)("%s: one series per known state, 1 for %s", (upstream, want) => {
    const { samples } = mapIndexes("in01-a", [{ ref: REF, description: description({ state: upstream }) }]);
    expect(states(samples)).toEqual({ current: [want], all: [...INDEX_STATES] });
    for (const s of samples.filter((x) => x.family === "vdbcloud_index_state"))
      expect(s.labels).toEqual({ ...LABELS, state: s.labels.state });
  });

  it("adds an unknown state, in snake case, after the known ones", () => {
    const { samples } = mapIndexes("in01-a", [
      { ref: REF, description: description({ state: "BuildQueued" }) },
    ]);
    expect(states(samples)).toEqual({ current: ["build_queued"], all: [...INDEX_STATES, "build_queued"] });
  });

  it("without a state, no state set (an empty state would be no label at all)", () => {
    const { samples } = mapIndexes("in01-a", [{ ref: REF, description: description({ state: "" }) }]);
    expect(states(samples).all).toEqual([]);
    expect(first(samples, "vdbcloud_index_info")).toBe(1);
  });

  it.each([
    { name: "finished", rows: [10000, 10000, 0] },
    { name: "building", rows: [10000, 2500, 7500] },
    { name: "numbers as the service sends them, large", rows: [3_000_000_000, 1, 2_999_999_999] },
    { name: "none given", rows: [null, null, null] },
    { name: "only pending given", rows: [null, null, 12] },
  ] as const)("rows: $name", ({ rows }) => {
    const [totalRows, indexedRows, pendingRows] = rows;
    const { samples } = mapIndexes("in01-a", [
      { ref: REF, description: description({ totalRows, indexedRows, pendingRows }) },
    ]);
    expect(first(samples, "vdbcloud_index_rows")).toBe(totalRows ?? undefined);
    expect(first(samples, "vdbcloud_index_indexed_rows")).toBe(indexedRows ?? undefined);
    expect(first(samples, "vdbcloud_index_pending_rows")).toBe(pendingRows ?? undefined);
    for (const s of samples.filter((x) => x.family.endsWith("_rows"))) expect(s.labels).toEqual(LABELS);
  });

  it.each([
    {
      name: "a vector index",
      d: description(),
      info: { field_name: "embedding", index_type: "AUTOINDEX", metric_type: "COSINE" },
    },
    {
      name: "a scalar index (no metric)",
      d: description({ fieldName: "category", indexType: "INVERTED", metricType: "" }),
      info: { field_name: "category", index_type: "INVERTED", metric_type: "" },
    },
  ])("info labels of $name, and the fail reason never a label", ({ d, info }) => {
    const failing = { ...d, state: "Failed", failReason: 'out of disk: "node-7" reached 98%' };
    const { samples } = mapIndexes("in01-a", [{ ref: REF, description: failing }]);
    const infos = samples.filter((s) => s.family === "vdbcloud_index_info");
    expect(infos).toEqual([{ family: "vdbcloud_index_info", labels: { ...LABELS, ...info }, value: 1 }]);
    expect(JSON.stringify(samples)).not.toContain("out of disk");
  });

  it("labels an index by its listed name, whatever the answer calls it", () => {
    const { samples } = mapIndexes("in01-a", [
      { ref: REF, description: description({ indexName: "other" }) },
    ]);
    expect(new Set(samples.map((s) => s.labels.index_name))).toEqual(new Set(["embedding_idx"]));
  });

  it("keeps indexes of several collections and databases apart", () => {
    const other: IndexRef = { dbName: "analytics", collectionName: "docs", indexName: "embedding_idx" };
    const { samples } = mapIndexes("in01-a", [
      { ref: REF, description: description({ pendingRows: 0 }) },
      { ref: other, description: description({ pendingRows: 5 }) },
    ]);
    const pending = samples.filter((s) => s.family === "vdbcloud_index_pending_rows");
    expect(pending.map((s) => [s.labels.db_name, s.value])).toEqual([
      ["default", 0],
      ["analytics", 5],
    ]);
  });
});

describe("Describe Index answers to samples", () => {
  const toSamples = (data: unknown, ref: IndexRef) => {
    const d = normalizeDescribeIndex(describeIndexDataSchema.parse(data), ref);
    return d === null ? [] : mapIndexes("in01-a", [{ ref, description: d }]).samples;
  };

  it("the reference's sample verbatim", () => {
    const ref = { dbName: "default", collectionName: "quick_setup", indexName: "vector" };
    const samples = toSamples(REFERENCE_DESCRIBE_INDEX_SAMPLE.data, ref);
    const labels = {
      cluster_id: "in01-a",
      db_name: "default",
      collection_name: "quick_setup",
      index_name: "vector",
    };
    expect(samples.filter((s) => s.family !== "vdbcloud_index_state")).toEqual([
      {
        family: "vdbcloud_index_info",
        labels: { ...labels, field_name: "vector", index_type: "", metric_type: "COSINE" },
        value: 1,
      },
      { family: "vdbcloud_index_rows", labels, value: 0 },
      { family: "vdbcloud_index_indexed_rows", labels, value: 0 },
      { family: "vdbcloud_index_pending_rows", labels, value: 0 },
    ]);
    expect(states(samples).current).toEqual(["finished"]);
  });

  it.each([
    ["a one-item array (every sample)", [SAMPLE_INDEX_ITEM]],
    ["an object (the schema)", SAMPLE_INDEX_ITEM],
  ])("%s gives the same samples", (_name, data) => {
    expect(toSamples(data, REF)).toEqual(
      mapIndexes("in01-a", [{ ref: REF, description: description() }]).samples,
    );
  });
});
