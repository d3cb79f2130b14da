import { describe, expect, it } from "vitest";
import {
  generateSparkJobs,
  SPARK_SCENARIOS,
  SPARK_STATUSES,
  type SparkJobSpec,
  type SparkScenario,
  type SparkStatus,
  sparkJobView,
} from "./spark-jobs.js";
import { sparkJobSpec } from "./testkit.js";
import { generateWorld } from "./world.js";

const CREATED = Date.UTC(2025, 0, 1, 0, 0, 0);

function spec(scenario: SparkScenario, extra: Partial<SparkJobSpec> = {}): SparkJobSpec {
  return sparkJobSpec(scenario, CREATED, extra);
}

const at = (s: SparkJobSpec, seconds: number, scale = 1) => sparkJobView(s, CREATED + seconds * 1000, scale);
const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso));

describe("Spark job timelines", () => {
  it.each([
    ["succeeded", 0, "PENDING"],
    ["succeeded", 30, "PREPARING"],
    ["succeeded", 60, "RUNNING"],
    ["succeeded", 300, "SUCCEEDED"],
    ["failed", 199, "RUNNING"],
    ["failed", 200, "FAILED"],
    ["timeout", 300, "TIMEOUT"],
    ["canceled", 119, "RUNNING"],
    ["canceled", 120, "CANCELLING"],
    ["canceled", 150, "CANCELED"],
    ["precheck_failed", 44, "PREPARING"],
    ["precheck_failed", 45, "FAILED"],
    ["long_running", 2000, "RUNNING"],
    ["long_running", 3000, "SUCCEEDED"],
  ] as const)("%s is %s s after creation: %s", (scenario, seconds, status) => {
    expect(at(spec(scenario), seconds).status).toBe(status);
  });

  it("runs timeScale times faster", () => {
    expect(at(spec("succeeded"), 3, 10).status).toBe("PREPARING");
    expect(at(spec("succeeded"), 30, 10).status).toBe("SUCCEEDED");
    expect(at(spec("succeeded"), 30, 1).status).toBe("PREPARING");
  });

  it("leaves timestamps null until reached and keeps the duration consistent", () => {
    const pending = at(spec("succeeded"), 5);
    expect(pending).toMatchObject({
      submittedAt: null,
      startedAt: null,
      finishedAt: null,
      durationSeconds: null,
      precheckReport: null,
    });
    expect(pending.createdAt).toBe("2025-01-01T00:00:00Z");

    const running = at(spec("succeeded"), 100);
    expect(running.finishedAt).toBeNull();
    expect(running.startedAt).toBe("2025-01-01T00:00:45Z");
    expect(running.durationSeconds).toBe(55);
    expect(running.precheckReport).toMatchObject({
      passed: true,
      errors: [],
      checkedRows: expect.any(Number),
    });

    const done = at(spec("succeeded"), 1000);
    expect(done.finishedAt).toBe("2025-01-01T00:05:00Z");
    expect(done.durationSeconds).toBe(255);
    expect(done.failureReason).toBeNull();
  });

  it.each(SPARK_SCENARIOS)("keeps created <= submitted <= started <= finished for %s", (scenario) => {
    for (const seconds of [0, 10, 20, 44, 45, 100, 120, 149, 150, 200, 299, 300, 5000]) {
      const v = at(spec(scenario), seconds);
      const times = [v.createdAt, v.submittedAt, v.startedAt, v.finishedAt].map(ms).filter((t) => t !== null);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      for (const t of times) expect(t).toBeLessThanOrEqual(CREATED + seconds * 1000);
      expect(SPARK_STATUSES).toContain(v.status);
    }
  });

  it.each([
    ["failed", 500, { code: "EXECUTOR_LOST", retryable: true }],
    ["timeout", 500, { code: "JOB_TIMEOUT", retryable: true }],
    ["precheck_failed", 500, { code: "PRECHECK_FAILED", retryable: false }],
  ] as const)("gives %s a failure reason", (scenario, seconds, reason) => {
    expect(at(spec(scenario), seconds).failureReason).toMatchObject(reason);
  });

  it("reports a failed precheck with errors and no start", () => {
    const v = at(spec("precheck_failed"), 500);
    expect(v.startedAt).toBeNull();
    expect(v.durationSeconds).toBeNull();
    expect(v.precheckReport?.passed).toBe(false);
    expect(v.precheckReport?.errors.length).toBeGreaterThan(0);
    expect(v.precheckReport?.errors[0]).toEqual({
      code: expect.any(String),
      sourceColumn: expect.any(String),
      targetField: expect.any(String),
      expectedType: expect.any(String),
      actualType: expect.any(String),
      message: expect.any(String),
    });
  });

  it.each([
    ["PENDING", { submittedAt: null, startedAt: null, finishedAt: null }],
    ["RUNNING", { startedAt: "2025-01-01T00:00:45Z", finishedAt: null }],
    ["FAILED", { finishedAt: "2025-01-01T00:01:40Z" }],
    ["CANCELED", { finishedAt: "2025-01-01T00:01:40Z" }],
  ] as const)("pins %s with consistent timestamps", (status: SparkStatus, expected) => {
    const s = spec("long_running", { pinned: { status, atMs: CREATED + 100_000 } });
    const v = at(s, 5000);
    expect(v.status).toBe(status);
    expect(v).toMatchObject(expected);
  });

  it("generates the configured number of jobs per project, created no later than now", () => {
    const now = Date.UTC(2025, 0, 2);
    const world = generateWorld({ seed: 1, clusters: 12, collectionsPerCluster: 3, nowMs: now });
    const jobs = generateSparkJobs(world, 1, 6, now, 1);
    expect(jobs).toHaveLength(world.projects.length * 6);
    expect(new Set(jobs.map((j) => j.jobId)).size).toBe(jobs.length);
    expect(new Set(jobs.map((j) => j.scenario))).toEqual(new Set(SPARK_SCENARIOS));
    for (const j of jobs) {
      expect(j.createdAtMs).toBeLessThanOrEqual(now);
      expect(
        j.clusterId === null ||
          world.clusters.some((c) => c.id === j.clusterId && c.projectId === j.projectId),
      ).toBe(true);
    }
    expect(generateSparkJobs(world, 1, 6, now, 1)).toEqual(jobs);
  });
});
