import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { SelfMetrics } from "../exposition/selfMetrics.js";
import { SampleStore } from "../exposition/store.js";
import { CloudError, type CloudErrorCode } from "../upstream/errors.js";
import { notOfferedError } from "../upstream/unknownEndpoint.js";
import { HealthTracker } from "./health.js";
import { NOT_OFFERED_RETRY_MS } from "./notOffered.js";
import { PagingError } from "./pager.js";
import { mergeMappings, putData, runPoll } from "./runtime.js";

function ctx() {
  const store = new SampleStore();
  const self = new SelfMetrics({ version: "t", defaultMetrics: false });
  const health = new HealthTracker(store, pino({ level: "silent" }));
  return { store, self, health, now: Date.now };
}

const ENDPOINT = "GET /v2/clusters/{id}" as const;
const POLL = { collector: "inventory", target: "in01-a", credential: "default" };

const upstream = (
  code: CloudErrorCode,
  init: { apiCode?: number; httpStatus?: number },
  message = "refused",
) => new CloudError(code, message, { endpoint: ENDPOINT, ...init });

describe("runPoll: the one refusal rule", () => {
  it.each([
    { name: "success", poll: async () => {}, want: "ok", up: true, notPermitted: null, plan: false },
    {
      name: "transient failure",
      poll: async () => Promise.reject(upstream("http_error", { httpStatus: 503 })),
      want: "failed",
      up: false,
    },
    {
      name: "an invalid token (80001): the key is refused, a failure",
      poll: async () => Promise.reject(upstream("auth_error", { apiCode: 80001 }, "invalid token")),
      want: "permanent_failure",
      up: false,
    },
    {
      name: "an illegal API key (21119): a failure",
      poll: async () => Promise.reject(upstream("auth_error", { apiCode: 21119 }, "The apikey is illegal.")),
      want: "permanent_failure",
      up: false,
    },
    {
      name: "HTTP 401: a failure, never not permitted",
      poll: async () => Promise.reject(upstream("auth_error", { httpStatus: 401 })),
      want: "permanent_failure",
      up: false,
    },
    {
      name: "HTTP 403: not permitted, up",
      poll: async () => Promise.reject(upstream("auth_error", { httpStatus: 403 })),
      want: "ok",
      up: true,
      notPermitted: "default",
    },
    ...[96012, 96013, 96014, 96015, 96016, 96027].map((apiCode) => ({
      name: `code ${apiCode} (a missing role or scope): not permitted, up`,
      poll: async () => Promise.reject(upstream("api_error", { apiCode }, "Please check your Apikey scope")),
      want: "ok",
      up: true,
      notPermitted: "default",
    })),
    ...[96021, 96022, 96028].map((apiCode) => ({
      name: `code ${apiCode} (the cluster's plan): up, asked again in an hour`,
      poll: async () => Promise.reject(upstream("api_error", { apiCode }, "does not support this operation")),
      want: "ok",
      up: true,
      notPermitted: null,
      plan: true,
    })),
    {
      name: "80020 (cluster not found or no permission): about the cluster, a failure",
      poll: async () =>
        Promise.reject(
          upstream("not_found", { apiCode: 80020 }, "Cluster not exist or you don't have permission"),
        ),
      want: "permanent_failure",
      up: false,
    },
    {
      name: "an endpoint the server does not offer (the client's not_offered, here 404): up",
      poll: async () =>
        Promise.reject(notOfferedError(upstream("not_found", { httpStatus: 404 }), { apiCodes: [] })),
      want: "ok",
      up: true,
      notPermitted: null,
    },
    {
      // Held as a permanent failure is: the scheduler backs it off instead of asking every interval.
      name: "a paging error: a failure, held",
      poll: async () =>
        Promise.reject(new PagingError("GET /v2/clusters", "repeated_page", "page 2 was page 1")),
      want: "permanent_failure",
      up: false,
    },
    {
      name: "a bug throwing a plain error",
      poll: async () => Promise.reject(new TypeError("x is undefined")),
      want: "failed",
      up: false,
    },
  ])("$name -> $want", async ({ poll, want, up, notPermitted, plan }) => {
    const c = ctx();
    expect(await runPoll(c, POLL, poll)).toBe(want);
    const h = c.health.list()[0];
    expect(h?.up).toBe(up);
    if (notPermitted !== undefined) expect(h?.notPermitted).toBe(notPermitted);
    expect(c.health.waitsForPlan(POLL.collector, POLL.target)).toBe(plan === true);
    expect((await c.self.render(false)).toString("utf8")).toMatch(
      /vdbcloud_collector_duration_seconds_count\{collector="inventory"\} 1/,
    );
    c.store.close();
  });

  it("does not poll a target refused for its plan until the hour has passed", async () => {
    let now = 1_000_000;
    const c = { ...ctx(), now: () => now };
    const health = new HealthTracker(c.store, pino({ level: "silent" }), () => now);
    const cx = { ...c, health };
    let calls = 0;
    const refusing = async () => {
      calls++;
      throw upstream("api_error", { apiCode: 96028 }, "Feature only supported for enterprise plan clusters.");
    };
    await runPoll(cx, POLL, refusing);
    now += 3_599_999;
    expect(await runPoll(cx, POLL, refusing)).toBe("ok");
    expect(calls).toBe(1);
    now += 1;
    await runPoll(cx, POLL, refusing);
    expect(calls).toBe(2);
    c.store.close();
  });

  it("a whole poll not offered: up, not failed, says why, and is not asked again for a day", async () => {
    let now = 1_000_000;
    const c = { ...ctx(), now: () => now };
    let calls = 0;
    let offered = false;
    const poll = async () => {
      calls++;
      if (offered) return;
      // As the client throws it for an endpoint declared `absent`: its 80002 is no refused key.
      throw notOfferedError(upstream("auth_error", { apiCode: 80002 }, "Token not found"), {
        apiCodes: [80002],
      });
    };
    expect(await runPoll(c, POLL, poll)).toBe("ok");
    expect(c.health.list()[0]).toMatchObject({
      up: true,
      notPermitted: null,
      lastError: null,
      partialError: null,
      skipped: `not offered here: ${ENDPOINT} (the server answers it as absent; asked again daily)`,
    });
    expect(c.health.waitsForPlan(POLL.collector, POLL.target)).toBe(false);
    now += NOT_OFFERED_RETRY_MS - 1;
    expect(await runPoll(c, POLL, poll)).toBe("ok");
    expect(calls).toBe(1);
    expect(c.health.list()[0]?.skipped).toMatch(/^not offered here/);
    // The day is up: asked once more, still not offered, held another day.
    now += 1;
    await runPoll(c, POLL, poll);
    expect(calls).toBe(2);
    now += NOT_OFFERED_RETRY_MS - 1;
    await runPoll(c, POLL, poll);
    expect(calls).toBe(2);
    // Offered again: asked every poll from then on, and nothing skipped.
    now += 1;
    offered = true;
    await runPoll(c, POLL, poll);
    await runPoll(c, POLL, poll);
    expect(calls).toBe(4);
    expect(c.health.list()[0]).toMatchObject({ up: true, skipped: null });
    c.store.close();
  });

  it("a whole poll not offered drops the series it wrote before, and keeps its health", async () => {
    const c = ctx();
    const data = { ...POLL, slot: "data" };
    let offered = true;
    const poll = async () => {
      if (!offered) throw notOfferedError(upstream("not_found", { httpStatus: 404 }), { apiCodes: [] });
      putData(c, POLL.collector, POLL.target, { families: [], samples: [], dropped: {} }, null);
    };
    await runPoll(c, POLL, poll);
    expect(c.store.has(data)).toBe(true);
    offered = false;
    expect(await runPoll(c, POLL, poll)).toBe("ok");
    expect(c.store.has(data)).toBe(false);
    expect(c.health.list()[0]).toMatchObject({
      up: true,
      skipped: expect.stringMatching(/^not offered here/),
    });
    c.store.close();
  });

  it("forgets a whole poll's hold with its target", async () => {
    const c = ctx();
    let calls = 0;
    const poll = async () => {
      calls++;
      throw notOfferedError(upstream("not_found", { httpStatus: 404 }), { apiCodes: [] });
    };
    await runPoll(c, POLL, poll);
    c.health.remove(POLL.collector, POLL.target);
    await runPoll(c, POLL, poll);
    expect(calls).toBe(2);
    c.store.close();
  });

  it("counts a paging error by endpoint and reason", async () => {
    const c = ctx();
    await runPoll(c, POLL, async () =>
      Promise.reject(new PagingError("POST /v2/usage/query", "repeated_page", "x")),
    );
    const text = (await c.self.render(false)).toString("utf8");
    expect(text).toContain(
      'vdbcloud_api_paging_errors_total{endpoint="POST /v2/usage/query",reason="repeated_page"} 1',
    );
    expect(text).toContain(
      'vdbcloud_api_paging_errors_total{endpoint="GET /v2/clusters",reason="page_cap"} 0',
    );
    c.store.close();
  });

  it("shows the calls a complete poll reported failed, and forgets them after a poll without", async () => {
    const c = ctx();
    const failure = upstream("timeout", {}, "no answer");
    await runPoll(c, POLL, async (run) => {
      run.partialFailure(failure);
      run.partialFailure(upstream("http_error", { httpStatus: 502 }));
    });
    expect(c.health.list()[0]).toMatchObject({
      up: true,
      partialError: { code: "timeout", message: "2 call(s) failed: no answer" },
    });
    await runPoll(c, POLL, async () => {});
    expect(c.health.list()[0]?.partialError).toBeNull();
    c.store.close();
  });

  it("shows why a complete poll asked nothing, until a poll asks again or fails", async () => {
    const c = ctx();
    await runPoll(c, POLL, async (run) => run.skip("served elsewhere"));
    expect(c.health.list()[0]).toMatchObject({ up: true, skipped: "served elsewhere" });
    await runPoll(c, POLL, async () => {});
    expect(c.health.list()[0]?.skipped).toBeNull();
    await runPoll(c, POLL, async (run) => run.skip("served elsewhere"));
    await runPoll(c, POLL, async () => Promise.reject(new Error("down")));
    expect(c.health.list()[0]).toMatchObject({ up: false, skipped: null });
    c.store.close();
  });

  it.each([
    { name: "a success", poll: () => new Promise<void>((r) => setTimeout(r, 30)) },
    {
      name: "a failure",
      poll: () =>
        new Promise<void>((_, reject) => setTimeout(() => reject(upstream("timeout", {}, "no answer")), 30)),
    },
  ])("keeps how long $name took on the target's health", async ({ poll }) => {
    const c = ctx();
    await runPoll(c, POLL, poll);
    const took = c.health.list()[0]?.lastPollSeconds ?? 0;
    expect(took).toBeGreaterThanOrEqual(0.025);
    expect(took).toBeLessThan(5);
    c.store.close();
  });
});

describe("mergeMappings", () => {
  it("concatenates samples, de-duplicates families and adds drop counts", () => {
    const fam = { name: "vdbcloud_x", help: "X", type: "gauge" as const };
    const merged = mergeMappings(
      {
        samples: [{ family: "vdbcloud_x", labels: { a: "1" }, value: 1 }],
        families: [fam],
        dropped: { unknown_unit: 1 },
      },
      {
        samples: [{ family: "vdbcloud_x", labels: { a: "2" }, value: 2 }],
        families: [fam],
        dropped: { unknown_unit: 2, job_cap: 1 },
      },
    );
    expect(merged.samples.length).toBe(2);
    expect(merged.families).toEqual([fam]);
    expect(merged.dropped).toEqual({ unknown_unit: 3, job_cap: 1 });
  });
});
