import { describe, expect, it } from "vitest";
import { storeContext } from "../../test/helpers/storeContext.js";
import { gauge } from "../metrics/define.js";
import type { MappingResult } from "../metrics/sample.js";
import { CloudError } from "../upstream/errors.js";
import { notOfferedError } from "../upstream/unknownEndpoint.js";
import { NOT_OFFERED_RETRY_MS } from "./notOffered.js";
import { PagingError } from "./pager.js";
import { pollParts } from "./parts.js";
import { runPoll } from "./runtime.js";

const FAMILY = gauge("vdbcloud_test_part", {
  help: "A part's value (source: test).",
  labels: ["part"],
  unit: "count",
  source: "test",
  absent: "never",
});
const T0 = 1_750_000_000_000;
const refused = () =>
  new CloudError(
    "api_error",
    "GET /v2/alertRules: upstream code 96013: Org owner or project owner is needed",
    {
      endpoint: "GET /v2/alertRules",
      apiCode: 96013,
    },
  );
const down = () =>
  new CloudError("network_error", "GET /v2/alertRules: connection refused", {
    endpoint: "GET /v2/alertRules",
  });

function mapping(part: string, value: number): MappingResult {
  return { samples: [{ family: FAMILY.name, labels: { part }, value }], families: [FAMILY], dropped: {} };
}

type Answer = number | (() => Error);

/** Polls `parts` once with `answers` (a value or an error per part), through runPoll. */
async function pollOnce(s: ReturnType<typeof storeContext>, answers: Record<string, Answer>) {
  const asked: string[] = [];
  const outcome = await runPoll(s.ctx, { collector: "c", target: "t", credential: "default" }, (run) =>
    pollParts(
      s.ctx,
      run,
      {
        collector: "c",
        target: "t",
        key: (p: string) => p,
        poll: async (p) => {
          asked.push(p);
          const a = answers[p];
          if (typeof a === "function") throw a();
          return mapping(p, a ?? 0);
        },
        ttlMs: 60_000,
      },
      Object.keys(answers),
    ),
  );
  const values = Object.fromEntries(
    [...(await s.text()).matchAll(/^vdbcloud_test_part\{part="([^"]+)"\} (\S+)$/gm)].map((m) => [
      m[1],
      Number(m[2]),
    ]),
  );
  return { asked, outcome, values, health: s.health.list().find((h) => h.target === "t") };
}

/** A server's answer that it has no such endpoint, as the client throws it for one declared `absent`. */
const notOffered = () =>
  notOfferedError(
    new CloudError("not_found", "GET /v2/alertRules: HTTP 404: Not Found", {
      endpoint: "GET /v2/alertRules",
      httpStatus: 404,
    }),
    { apiCodes: [] },
  );

/**
 * Polls parts "project/region" whose hold key is the region, at `now()`, through runPoll: a part
 * answers `answers[part]` (a value or an error), 1 when not given.
 */
async function pollByRegion(
  s: ReturnType<typeof storeContext>,
  now: () => number,
  parts: readonly string[],
  answers: Record<string, Answer> = {},
) {
  const asked: string[] = [];
  const ctx = { ...s.ctx, now };
  const outcome = await runPoll(ctx, { collector: "c", target: "t", credential: "default" }, (run) =>
    pollParts(
      ctx,
      run,
      {
        collector: "c",
        target: "t",
        key: (p: string) => p,
        holdKey: (p: string) => p.split("/")[1] ?? p,
        poll: async (p) => {
          asked.push(p);
          const a = answers[p];
          if (typeof a === "function") throw a();
          return mapping(p, a ?? 1);
        },
        ttlMs: 60_000,
      },
      parts,
    ),
  );
  return { asked, outcome, health: s.health.list().find((h) => h.target === "t") };
}

describe("pollParts: a part whose endpoint is not offered", () => {
  it("holds its hold key a day: the parts sharing it are not asked, the poll is up and says why", async () => {
    const s = storeContext(T0);
    let now = T0;
    const parts = ["p1/r1", "p2/r1", "p1/r2"];
    const gone = { "p1/r1": notOffered, "p2/r1": notOffered };
    const first = await pollByRegion(s, () => now, parts, gone);
    // p2/r1 shares r1 with p1/r1, which the server answered as not offered: not asked.
    expect(first.asked).toEqual(["p1/r1", "p1/r2"]);
    expect(first.outcome).toBe("ok");
    expect(first.health).toMatchObject({ up: true, partialError: null, notPermitted: null });
    expect(first.health?.skipped).toBe(
      "not offered here: GET /v2/alertRules for r1 (the server answers it as absent; each asked again daily)",
    );
    // No slice for what is not offered; the others keep theirs.
    expect(s.store.slots("c", "t").sort()).toEqual(["health", "part p1/r2"]);
    now += NOT_OFFERED_RETRY_MS - 1;
    expect((await pollByRegion(s, () => now, parts, gone)).asked).toEqual(["p1/r2"]);
    // The day is up: one part of r1 asks again for all, and answers this time.
    now += 1;
    const later = await pollByRegion(s, () => now, parts);
    expect(later.asked).toEqual(["p1/r1", "p2/r1", "p1/r2"]);
    expect(later.health?.skipped).toBeNull();
    // One line said it, when it began; none when it ended (the skip reason's own line only).
    expect(s.logs.filter((l) => l.includes("not offered here"))).toHaveLength(1);
  });

  it("is no failure: when every other part fails, the poll fails with their error", async () => {
    const s = storeContext(T0);
    const r = await pollByRegion(s, () => T0, ["p1/r1", "p1/r2"], { "p1/r1": notOffered, "p1/r2": down });
    expect(r.outcome).toBe("failed");
    expect(r.health?.lastError?.code).toBe("network_error");
  });

  it("every part not offered: up, not failed, nothing partial", async () => {
    const s = storeContext(T0);
    const r = await pollByRegion(s, () => T0, ["p1/r1", "p1/r2"], {
      "p1/r1": notOffered,
      "p1/r2": notOffered,
    });
    expect(r.outcome).toBe("ok");
    expect(r.health).toMatchObject({ up: true, partialError: null });
    expect(r.health?.skipped).toMatch(/^not offered here: GET \/v2\/alertRules for r1, r2 \(/);
    expect(await s.text()).toContain('vdbcloud_collector_up{collector="c",target="t"} 1');
  });

  it("forgets a hold key no part has any longer", async () => {
    const s = storeContext(T0);
    await pollByRegion(s, () => T0, ["p1/r1", "p1/r2"], { "p1/r1": notOffered });
    const r = await pollByRegion(s, () => T0 + 1, ["p1/r2"]);
    expect(r.health?.skipped).toBeNull();
    // Known again within the day: asked, its hold forgotten with it.
    expect((await pollByRegion(s, () => T0 + 2, ["p1/r1"])).asked).toEqual(["p1/r1"]);
  });
});

describe("pollParts", () => {
  it("keeps each part's samples in a slice of its own, and asks each part once", async () => {
    const s = storeContext(T0);
    const r = await pollOnce(s, { a: 1, b: 2 });
    expect(r.asked).toEqual(["a", "b"]);
    expect(r.values).toEqual({ a: 1, b: 2 });
    expect(s.store.slots("c", "t").sort()).toEqual(["health", "part a", "part b"]);
  });

  it.each<{ name: string; second: Record<string, Answer>; values: Record<string, number>; partial: number }>([
    { name: "every part answers again", second: { a: 3, b: 4 }, values: { a: 3, b: 4 }, partial: 0 },
    // A part that fails keeps its last good values, the others move on, and the poll says so.
    { name: "one part refused", second: { a: refused, b: 4 }, values: { a: 1, b: 4 }, partial: 1 },
    { name: "one part down", second: { a: 3, b: down }, values: { a: 3, b: 2 }, partial: 1 },
    // A part no longer asked loses its slice.
    { name: "a part gone", second: { b: 4 }, values: { b: 4 }, partial: 0 },
    { name: "no part left", second: {}, values: {}, partial: 0 },
  ])("then $name", async ({ second, values, partial }) => {
    const s = storeContext(T0);
    await pollOnce(s, { a: 1, b: 2 });
    const r = await pollOnce(s, second);
    expect(r.outcome).toBe("ok");
    expect(r.values).toEqual(values);
    expect(r.health?.up).toBe(true);
    expect(r.health?.partialError?.message ?? "").toMatch(partial === 0 ? /^$/ : /^1 call\(s\) failed: /);
  });

  it("every part refused for lack of a role: not permitted, once, and the last values stay", async () => {
    const s = storeContext(T0);
    await pollOnce(s, { a: 1, b: 2 });
    const r = await pollOnce(s, { a: refused, b: refused });
    expect(r.outcome).toBe("ok");
    expect(r.health?.notPermitted).toBe("default");
    expect(r.values).toEqual({ a: 1, b: 2 });
    await pollOnce(s, { a: refused, b: refused });
    expect(s.logs.filter((l) => l.includes("credential lacks the permission"))).toHaveLength(1);
    expect(await s.text()).toContain(
      'vdbcloud_collector_not_permitted{collector="c",target="t",credential="default"} 1',
    );
  });

  it("every part down: the poll fails with the first part's error", async () => {
    const s = storeContext(T0);
    const r = await pollOnce(s, { a: down, b: refused });
    expect(r.outcome).toBe("failed");
    expect(r.health?.up).toBe(false);
    expect(r.health?.lastError?.code).toBe("network_error");
  });

  it("counts a part's paging error, as a failed poll's", async () => {
    const s = storeContext(T0);
    const paging = () =>
      new PagingError("GET /v2/alertRules", "repeated_page", "page 2 was answered as page 1");
    await pollOnce(s, { a: 1, b: paging });
    const text = (await s.self.render(false)).toString("utf8");
    expect(text).toMatch(
      /vdbcloud_api_paging_errors_total\{endpoint="GET \/v2\/alertRules",reason="repeated_page"\} 1/,
    );
  });

  it("stops at once when the poll is aborted", async () => {
    const s = storeContext(T0);
    const controller = new AbortController();
    const asked: string[] = [];
    const err = await pollParts(
      s.ctx,
      { partialFailure: () => {}, skip: () => {} },
      {
        collector: "c",
        target: "t",
        key: (p: string) => p,
        poll: async (p) => {
          asked.push(p);
          controller.abort();
          throw new CloudError("aborted", "aborted", { endpoint: "GET /v2/alertRules" });
        },
        ttlMs: 1,
      },
      ["a", "b"],
      controller.signal,
    ).catch((e: unknown) => e);
    expect((err as CloudError).code).toBe("aborted");
    expect(asked).toEqual(["a"]);
  });
});
