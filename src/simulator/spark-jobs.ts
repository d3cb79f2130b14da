/**
 * Spark jobs whose status follows the clock from `createdAt` through a scenario
 * (PENDING -> PREPARING -> RUNNING -> terminal), unless a test pins a status. The view is
 * computed on demand, so no timer runs and an injected clock drives everything.
 */
import { hashString, hexFromHash, mix, unit } from "./random.js";
import type { World } from "./world.js";

/** Every documented Spark job status. */
export const SPARK_STATUSES = [
  "PENDING",
  "PREPARING",
  "RUNNING",
  "SUCCEEDED",
  "FAILED",
  "TIMEOUT",
  "CANCELLING",
  "CANCELED",
] as const;
/** One of SPARK_STATUSES. */
export type SparkStatus = (typeof SPARK_STATUSES)[number];

/** How a job's life ends. */
export type SparkScenario =
  | "succeeded"
  | "failed"
  | "timeout"
  | "canceled"
  | "precheck_failed"
  | "long_running";
/** The scenarios generated jobs cycle through, in order. */
export const SPARK_SCENARIOS: readonly SparkScenario[] = [
  "succeeded",
  "failed",
  "timeout",
  "canceled",
  "precheck_failed",
  "long_running",
];

/** Phase boundaries in simulated seconds after creation (divided by the time scale). */
const SUBMIT_S = 20;
const START_S = 45;
const END_S: Record<SparkScenario, number> = {
  succeeded: 300,
  failed: 200,
  timeout: 300,
  canceled: 150,
  precheck_failed: START_S,
  long_running: 3000,
};
const CANCEL_S = 120;
const FINAL: Record<SparkScenario, SparkStatus> = {
  succeeded: "SUCCEEDED",
  failed: "FAILED",
  timeout: "TIMEOUT",
  canceled: "CANCELED",
  precheck_failed: "FAILED",
  long_running: "SUCCEEDED",
};
/** Creation offsets at start are spread over this many simulated seconds. */
const SPREAD_S = 330;

/** Identity of a Spark job, as the exporter's config names it. */
export interface SparkJobRef {
  readonly projectId: string;
  readonly jobId: string;
}

/** What defines a job; the status and timestamps derive from it and the clock. */
export interface SparkJobSpec extends SparkJobRef {
  readonly regionId: string;
  readonly clusterId: string | null;
  readonly scenario: SparkScenario;
  readonly createdAtMs: number;
  readonly description: string;
  readonly dbName: string;
  readonly collectionName: string;
  readonly volumeName: string;
  /** Added by `busyClusterSparkJobs` (configs leave these to discovery). */
  readonly busy?: boolean;
  /** Set by `SimState.setSparkJobStatus`: the status stays as given from `atMs` on. */
  pinned?: { readonly status: SparkStatus; readonly atMs: number };
}

/** The Describe Spark Job payload (`data`), every field of the spec. */
export interface WireSparkJob {
  jobId: string;
  projectId: string;
  type: string;
  description: string;
  status: SparkStatus;
  regionId: string;
  clusterId: string | null;
  artifact: { volumeName: string; path: string; artifactUri: string };
  details: {
    dbName: string;
    collectionName: string;
    input: { type: string; volumeName: string; path: string; format: string };
    fields: string[];
    columnMapping: Record<string, string>;
    mode: string;
    resourceSize: string;
  };
  failureReason: { code: string; message: string; retryable: boolean } | null;
  precheckReport: {
    passed: boolean;
    dbName: string;
    collectionName: string;
    input: string;
    fields: string[];
    columnMapping: Record<string, string>;
    requiredSourceColumns: string[];
    errors: Array<{
      code: string;
      sourceColumn: string;
      targetField: string;
      expectedType: string;
      actualType: string;
      message: string;
    }>;
    checkedRows: number;
  } | null;
  createdAt: string;
  submittedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  durationSeconds: number | null;
}

const FIELDS = ["id", "title", "price", "embedding"];
const COLUMN_MAPPING = { doc_id: "id", doc_title: "title", doc_price: "price", vector: "embedding" };

const EXECUTOR_FAILURE = {
  code: "EXECUTOR_LOST",
  message: "Spark executor lost: container killed on exceeding memory limits",
  retryable: true,
};
const TIMEOUT_FAILURE = {
  code: "JOB_TIMEOUT",
  message: "the job exceeded its maximum run time",
  retryable: true,
};
const PRECHECK_FAILURE = {
  code: "PRECHECK_FAILED",
  message: "precheck failed: the source data does not match the collection schema",
  retryable: false,
};

interface Timeline {
  status: SparkStatus;
  submittedAt: number | null;
  startedAt: number | null;
  finishedAt: number | null;
}

const RANK: Record<SparkStatus, number> = {
  PENDING: 0,
  PREPARING: 1,
  RUNNING: 2,
  CANCELLING: 3,
  SUCCEEDED: 4,
  FAILED: 4,
  TIMEOUT: 4,
  CANCELED: 4,
};

function naturalTimeline(spec: SparkJobSpec, nowMs: number, scale: number): Timeline {
  const at = (s: number) => spec.createdAtMs + (s * 1000) / scale;
  const submit = at(SUBMIT_S);
  const start = at(START_S);
  const end = at(END_S[spec.scenario]);
  const timeline: Timeline = { status: "PENDING", submittedAt: null, startedAt: null, finishedAt: null };
  if (nowMs < submit) return timeline;
  timeline.submittedAt = submit;
  if (nowMs < start && !(spec.scenario === "precheck_failed" && nowMs >= end)) {
    timeline.status = "PREPARING";
    return timeline;
  }
  if (spec.scenario === "precheck_failed") {
    return { ...timeline, status: "FAILED", finishedAt: end };
  }
  timeline.startedAt = start;
  if (nowMs >= end) return { ...timeline, status: FINAL[spec.scenario], finishedAt: end };
  timeline.status = spec.scenario === "canceled" && nowMs >= at(CANCEL_S) ? "CANCELLING" : "RUNNING";
  return timeline;
}

/** Timestamps consistent with a pinned status: each no later than the pin time. */
function pinnedTimeline(spec: SparkJobSpec, status: SparkStatus, atMs: number, scale: number): Timeline {
  const natural = (s: number) => Math.min(spec.createdAtMs + (s * 1000) / scale, atMs);
  const rank = RANK[status];
  const neverStarted =
    (status === "FAILED" && spec.scenario === "precheck_failed") ||
    (status === "CANCELED" && spec.createdAtMs + (START_S * 1000) / scale > atMs);
  const startedAt = rank >= 2 && !neverStarted ? natural(START_S) : null;
  return {
    status,
    submittedAt: rank >= 1 ? natural(SUBMIT_S) : null,
    startedAt,
    finishedAt: rank === 4 ? Math.max(atMs, startedAt ?? spec.createdAtMs) : null,
  };
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function floorSecond(ms: number | null): number | null {
  return ms === null ? null : Math.floor(ms / 1000) * 1000;
}

/**
 * The Describe Spark Job payload of `spec` at `nowMs`. Timestamps are whole seconds, null
 * until reached; `durationSeconds` runs from `startedAt` to `finishedAt` (or now), null
 * before the job starts.
 */
export function sparkJobView(spec: SparkJobSpec, nowMs: number, timeScale: number): WireSparkJob {
  const raw = spec.pinned
    ? pinnedTimeline(spec, spec.pinned.status, spec.pinned.atMs, timeScale)
    : naturalTimeline(spec, nowMs, timeScale);
  const created = floorSecond(spec.createdAtMs) ?? 0;
  const submittedAt = floorSecond(raw.submittedAt);
  const startedAt = floorSecond(raw.startedAt);
  const finishedAt = floorSecond(raw.finishedAt);
  const status = raw.status;
  const precheckFailed = spec.scenario === "precheck_failed" && status === "FAILED";
  const precheckDone = precheckFailed || RANK[status] >= 2;
  const inputPath = `backfill/${spec.jobId}/`;
  const input = `volume://${spec.volumeName}/${inputPath}`;

  let failureReason: WireSparkJob["failureReason"] = null;
  if (status === "FAILED") failureReason = precheckFailed ? PRECHECK_FAILURE : EXECUTOR_FAILURE;
  if (status === "TIMEOUT") failureReason = TIMEOUT_FAILURE;

  return {
    jobId: spec.jobId,
    projectId: spec.projectId,
    type: "BACKFILL",
    description: spec.description,
    status,
    regionId: spec.regionId,
    clusterId: spec.clusterId,
    artifact: {
      volumeName: spec.volumeName,
      path: "artifacts/backfill-1.4.2.jar",
      artifactUri: `volume://${spec.volumeName}/artifacts/backfill-1.4.2.jar`,
    },
    details: {
      dbName: spec.dbName,
      collectionName: spec.collectionName,
      input: { type: "VOLUME", volumeName: spec.volumeName, path: inputPath, format: "PARQUET" },
      fields: [...FIELDS],
      columnMapping: { ...COLUMN_MAPPING },
      mode: "UPSERT",
      resourceSize: "SMALL",
    },
    failureReason,
    precheckReport: precheckDone
      ? {
          passed: !precheckFailed,
          dbName: spec.dbName,
          collectionName: spec.collectionName,
          input,
          fields: [...FIELDS],
          columnMapping: { ...COLUMN_MAPPING },
          requiredSourceColumns: Object.keys(COLUMN_MAPPING),
          errors: precheckFailed
            ? [
                {
                  code: "TYPE_MISMATCH",
                  sourceColumn: "doc_price",
                  targetField: "price",
                  expectedType: "FLOAT",
                  actualType: "STRING",
                  message: "column doc_price is STRING, field price expects FLOAT",
                },
                {
                  code: "MISSING_COLUMN",
                  sourceColumn: "vector",
                  targetField: "embedding",
                  expectedType: "FLOAT_VECTOR",
                  actualType: "",
                  message: "source column vector not found",
                },
              ]
            : [],
          checkedRows: precheckFailed ? 1000 : 250_000,
        }
      : null,
    createdAt: iso(created) ?? "",
    submittedAt: iso(submittedAt),
    startedAt: iso(startedAt),
    finishedAt: iso(finishedAt),
    durationSeconds: startedAt === null ? null : Math.floor(((finishedAt ?? nowMs) - startedAt) / 1000),
  };
}

/** Jobs keyed by project and job ID. */
export class SparkJobStore {
  readonly #jobs = new Map<string, SparkJobSpec>();

  /** Adds a job; returns false when one with the same project and job ID exists. */
  add(spec: SparkJobSpec): boolean {
    const key = `${spec.projectId}/${spec.jobId}`;
    if (this.#jobs.has(key)) return false;
    this.#jobs.set(key, spec);
    return true;
  }

  get(projectId: string, jobId: string): SparkJobSpec | undefined {
    return this.#jobs.get(`${projectId}/${jobId}`);
  }

  /** All jobs in insertion order (only the busy cluster's with `busyOnly`). */
  refs(busyOnly = false): SparkJobRef[] {
    return [...this.#jobs.values()]
      .filter((j) => !busyOnly || j.busy === true)
      .map((j) => ({ projectId: j.projectId, jobId: j.jobId }));
  }

  /** The jobs of one cluster, newest first (as List Spark Jobs orders them). */
  ofCluster(clusterId: string): SparkJobSpec[] {
    return [...this.#jobs.values()]
      .filter((j) => j.clusterId === clusterId)
      .sort((a, b) => b.createdAtMs - a.createdAtMs || (a.jobId < b.jobId ? -1 : 1));
  }
}

/**
 * The initial jobs: `perProject` per project, cycling through the scenarios, created at
 * spread offsets before `nowMs` so that some are finished and some in flight at start.
 */
export function generateSparkJobs(
  world: World,
  seed: number,
  perProject: number,
  nowMs: number,
  timeScale: number,
): SparkJobSpec[] {
  const out: SparkJobSpec[] = [];
  for (const project of world.projects) {
    const cluster = world.clusters.find((c) => c.projectId === project.id);
    const ph = mix(seed, hashString(project.id));
    for (let i = 0; i < perProject; i++) {
      const h = mix(ph, i);
      const scenario = SPARK_SCENARIOS[i % SPARK_SCENARIOS.length] ?? "succeeded";
      const collection = cluster?.collections[i % Math.max(1, cluster.collections.length)];
      const offsetMs = (unit(mix(h, 1)) * SPREAD_S * 1000) / timeScale;
      out.push({
        projectId: project.id,
        jobId: `job-${hexFromHash(h, 20)}`,
        regionId: cluster?.regionId ?? world.regions[0]?.regionId ?? "aws-us-west-2",
        clusterId: cluster?.id ?? null,
        scenario,
        createdAtMs: Math.floor((nowMs - offsetMs) / 1000) * 1000,
        description: `backfill ${collection?.collectionName ?? "docs"} (${scenario.replace("_", " ")})`,
        dbName: collection?.dbName ?? "default",
        collectionName: collection?.collectionName ?? "docs",
        volumeName: `vol-${hexFromHash(ph, 8)}`,
      });
    }
  }
  return out;
}
