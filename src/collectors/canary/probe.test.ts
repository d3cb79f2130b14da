import { describe, expect, it } from "vitest";
import { probedPlane } from "../../upstream/canaryTestkit.js";
import type {
  CollectionSchema,
  DataPlaneApi,
  ProbeAnswer,
  Probed,
  SearchArgs,
} from "../../upstream/dataPlane.js";
import { CloudError } from "../../upstream/errors.js";
import type { CanaryTarget } from "./config.js";
import { type ProbeDeps, probeTarget } from "./probe.js";
import { CanaryMemory, DESCRIBE_EVERY_MS } from "./state.js";

const SEARCH_E = "POST /v2/vectordb/entities/search" as const;
const TARGET: CanaryTarget = {
  clusterId: "in01-abc",
  dbName: "default",
  collectionName: "docs",
  operation: "search",
};

const dense = (dim: number): CollectionSchema => ({
  vectorFields: [{ name: "vector", type: "FloatVector", dim }],
});
const refusedDim = () =>
  new CloudError("api_error", `${SEARCH_E}: upstream code 1100: vector dimension mismatch`, {
    endpoint: SEARCH_E,
    apiCode: 1100,
  });

/** A data plane whose collection has `schema` (changed by tests), answering searches of its dimension. */
function fakePlane(initial: CollectionSchema) {
  const state = {
    schema: initial,
    calls: [] as string[],
    searches: [] as SearchArgs[],
    fail: undefined as ((call: string) => Error | undefined) | undefined,
  };
  const answer = (call: string): Probed<ProbeAnswer> => {
    state.calls.push(call);
    const err = state.fail?.(call);
    if (err !== undefined) throw err;
    return { value: { cost: 1, hits: 1 }, seconds: 0.02 };
  };
  const dp = probedPlane({
    describeCollection: async () => {
      state.calls.push("describe");
      const err = state.fail?.("describe");
      if (err !== undefined) throw err;
      return state.schema;
    },
    search: async (args) => {
      state.searches.push(args);
      const field = state.schema.vectorFields.find((f) => f.name === args.annsField);
      const length = Array.isArray(args.vector) ? args.vector.length : null;
      if (field?.dim !== undefined && field.dim !== null && length !== field.dim) {
        state.calls.push("search");
        throw refusedDim();
      }
      return answer("search");
    },
    query: async () => answer("query"),
  });
  return { dp, state };
}

function deps(dp: DataPlaneApi, over: Partial<ProbeDeps> = {}) {
  let now = 1_700_000_000_000;
  const logs: string[] = [];
  const d: ProbeDeps = {
    dp,
    memory: new CanaryMemory(),
    timeoutMs: 5_000,
    now: () => now,
    signal: new AbortController().signal,
    logger: {
      warn: (_f: unknown, m: string) => void logs.push(`warn ${m}`),
      info: (_f: unknown, m: string) => void logs.push(`info ${m}`),
    } as ProbeDeps["logger"],
    ...over,
  };
  const advance = (ms: number): void => {
    now += ms;
  };
  return { d, logs, advance };
}

describe("a search probe", () => {
  it("describes the collection once an hour and searches a unit vector of its dimension", async () => {
    const { dp, state } = fakePlane(dense(3));
    const { d, advance } = deps(dp);
    expect((await probeTarget(TARGET, d)).result).toMatchObject({
      outcome: "success",
      seconds: 0.02,
      cost: 1,
    });
    advance(DESCRIBE_EVERY_MS - 1);
    await probeTarget(TARGET, d);
    advance(1);
    await probeTarget(TARGET, d);
    expect(state.calls).toEqual(["describe", "search", "search", "describe", "search"]);
    expect(state.searches[0]).toEqual({
      dbName: "default",
      collectionName: "docs",
      annsField: "vector",
      vector: [1, 0, 0],
    });
  });

  it("picks up a changed dimension after one refused search: described again, searched once more", async () => {
    const { dp, state } = fakePlane(dense(3));
    const { d } = deps(dp);
    await probeTarget(TARGET, d);
    state.schema = dense(5);
    const end = await probeTarget(TARGET, d);
    expect(end).toEqual({ result: expect.objectContaining({ outcome: "success" }) });
    expect(state.calls).toEqual(["describe", "search", "search", "describe", "search"]);
    expect(state.searches.at(-1)?.vector).toEqual([1, 0, 0, 0, 0]);
    // The next probe uses the new schema at once.
    await probeTarget(TARGET, d);
    expect(state.calls.slice(5)).toEqual(["search"]);
  });

  it("searches once more at most: refused again, it fails, and the target is queried instead for the hour", async () => {
    const { dp, state } = fakePlane(dense(3));
    const { d, logs, advance } = deps(dp);
    await probeTarget(TARGET, d);
    state.fail = (call) => (call === "search" ? refusedDim() : undefined);
    const end = await probeTarget(TARGET, d);
    expect(end.result.outcome).toBe("error");
    expect(end.failure).toBeInstanceOf(CloudError);
    expect(state.calls.slice(2)).toEqual(["search", "describe", "search"]);
    // Refused right after a fresh description: describing again would change nothing.
    await probeTarget(TARGET, d);
    advance(DESCRIBE_EVERY_MS - 1);
    expect((await probeTarget(TARGET, d)).result.outcome).toBe("success");
    expect(state.calls.slice(5)).toEqual(["query", "query"]);
    expect(logs).toEqual([
      expect.stringMatching(
        /^warn canary queries the collection instead of searching it: its search was refused right after its schema was read \(.*vector dimension mismatch\)$/,
      ),
    ]);
    // The hour is up: described again, and searched.
    state.fail = undefined;
    advance(1);
    await probeTarget(TARGET, d);
    expect(state.calls.slice(7)).toEqual(["describe", "search"]);
    expect(logs.at(-1)).toBe("info canary searches the collection again");
  });

  it("a search refused on its first, fresh description is queried instead too", async () => {
    const { dp, state } = fakePlane(dense(3));
    state.fail = (call) => (call === "search" ? refusedDim() : undefined);
    const { d } = deps(dp);
    expect((await probeTarget(TARGET, d)).result.outcome).toBe("error");
    await probeTarget(TARGET, d);
    expect(state.calls).toEqual(["describe", "search", "query"]);
  });

  it("queries a collection it cannot build a vector for, and says so once per change", async () => {
    const { dp, state } = fakePlane({ vectorFields: [{ name: "bits", type: "BinaryVector", dim: 64 }] });
    const { d, logs, advance } = deps(dp);
    await probeTarget(TARGET, d);
    await probeTarget(TARGET, d);
    expect(state.calls).toEqual(["describe", "query", "query"]);
    expect(logs).toEqual([
      "warn canary queries the collection instead of searching it: vector field bits is a BinaryVector, which the canary cannot build a vector for",
    ]);
    state.schema = dense(2);
    advance(DESCRIBE_EVERY_MS);
    await probeTarget(TARGET, d);
    expect(state.calls.slice(3)).toEqual(["describe", "search"]);
    expect(logs.at(-1)).toBe("info canary searches the collection again");
  });
});

describe("a probe's outcome", () => {
  const err = (code: "timeout" | "auth_error" | "network_error" | "aborted", apiCode?: number) =>
    new CloudError(code, `${SEARCH_E}: ${code}`, {
      endpoint: SEARCH_E,
      ...(apiCode === undefined ? {} : { apiCode }),
    });

  it.each([
    ["a timeout", err("timeout"), "timeout"],
    ["a refused credential (1800)", err("auth_error", 1800), "refused"],
    ["a connection failure", err("network_error"), "error"],
  ])("is %s's", async (_case, error, outcome) => {
    const { dp, state } = fakePlane(dense(2));
    state.fail = () => error;
    const end = await probeTarget(TARGET, deps(dp).d);
    expect(end.result.outcome).toBe(outcome);
    expect(end.failure).toBe(error);
  });

  it("a query target sends its filter, made once per probe", async () => {
    const { dp, state } = fakePlane(dense(2));
    const seen: unknown[] = [];
    const query = dp.query;
    const spied: DataPlaneApi = {
      ...dp,
      query: (args, o) => {
        seen.push({ args, o });
        return query(args, o);
      },
    };
    await probeTarget({ ...TARGET, operation: "query", filter: "id >= 0" }, deps(spied).d);
    expect(state.calls).toEqual(["query"]);
    expect(seen).toEqual([
      {
        args: { dbName: "default", collectionName: "docs", filter: "id >= 0" },
        o: expect.objectContaining({ timeoutMs: 5_000 }),
      },
    ]);
  });

  it("an aborted probe is thrown, not counted", async () => {
    const { dp, state } = fakePlane(dense(2));
    const stop = new AbortController();
    state.fail = () => {
      stop.abort();
      return err("aborted");
    };
    await expect(probeTarget(TARGET, deps(dp, { signal: stop.signal }).d)).rejects.toThrow(CloudError);
  });
});
