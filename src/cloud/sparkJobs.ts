/**
 * Describe Spark Job (v2): GET /v2/projects/{projectId}/jobs/{jobId}.
 *
 * The spec does not show where `failureReason` and `precheckReport` sit relative to the top
 * of the payload, so both `data.X` and `data.details.X` are accepted (top level wins).
 * Timestamps become epoch milliseconds; absent or null ones (finishedAt while running) null.
 */
import { z } from "zod";
import type { EndpointDef } from "./endpoint.js";
import type { SparkJob, SparkPrecheckError } from "./types.js";
import { segment } from "./urls.js";
import { nullableNumeric, nullableString, nullableTimestampMs, stringish } from "./wire.js";

/** Arguments of Describe Spark Job. */
export interface DescribeSparkJobArgs {
  readonly projectId: string;
  readonly jobId: string;
}

const failureReasonSchema = z.object({
  code: stringish.nullish(),
  message: z.string().nullish(),
  retryable: z.boolean().nullish(),
});

const precheckErrorSchema = z.object({
  code: stringish.nullish(),
  sourceColumn: z.string().nullish(),
  targetField: z.string().nullish(),
  expectedType: z.string().nullish(),
  actualType: z.string().nullish(),
  message: z.string().nullish(),
});

const precheckReportSchema = z.object({
  passed: z.boolean().nullish(),
  dbName: z.string().nullish(),
  collectionName: z.string().nullish(),
  input: z.string().nullish(),
  fields: z.array(z.string()).nullish(),
  columnMapping: z.record(z.string(), z.unknown()).nullish(),
  requiredSourceColumns: z.array(z.string()).nullish(),
  errors: z.array(precheckErrorSchema).nullish(),
  checkedRows: nullableNumeric,
});

const detailsSchema = z.object({
  dbName: z.string().nullish(),
  collectionName: z.string().nullish(),
  input: z
    .object({
      type: z.string().nullish(),
      volumeName: z.string().nullish(),
      path: z.string().nullish(),
      format: z.string().nullish(),
    })
    .nullish(),
  fields: z.array(z.string()).nullish(),
  columnMapping: z.record(z.string(), z.unknown()).nullish(),
  mode: z.string().nullish(),
  resourceSize: z.string().nullish(),
  failureReason: failureReasonSchema.nullish(),
  precheckReport: precheckReportSchema.nullish(),
});

/** The envelope's `data`: one Spark job with every documented field. */
export const sparkJobDataSchema = z.object({
  jobId: stringish.nullish(),
  projectId: stringish.nullish(),
  type: z.string().nullish(),
  description: nullableString,
  status: z.string(),
  regionId: z.string().nullish(),
  clusterId: nullableString,
  artifact: z
    .object({
      volumeName: z.string().nullish(),
      path: z.string().nullish(),
      artifactUri: z.string().nullish(),
    })
    .nullish(),
  details: detailsSchema.nullish(),
  failureReason: failureReasonSchema.nullish(),
  precheckReport: precheckReportSchema.nullish(),
  createdAt: nullableTimestampMs,
  submittedAt: nullableTimestampMs,
  startedAt: nullableTimestampMs,
  finishedAt: nullableTimestampMs,
  durationSeconds: nullableNumeric,
});

export type SparkJobData = z.infer<typeof sparkJobDataSchema>;
type PrecheckReportData = z.infer<typeof precheckReportSchema>;
type PrecheckErrorData = z.infer<typeof precheckErrorSchema>;

function normalizePrecheckError(e: PrecheckErrorData): SparkPrecheckError {
  return {
    ...(e.code == null ? {} : { code: e.code }),
    ...(e.sourceColumn == null ? {} : { sourceColumn: e.sourceColumn }),
    ...(e.targetField == null ? {} : { targetField: e.targetField }),
    ...(e.message == null ? {} : { message: e.message }),
  };
}

function normalizePrecheck(report: PrecheckReportData | null | undefined): SparkJob["precheck"] {
  if (report == null) return null;
  return {
    passed: report.passed ?? null,
    checkedRows: report.checkedRows,
    errors: (report.errors ?? []).map(normalizePrecheckError),
  };
}

/** Maps `data` to SparkJob; IDs an answer leaves out come from the request. */
export function normalizeSparkJob(data: SparkJobData, args: DescribeSparkJobArgs): SparkJob {
  const failure = data.failureReason ?? data.details?.failureReason ?? null;
  return {
    jobId: data.jobId ?? args.jobId,
    projectId: data.projectId ?? args.projectId,
    type: data.type ?? "",
    status: data.status,
    regionId: data.regionId ?? "",
    clusterId: data.clusterId,
    description: data.description,
    createdAtMs: data.createdAt,
    submittedAtMs: data.submittedAt,
    startedAtMs: data.startedAt,
    finishedAtMs: data.finishedAt,
    durationSeconds: data.durationSeconds,
    failureReason:
      failure === null
        ? null
        : { code: failure.code ?? "", message: failure.message ?? "", retryable: failure.retryable ?? false },
    precheck: normalizePrecheck(data.precheckReport ?? data.details?.precheckReport),
  };
}

/** Describe Spark Job (v2). */
export const describeSparkJobEndpoint: EndpointDef<DescribeSparkJobArgs, SparkJobData, SparkJob> = {
  endpoint: "GET /v2/projects/{projectId}/jobs/{jobId}",
  build: (args) => ({
    endpoint: "GET /v2/projects/{projectId}/jobs/{jobId}",
    method: "GET",
    target: { plane: "v2" },
    path: `/v2/projects/${segment(args.projectId)}/jobs/${segment(args.jobId)}`,
  }),
  schema: sparkJobDataSchema,
  normalize: normalizeSparkJob,
};
