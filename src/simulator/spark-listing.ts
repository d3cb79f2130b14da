/**
 * What List Spark Jobs shows of the simulated Spark jobs (the list's fields of each job), and
 * the jobs of a busy cluster whose listing is longer than a page.
 */
import { hashString, hexFromHash, mix, unit } from "./random.js";
import { SPARK_SCENARIOS, type SparkJobSpec, sparkJobView, type WireSparkJob } from "./spark-jobs.js";
import type { World } from "./world.js";

/** The fields a List Spark Jobs item shares with the Describe payload, in the list's order. */
const ITEM_FIELDS = [
  "jobId",
  "projectId",
  "type",
  "description",
  "status",
  "regionId",
  "clusterId",
  "createdAt",
  "startedAt",
  "finishedAt",
  "durationSeconds",
] as const satisfies readonly (keyof WireSparkJob)[];

/** A List Spark Jobs item: the list's fields of the Describe payload. */
type WireSparkJobItem = Pick<WireSparkJob, (typeof ITEM_FIELDS)[number]>;

/** The List Spark Jobs item of `spec` at `nowMs`. */
export function sparkJobListItem(spec: SparkJobSpec, nowMs: number, timeScale: number): WireSparkJobItem {
  const v = sparkJobView(spec, nowMs, timeScale);
  return Object.fromEntries(ITEM_FIELDS.map((k) => [k, v[k]])) as WireSparkJobItem;
}

/**
 * `count` more jobs on one cluster, for listings longer than a page: a third created hours ago
 * (long finished), a third 15 to 55 simulated minutes ago (finished recently), a third in the
 * last 40 simulated seconds (pending, preparing or running), each third cycling through the
 * scenarios.
 */
export function busyClusterSparkJobs(
  world: World,
  seed: number,
  clusterId: string,
  count: number,
  nowMs: number,
  timeScale: number,
): SparkJobSpec[] {
  const cluster = world.clusters.find((c) => c.id === clusterId);
  if (cluster === undefined) return [];
  const ch = mix(seed ^ 0xb05e, hashString(clusterId));
  const out: SparkJobSpec[] = [];
  for (let i = 0; i < count; i++) {
    const h = mix(ch, i);
    const scenario = SPARK_SCENARIOS[Math.floor(i / 3) % SPARK_SCENARIOS.length] ?? "succeeded";
    const ageS = [
      2 * 3600 + unit(mix(h, 1)) * 3 * 3600,
      15 * 60 + unit(mix(h, 1)) * 40 * 60,
      unit(mix(h, 1)) * 40,
    ][i % 3] as number;
    const collection = cluster.collections[i % Math.max(1, cluster.collections.length)];
    out.push({
      projectId: cluster.projectId,
      jobId: `job-${hexFromHash(h, 20)}`,
      regionId: cluster.regionId,
      clusterId: cluster.id,
      // long_running would still run hours later; the old and recent thirds must have ended.
      scenario: i % 3 !== 2 && scenario === "long_running" ? "succeeded" : scenario,
      createdAtMs: Math.floor((nowMs - (ageS * 1000) / timeScale) / 1000) * 1000,
      description: `backfill ${collection?.collectionName ?? "docs"} #${i + 1}`,
      dbName: collection?.dbName ?? "default",
      collectionName: collection?.collectionName ?? "docs",
      volumeName: `vol-${hexFromHash(ch, 8)}`,
      busy: true,
    });
  }
  return out;
}
