/**
 * The canary's data-plane answers in the shapes of the REST reference (Describe Collection's
 * sample, its `params` as the schema documents them, Search's and Query's samples with `cost`),
 * and the probes of a fake data plane that only lists. Used by tests only; production code never
 * imports this module.
 */
import type { DataPlaneApi } from "./dataPlane.js";
import describeCollectionSample from "./samples/describe-collection-v2.json" with { type: "json" };

/**
 * Describe Collection's `data` as the reference's sample shows it (`params` a key/value list),
 * copied whole from the page into samples/: not taken from the simulator's answer, so that
 * the tests compare the client with the reference and not with the simulator.
 */
export const REFERENCE_DESCRIBE_COLLECTION = describeCollectionSample.data;

/** The same collection with `params` an object, as the reference's schema documents it. */
export const SCHEMA_DESCRIBE_COLLECTION = {
  ...REFERENCE_DESCRIBE_COLLECTION,
  fields: [
    REFERENCE_DESCRIBE_COLLECTION.fields[0],
    { ...REFERENCE_DESCRIBE_COLLECTION.fields[1], params: { dim: 5 } },
  ],
} as const;

/** Search's whole answer as the sparse-vector guide shows it (`cost` beside `data`), limit 1. */
export const REFERENCE_SEARCH_ANSWER = {
  code: 0,
  cost: 0,
  data: [{ distance: 0.63, id: "453577185629572535" }],
} as const;

/** Query's answer as the reference's sample shows it, limit 1 (no `cost`). */
export const REFERENCE_QUERY_ANSWER = { code: 0, data: [{ id: 1 }] } as const;

/** A Search refused for its vector: the engine's invalid-parameter code (1100). */
export const DIMENSION_REFUSAL = {
  code: 1100,
  message: "the dim (5) of field data(vector) is not equal to schema dim (8): invalid parameter",
} as const;

const unexpected = (what: string) => async (): Promise<never> => {
  throw new Error(`${what} is not expected in this test`);
};

/** The canary's methods of a fake data plane that only lists: each call fails the test. */
export const NO_PROBES: Pick<DataPlaneApi, "describeCollection" | "search" | "query"> = {
  describeCollection: unexpected("Describe Collection"),
  search: unexpected("Search"),
  query: unexpected("Query"),
};

/** A data plane's methods of a canary's probes, which a canary test writes. */
export type CanaryProbes = Pick<DataPlaneApi, "describeCollection" | "search" | "query">;

/**
 * A fake data plane for a canary test: `probes` over listings that hold nothing (the canary
 * never lists, so a listing's answer does not matter to it).
 */
export function probedPlane(probes: CanaryProbes): DataPlaneApi {
  return {
    listDatabases: async () => [],
    listCollections: async () => [],
    getLoadState: async () => ({ state: "", progress: null }),
    getRowCount: async () => null,
    listIndexes: async () => [],
    describeIndex: async () => null,
    ...probes,
  };
}
