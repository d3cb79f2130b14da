import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { SelfMetrics } from "../exposition/selfMetrics.js";
import { SampleStore } from "../exposition/store.js";
import { CloudError } from "../upstream/errors.js";
import { HealthTracker } from "./health.js";
import { mergeMappings, runPoll } from "./runtime.js";

function ctx() {
  const store = new SampleStore();
  const self = new SelfMetrics({ version: "t", defaultMetrics: false });
  const health = new HealthTracker(store, pino({ level: "silent" }));
  return { store, self, health, now: Date.now };
}

const ENDPOINT = "GET /v2/clusters/{id}" as const;

describe("runPoll", () => {
  it.each([
    { name: "success", poll: async () => {}, want: "ok", up: true },
    {
      name: "transient failure",
      poll: async () =>
        Promise.reject(new CloudError("http_error", "503", { endpoint: ENDPOINT, httpStatus: 503 })),
      want: "failed",
      up: false,
    },
    {
      name: "permanent failure",
      poll: async () =>
        Promise.reject(new CloudError("auth_error", "invalid token", { endpoint: ENDPOINT, apiCode: 80001 })),
      want: "permanent_failure",
      up: false,
    },
    {
      name: "a bug throwing a plain error",
      poll: async () => Promise.reject(new TypeError("x is undefined")),
      want: "failed",
      up: false,
    },
  ])("$name -> $want", async ({ poll, want, up }) => {
    const c = ctx();
    expect(await runPoll(c, "inventory", "in01-a", poll)).toBe(want);
    expect(c.health.list()[0]?.up).toBe(up);
    expect((await c.self.render(false)).toString("utf8")).toMatch(
      /vdbcloud_collector_duration_seconds_count\{collector="inventory"\} 1/,
    );
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
