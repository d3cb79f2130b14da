/**
 * Test helpers for the simulator modules. Used by tests only (the build leaves testkit files out).
 */
import { afterAll, beforeAll } from "vitest";
import { type Simulator, type SimulatorOptions, startSimulator } from "./index.js";
import { buildProfile } from "./metric-values.js";
import type { MetricsQueryContext } from "./metrics-query.js";
import type { SparkJobSpec, SparkScenario } from "./spark-jobs.js";

/** A Spark job of `scenario` created at `createdAtMs`, with fixed IDs; `extra` overrides fields. */
export function sparkJobSpec(
  scenario: SparkScenario,
  createdAtMs: number,
  extra: Partial<SparkJobSpec> = {},
): SparkJobSpec {
  return {
    projectId: "proj-1",
    jobId: "job-1",
    regionId: "aws-us-west-2",
    clusterId: "in01-0123456789abcdef",
    scenario,
    createdAtMs,
    description: "test",
    dbName: "default",
    collectionName: "docs",
    volumeName: "vol-1",
    ...extra,
  };
}

/**
 * Starts a simulator with `options` before the enclosing suite's tests and closes it after them.
 * (The tests' setup lets sockets reach loopback only, so nothing reaches a real host.)
 * `started` receives the simulator once it listens, for the suite to keep and look into.
 */
export function simulatorPerSuite(options: SimulatorOptions, started: (sim: Simulator) => void): void {
  let sim: Simulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator(options);
    started(sim);
  });
  afterAll(async () => {
    await sim?.close();
  });
}

/**
 * The context Query Cluster Metrics answers in for `cluster` at `nowMs`, its values drawn from
 * `seed`: nothing nulled, mixed forms allowed; `extra` overrides fields.
 */
export function metricsContext(
  cluster: MetricsQueryContext["cluster"],
  seed: number,
  nowMs: number,
  extra: Partial<MetricsQueryContext> = {},
): MetricsQueryContext {
  return {
    cluster,
    profile: buildProfile(seed, cluster),
    nowMs,
    isNulled: () => false,
    rejectMixedForms: false,
    ...extra,
  };
}
