import { describe, expect, it } from "vitest";
import { storeContext } from "../../test/helpers/storeContext.js";
import { gauge } from "../metrics/define.js";
import type { MappingResult } from "../metrics/sample.js";
import { CloudError } from "../upstream/errors.js";
import { PagingError } from "./pager.js";
import { pollParts } from "./parts.js";
import { runPoll } from "./runtime.js";

const FAMILY = gauge("vdbcloud_test_part", "A part's value (source: test).");
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
