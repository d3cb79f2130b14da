import { describe, expect, it } from "vitest";
import { queryKey } from "../../upstream/catalog.js";
import { CloudError } from "../../upstream/errors.js";
import type { MetricQuery } from "../../upstream/types.js";
import { RefusalBook } from "./quarantine.js";
import { isRefusal, resolveBatch, type SendQueries } from "./refusals.js";

const ENDPOINT = "POST /v2/clusters/{id}/metrics/query" as const;

/** A server refusing any request that holds one of `refused` (by query key), as a strict one does. */
function server(refused: readonly string[]) {
  const sent: MetricQuery[][] = [];
  const send: SendQueries = async (queries) => {
    sent.push([...queries]);
    const bad = queries.find((q) => refused.includes(queryKey(q)));
    if (bad !== undefined) {
      throw new CloudError(
        "api_error",
        `${ENDPOINT}: upstream code 96000: invalid metric name: ${bad.name}`,
        {
          endpoint: ENDPOINT,
          apiCode: 96000,
        },
      );
    }
    return queries.map((q) => ({
      name: q.name,
      ...(q.stat ? { stat: q.stat } : {}),
      unit: "count",
      values: [],
    }));
  };
  return { send, sent };
}

const Q = (name: string, stat?: "AVG" | "P99"): MetricQuery => (stat ? { name, stat } : { name });
const EIGHT = [
  "CU_COMPUTATION",
  "CU_CAPACITY",
  "STORAGE_USE",
  "ENTITIES_COUNT",
  "ENTITIES_LOADED",
  "COLLECTIONS_COUNT",
  "REQ_SEARCH_COUNT",
  "READ_VCU",
].map((n) => Q(n, "AVG"));

describe("resolveBatch", () => {
  it.each<
    [
      label: string,
      batch: MetricQuery[],
      refused: string[],
      quarantined: string[],
      switched: [string, string][],
      maxCalls: number,
    ]
  >([
    ["nothing refused: one call", EIGHT, [], [], [], 1],
    [
      "one refused in both forms: halving finds it, the rest answered",
      EIGHT,
      ["READ_VCU/AVG", "READ_VCU"],
      ["READ_VCU/AVG"],
      [],
      9,
    ],
    [
      // Every query has a second form: the whole batch moves there in one call.
      "refused only in the first form: the batch answered in the second",
      EIGHT,
      ["READ_VCU/AVG"],
      [],
      EIGHT.map((q): [string, string] => [queryKey(q), q.name]),
      2,
    ],
    [
      // REQ_SUCCESS_RATE has no second form, so the batch cannot move: halving, then the other form.
      "refused only in the first form, in a batch that cannot move: that one answered in the second",
      [...EIGHT, Q("REQ_SUCCESS_RATE", "AVG")],
      ["READ_VCU/AVG"],
      [],
      [["READ_VCU/AVG", "READ_VCU"]],
      10,
    ],
    [
      "a whole second-form batch refused: one call in the first form",
      [Q("STORAGE_USE"), Q("REQ_SEARCH_LATENCY_P99")],
      ["STORAGE_USE", "REQ_SEARCH_LATENCY_P99"],
      [],
      [
        ["STORAGE_USE", "STORAGE_USE/AVG"],
        ["REQ_SEARCH_LATENCY_P99", "REQ_SEARCH_LATENCY/P99"],
      ],
      2,
    ],
    [
      "a lone refused query without another form",
      [Q("REQ_SUCCESS_RATE", "AVG")],
      ["REQ_SUCCESS_RATE/AVG"],
      ["REQ_SUCCESS_RATE/AVG"],
      [],
      1,
    ],
  ])("%s", async (_label, batch, refused, quarantined, switched, maxCalls) => {
    const { send, sent } = server(refused);
    const out = await resolveBatch(batch, send);
    expect(out.refused.map((r) => queryKey(r.query))).toEqual(quarantined);
    expect([...out.switched].map(([k, q]) => [k, queryKey(q)])).toEqual(switched);
    for (const r of out.refused) expect(r.message).toBe(`invalid metric name: ${r.query.name}`);
    // Every query not quarantined was answered exactly once.
    const answered = out.results.map((r) => r.name).sort();
    const expected = batch
      .filter((q) => !quarantined.includes(queryKey(q)))
      .map((q) => out.switched.get(queryKey(q))?.name ?? q.name)
      .sort();
    expect(answered).toEqual(expected);
    expect(sent.length).toBeLessThanOrEqual(maxCalls);
  });

  it("lets other failures through: auth, rate limit and network errors fail the poll", async () => {
    for (const code of ["auth_error", "rate_limited", "not_found", "timeout"] as const) {
      const err = new CloudError(code, "x", { endpoint: ENDPOINT });
      expect(isRefusal(err)).toBe(false);
      await expect(resolveBatch(EIGHT, () => Promise.reject(err))).rejects.toBe(err);
    }
  });
});

describe("RefusalBook", () => {
  it("holds a refused query until its quarantine is over, keeps a switched form, resets when the queries change", () => {
    const book = new RefusalBook();
    const configured = [Q("CU_COMPUTATION", "AVG"), Q("READ_VCU", "AVG"), Q("STORAGE_USE")];
    const state = book.forTarget("c", configured);
    const fresh = state.record(
      {
        results: [],
        switched: new Map([["STORAGE_USE", Q("STORAGE_USE", "AVG")]]),
        refused: [{ query: Q("READ_VCU", "AVG"), message: "invalid metric name: READ_VCU" }],
      },
      1_000,
    );
    expect(fresh.map((r) => r.query.name)).toEqual(["READ_VCU"]);
    expect(state.plan(999)).toEqual({
      active: [Q("CU_COMPUTATION", "AVG"), Q("STORAGE_USE", "AVG")],
      due: [],
    });
    expect(state.plan(1_000).due).toEqual([Q("READ_VCU", "AVG")]);
    expect(state.held().map((h) => h.message)).toEqual(["invalid metric name: READ_VCU"]);
    // Refused again after its retrial: held again, but not reported as new.
    expect(
      state.record(
        { results: [], switched: new Map(), refused: [{ query: Q("READ_VCU", "AVG"), message: "m" }] },
        2_000,
      ),
    ).toEqual([]);
    expect(book.forTarget("c", configured)).toBe(state);
    expect(book.forTarget("c", configured.slice(0, 2)).held()).toEqual([]);
  });
});
