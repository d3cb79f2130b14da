import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { SampleStore } from "../exposition/store.js";
import { CloudError } from "../upstream/errors.js";
import { collectorUpSamples, HealthTracker, PLAN_RETRY_MS } from "./health.js";

function setup() {
  const lines: string[] = [];
  let now = 1_000_000;
  const store = new SampleStore({ now: () => now });
  const logger = pino({ level: "info" }, { write: (l: string) => void lines.push(l) });
  const health = new HealthTracker(store, logger, () => now);
  return { lines, store, health, tick: (ms: number) => (now += ms) };
}

function notFound() {
  return new CloudError("not_found", "cluster not found", {
    endpoint: "GET /v2/clusters/{id}",
    apiCode: 80020,
  });
}

describe("HealthTracker", () => {
  it("writes up and last-success samples, and keeps last success through failures", async () => {
    const { store, health, tick } = setup();
    health.success("inventory", "in01-a");
    tick(30_000);
    health.failure("inventory", "in01-a", notFound());
    const text = (await store.publishNow()).text.toString();
    expect(text).toContain('vdbcloud_collector_up{collector="inventory",target="in01-a"} 0');
    expect(text).toContain(
      'vdbcloud_collector_last_success_timestamp_seconds{collector="inventory",target="in01-a"} 1000',
    );
    expect(health.list()[0]).toMatchObject({
      up: false,
      consecutiveFailures: 1,
      lastError: { code: "not_found" },
    });
    store.close();
  });

  it("logs a failing target once per change of state, not once per cycle", () => {
    const { lines, health } = setup();
    for (let i = 0; i < 5; i++) health.failure("cluster_metrics", "in01-a", notFound());
    expect(lines.filter((l) => l.includes("target failing")).length).toBe(1);
    // Another error code is a change of state.
    health.failure(
      "cluster_metrics",
      "in01-a",
      new CloudError("api_error", "boom", { endpoint: "GET /v2/clusters/{id}", apiCode: 1 }),
    );
    expect(lines.filter((l) => l.includes("target failing")).length).toBe(2);
    for (let i = 0; i < 3; i++) health.success("cluster_metrics", "in01-a");
    expect(lines.filter((l) => l.includes("target recovered")).length).toBe(1);
  });

  it("a target not permitted is up, says which credential, and clears on success or failure", async () => {
    const { lines, store, health, tick } = setup();
    health.notPermitted("backups", "organization", "cluster key #1");
    let text = (await store.publishNow()).text.toString();
    expect(text).toContain('vdbcloud_collector_up{collector="backups",target="organization"} 1');
    expect(text).toContain(
      'vdbcloud_collector_not_permitted{collector="backups",target="organization",credential="cluster key #1"} 1',
    );
    expect(health.list()[0]).toMatchObject({ up: true, notPermitted: "cluster key #1", lastError: null });
    expect(lines).toHaveLength(1);
    tick(60_000);
    health.success("backups", "organization");
    text = (await store.publishNow()).text.toString();
    expect(text).not.toContain("vdbcloud_collector_not_permitted");
    health.notPermitted("backups", "organization", "cluster key #1");
    health.failure("backups", "organization", notFound());
    text = (await store.publishNow()).text.toString();
    expect(text).not.toContain("vdbcloud_collector_not_permitted");
    expect(text).toContain('vdbcloud_collector_up{collector="backups",target="organization"} 0');
    store.close();
  });

  it("one warning per collector and credential however many targets and cycles, one line when permitted again", () => {
    const { lines, health } = setup();
    const logged = () =>
      lines.map((l) => JSON.parse(l) as { level: number; msg: string; credential?: string });
    health.notPermitted("backups", "c1", "default", "backups: a project admin");
    health.notPermitted("backups", "c2", "default", "backups: a project admin");
    health.notPermitted("backups", "c1", "default", "backups: a project admin");
    // Another credential, and another collector, are their own line.
    health.notPermitted("backups", "c3", "cluster key #1");
    health.notPermitted("billing", "usage", "default");
    expect(logged().map((l) => [l.level, l.credential])).toEqual([
      [40, "default"],
      [40, "cluster key #1"],
      [40, "default"],
    ]);
    expect(logged()[0]?.msg).toContain("(backups: a project admin)");
    health.success("backups", "c1");
    expect(logged()).toHaveLength(3);
    health.success("backups", "c2");
    expect(
      logged()
        .slice(3)
        .map((l) => [l.level, l.msg, l.credential]),
    ).toEqual([[30, "credential permitted again", "default"]]);
  });

  it("a plan refusal is up, waits an hour, logs once, and is asked again at once when the plan changes", async () => {
    const { lines, store, health, tick } = setup();
    const refusal = new CloudError(
      "api_error",
      "upstream code 96022: Serverless cluster does not support this operation.",
      {
        endpoint: "GET /v2/clusters/{id}/backups/policy",
        apiCode: 96022,
      },
    );
    health.planRefused("backups", "in01-a", refusal);
    expect(health.waitsForPlan("backups", "in01-a")).toBe(true);
    expect(health.waitsForPlan("inventory", "in01-a")).toBe(false);
    const text = (await store.publishNow()).text.toString();
    expect(text).toContain('vdbcloud_collector_up{collector="backups",target="in01-a"} 1');
    expect(text).not.toContain("vdbcloud_collector_not_permitted");
    tick(PLAN_RETRY_MS - 1);
    health.planRefused("backups", "in01-a", refusal);
    expect(lines).toHaveLength(1);
    tick(PLAN_RETRY_MS - 1);
    expect(health.waitsForPlan("backups", "in01-a")).toBe(true);
    tick(1);
    expect(health.waitsForPlan("backups", "in01-a")).toBe(false);
    health.planRefused("backups", "in01-a", refusal);
    health.planChanged("in01-b");
    expect(health.waitsForPlan("backups", "in01-a")).toBe(true);
    health.planChanged("in01-a");
    expect(health.waitsForPlan("backups", "in01-a")).toBe(false);
    health.remove("backups", "in01-a");
    expect(health.waitsForPlan("backups", "in01-a")).toBe(false);
    store.close();
  });

  it("a call that failed without failing the poll shows until a poll has none, logged when it starts", () => {
    const { lines, health } = setup();
    health.success("import_jobs", "c1");
    health.partial("import_jobs", "c1", 2, notFound());
    health.partial("import_jobs", "c1", 1, notFound());
    expect(health.list()[0]?.partialError).toEqual({
      code: "not_found",
      message: "1 call(s) failed: cluster not found",
    });
    expect(lines.filter((l) => l.includes("calls of the poll failed"))).toHaveLength(1);
    health.partial("import_jobs", "c1", 0, undefined);
    expect(health.list()[0]?.partialError).toBeNull();
    health.partial("import_jobs", "c1", 1, notFound());
    expect(lines.filter((l) => l.includes("calls of the poll failed"))).toHaveLength(2);
  });

  it("retain forgets targets no longer scheduled, and their series", async () => {
    const { store, health } = setup();
    health.success("spark_jobs", "p/j1");
    health.success("spark_jobs", "p/j2");
    expect(health.retain("spark_jobs", new Set(["p/j2"]))).toEqual(["p/j1"]);
    const text = (await store.publishNow()).text.toString();
    expect(text).not.toContain("p/j1");
    expect(text).toContain("p/j2");
    store.close();
  });
});

describe("HealthTracker for the landing page", () => {
  it("lists the scheduled targets in their order, pending until a poll ends, then the known ones not scheduled", () => {
    const { health } = setup();
    health.success("inventory", "in01-z");
    health.success("inventory", "in01-a");
    const scheduled = [
      { collector: "backups", target: "in01-a" },
      { collector: "inventory", target: "in01-a" },
      { collector: "inventory", target: "in01-b" },
    ];
    health.setScheduled(scheduled);
    expect(health.listScheduled().map((h) => [h.collector, h.target, h.up])).toEqual([
      ["backups", "in01-a", null],
      ["inventory", "in01-a", true],
      ["inventory", "in01-b", null],
      ["inventory", "in01-z", true],
    ]);
    // Listing does not make them known: their health series exist only once polled.
    expect(health.list()).toHaveLength(2);
    health.setScheduled(scheduled.slice(1, 2));
    expect(health.listScheduled().map((h) => h.target)).toEqual(["in01-a", "in01-z"]);
  });

  it("follows scheduled targets as they become known, are forgotten and come back", () => {
    const { health } = setup();
    health.setScheduled([
      { collector: "jobs", target: "j1" },
      { collector: "jobs", target: "j2" },
    ]);
    const states = () => health.listScheduled().map((h) => `${h.target}:${h.up}:${h.consecutiveFailures}`);
    expect(states()).toEqual(["j1:null:0", "j2:null:0"]);
    health.failure("jobs", "j2", notFound());
    expect(states()).toEqual(["j1:null:0", "j2:false:1"]);
    health.remove("jobs", "j2");
    expect(states()).toEqual(["j1:null:0", "j2:null:0"]);
    health.success("jobs", "j2");
    health.success("jobs", "j1");
    expect(states()).toEqual(["j1:true:0", "j2:true:0"]);
    // A copy: what was listed does not change with later polls.
    const listed = health.listScheduled();
    health.failure("jobs", "j1", notFound());
    expect(listed[0]?.up).toBe(true);
  });

  it("keeps how long the last poll took, and never brings back a forgotten target", () => {
    const { health } = setup();
    health.failure("inventory", "in01-a", notFound());
    health.timed("inventory", "in01-a", 1.5);
    health.success("inventory", "in01-a");
    expect(health.list()[0]?.lastPollSeconds).toBe(1.5);
    health.timed("inventory", "in01-a", 0.25);
    expect(health.list()[0]?.lastPollSeconds).toBe(0.25);
    health.remove("inventory", "in01-a");
    health.timed("inventory", "in01-a", 3);
    expect(health.list()).toEqual([]);
  });
});

describe("collectorUpSamples", () => {
  it.each<[up: boolean, last: number | null, expected: [string, number][]]>([
    [
      true,
      1_700_000_000,
      [
        ["vdbcloud_collector_up", 1],
        ["vdbcloud_collector_last_success_timestamp_seconds", 1_700_000_000],
      ],
    ],
    [
      false,
      1_700_000_000,
      [
        ["vdbcloud_collector_up", 0],
        ["vdbcloud_collector_last_success_timestamp_seconds", 1_700_000_000],
      ],
    ],
    [false, null, [["vdbcloud_collector_up", 0]]],
  ])("up %s, last success %s", (up, last, expected) => {
    const r = collectorUpSamples("import_jobs", "in01-a", up, last);
    expect(r.samples.map((s) => [s.family, s.value])).toEqual(expected);
    for (const s of r.samples) expect(s.labels).toEqual({ collector: "import_jobs", target: "in01-a" });
    expect(r.families.map((f) => f.name)).toEqual(expected.map(([f]) => f));
  });
});
