import { describe, expect, it } from "vitest";
import { queryKey } from "../../upstream/catalog.js";
import { CloudError } from "../../upstream/errors.js";
import type { MetricQuery } from "../../upstream/types.js";
import { RefusalBook, RefusalSuspects } from "./quarantine.js";
import { isQueryRefusal, resolveBatch, resolveWithSuspects, type SendQueries } from "./refusedQueries.js";

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
      expect(isQueryRefusal(err)).toBe(false);
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
    // A key speaking the 2024 form sends the configured queries as written...
    expect(state.queriesAt(999, "2024")).toEqual({
      active: [Q("CU_COMPUTATION", "AVG"), Q("STORAGE_USE", "AVG")],
      due: [],
    });
    // ...one speaking the current form in that form, but for the name answered only in the other.
    expect(state.queriesAt(999, "current")).toEqual({
      active: [Q("CU_COMPUTATION"), Q("STORAGE_USE", "AVG")],
      due: [],
    });
    // READ_VCU is the current reference's only: a key speaking the 2024 form never asks it.
    expect(state.queriesAt(1_000, "2024").due).toEqual([]);
    expect(state.queriesAt(1_000, "current").due).toEqual([Q("READ_VCU")]);
    // Names the cluster's plan does not offer are neither sent nor retried.
    expect(state.queriesAt(1_000, "current", (q) => q.name !== "READ_VCU").due).toEqual([]);
    expect(state.queriesAt(999, "current", (q) => q.name === "STORAGE_USE").active).toEqual([
      Q("STORAGE_USE", "AVG"),
    ]);
    // The retried query, answered in the key's form, is released under its configured name.
    expect(state.release(Q("READ_VCU"))).toEqual(Q("READ_VCU", "AVG"));
    expect(state.queriesAt(1_000, "current").active).toContainEqual(Q("READ_VCU"));
    // Refused again in the current form: held under its configured name.
    state.record(
      {
        results: [],
        switched: new Map(),
        refused: [{ query: Q("READ_VCU"), message: "invalid metric name: READ_VCU" }],
      },
      1_000,
    );
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

/** The default-sized batch of a strict server's target: 36 first-form queries, two of them refused. */
const WIDE = [
  ...Array.from({ length: 34 }, (_, i) => Q(`DOCUMENTED_${i}`, "AVG")),
  Q("READ_VCU", "AVG"),
  Q("DEMO_REFUSED_METRIC", "AVG"),
];
const BOTH_REFUSED = ["READ_VCU/AVG", "READ_VCU", "DEMO_REFUSED_METRIC/AVG", "DEMO_REFUSED_METRIC"];

describe("resolveWithSuspects (what other targets of the same kind were refused)", () => {
  it.each<[label: string, refused: string[], suspects: string[], quarantined: string[], calls: number]>([
    ["no suspects: the usual search", BOTH_REFUSED, [], ["READ_VCU/AVG", "DEMO_REFUSED_METRIC/AVG"], 15],
    // 1 call without the suspects, then each suspect alone and in its other form: 5 calls
    // instead of 15.
    [
      "the right suspects: the rest at once, then each suspect alone",
      BOTH_REFUSED,
      ["READ_VCU/AVG", "DEMO_REFUSED_METRIC/AVG"],
      ["READ_VCU/AVG", "DEMO_REFUSED_METRIC/AVG"],
      5,
    ],
    // Plans differ: a suspect this target's service accepts is answered, not quarantined.
    ["a suspect this target accepts: answered, one more call", [], ["READ_VCU/AVG"], [], 2],
    // An incomplete suspicion: the rest is refused too, so the whole batch is searched as usual.
    [
      "an unsuspected refusal: the whole batch searched",
      BOTH_REFUSED,
      ["READ_VCU/AVG"],
      ["READ_VCU/AVG", "DEMO_REFUSED_METRIC/AVG"],
      16,
    ],
  ])("%s", async (_label, refused, suspects, quarantined, calls) => {
    const { send, sent } = server(refused);
    const group = new RefusalSuspects().group("default\u0000cluster");
    group.learn(
      suspects.map((k) => ({ query: WIDE.find((q) => queryKey(q) === k) as MetricQuery, message: "" })),
    );
    const outcome = await resolveWithSuspects(WIDE, send, group);
    expect(outcome.refused.map((r) => queryKey(r.query)).sort()).toEqual([...quarantined].sort());
    // Every query not refused is answered, exactly once.
    const answered = outcome.results.map((r) => `${r.name}/${r.stat}`).sort();
    const want = WIDE.map(queryKey).filter((k) => !quarantined.includes(k));
    expect(answered).toEqual([...want].sort());
    expect(sent).toHaveLength(calls);
  });

  it("learns per group: what one target was refused is a suspect for the next of its group only", async () => {
    const suspects = new RefusalSuspects();
    const { send } = server(BOTH_REFUSED);
    await resolveWithSuspects(WIDE, send, suspects.group("default\u0000cluster"));
    expect([...suspects.group("default\u0000cluster").known()].sort()).toEqual([
      "DEMO_REFUSED_METRIC/AVG",
      "READ_VCU/AVG",
    ]);
    expect([...suspects.group("default\u0000scope").known()]).toEqual([]);
    expect([...suspects.group("key #1\u0000cluster").known()]).toEqual([]);
  });

  it("searches once per group when every target starts at once; the others use what it found", async () => {
    const { send, sent } = server(BOTH_REFUSED);
    const group = new RefusalSuspects().group("default\u0000cluster");
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => resolveWithSuspects(WIDE, send, group)),
    );
    for (const o of outcomes) {
      expect(o.refused.map((r) => queryKey(r.query)).sort()).toEqual([
        "DEMO_REFUSED_METRIC/AVG",
        "READ_VCU/AVG",
      ]);
      expect(o.results).toHaveLength(WIDE.length - 2);
    }
    // One full search (15 calls), then per other target its first refused call, the batch
    // without the suspects and each suspect in both forms (1 + 1 + 4): 45, where six full
    // searches take 6 x 15 = 90.
    expect(sent).toHaveLength(15 + 5 * 6);
  });

  it("leaves a whole form's move to the key: each target asks its own form first", async () => {
    const current = EIGHT.map((q) => Q(q.name));
    const { send, sent } = server(current.map(queryKey));
    const group = new RefusalSuspects().group("default\u0000scope");
    const first = await resolveWithSuspects(current, send, group);
    // READ_VCU is the current reference's only: a server of the 2024 form is not asked it.
    const in2024 = EIGHT.filter((q) => q.name !== "READ_VCU");
    expect([...first.switched.values()]).toEqual(in2024);
    expect(first.unasked).toEqual([Q("READ_VCU")]);
    expect(sent).toHaveLength(2);
    // Another target asks the current form first: forms.ts, not the group, moves a key.
    await resolveWithSuspects(current, send, group);
    expect(sent).toHaveLength(4);
    expect(sent[2]).toEqual(current);
  });
});
