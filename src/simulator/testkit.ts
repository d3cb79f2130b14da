/**
 * Test helpers for the simulator modules. Used by tests only (the build leaves testkit files out).
 */
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
