/**
 * Describe Spark Job (v2): GET /v2/projects/{projectId}/jobs/{jobId}.
 *
 * Read tolerantly, because losing a job's status to a field no gauge uses is worse than not
 * reading that field: only the fields the gauges use are parsed, each leniently (a value of an
 * unexpected type reads as "not known"), and everything else (`description` of another type,
 * `details.*`, `artifact.*`, `precheckReport.input`, which the spec itself types two ways,
 * `columnMapping`, unknown fields) is accepted as any JSON. A job is rejected only when its
 * status is not a non-empty string or its ID is neither a string nor a number.
 *
 * The spec does not show where `failureReason` and `precheckReport` sit relative to the top
 * of the payload, so both `data.X` and `data.details.X` are accepted (top level wins).
 * Timestamps become epoch milliseconds; absent, null, empty or unreadable ones null.
 */
import { z } from "zod";
import { boolish, idOrAsked, lenient, lenientTimestampMs, lenientText as text } from "../lenient.js";
import type { SparkJob, SparkPrecheckError } from "../results.js";
import { numeric, stringish } from "../wire.js";
import { defineEndpoint, V2 } from "./define.js";

/** Arguments of Describe Spark Job. */
interface DescribeSparkJobArgs {
  readonly projectId: string;
  readonly jobId: string;
}

/** An object as documented, or a bare message string (read as a reason without a code). */
const failureReasonSchema = z.union([
  z.object({ code: text, message: text, retryable: lenient(boolish) }),
  z
    .string()
    .min(1)
    .transform((message) => ({ code: null, message, retryable: null })),
]);

const precheckErrorSchema = z
  .object({ code: text, sourceColumn: text, targetField: text, message: text })
  .catch({ code: null, sourceColumn: null, targetField: null, message: null });

const precheckReportSchema = z.object({
  passed: lenient(boolish),
  // No list means no error count: an absent list is not "zero errors".
  errors: lenient(z.array(precheckErrorSchema)),
  checkedRows: lenient(numeric),
});

const nested = {
  failureReason: lenient(failureReasonSchema),
  precheckReport: lenient(precheckReportSchema),
};

/** The envelope's `data`: one Spark job, the fields the gauges use. */
export const sparkJobDataSchema = z.object({
  jobId: stringish.nullish(),
  projectId: text,
  type: text,
  description: lenient(z.string()),
  status: z.string().trim().min(1, { message: "expected a non-empty status" }),
  regionId: text,
  clusterId: text,
  details: lenient(z.object(nested)),
  ...nested,
  createdAt: lenientTimestampMs,
  submittedAt: lenientTimestampMs,
  startedAt: lenientTimestampMs,
  finishedAt: lenientTimestampMs,
  durationSeconds: lenient(numeric),
});

type SparkJobData = z.infer<typeof sparkJobDataSchema>;
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

function normalizePrecheck(report: PrecheckReportData | null): SparkJob["precheck"] {
  if (report === null) return null;
  return {
    passed: report.passed,
    checkedRows: report.checkedRows,
    errors: report.errors === null ? null : report.errors.map(normalizePrecheckError),
  };
}

/**
 * A failure reason that says something: an empty object (`{}`, or every field null or empty)
 * is no failure, so a running job never shows a failure series with an empty code.
 */
function usableFailure<F extends { code: string | null; message: string | null }>(
  failure: F | null | undefined,
): F | null {
  if (failure == null) return null;
  return (failure.code ?? "") === "" && (failure.message ?? "") === "" ? null : failure;
}

/** Maps `data` to SparkJob; IDs an answer leaves out come from the request. */
export function normalizeSparkJob(data: SparkJobData, args: DescribeSparkJobArgs): SparkJob {
  const failure = usableFailure(data.failureReason) ?? usableFailure(data.details?.failureReason) ?? null;
  return {
    jobId: idOrAsked(data.jobId, args.jobId),
    projectId: idOrAsked(data.projectId, args.projectId),
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
        : { code: failure.code ?? "", message: failure.message ?? "", retryable: failure.retryable },
    precheck: normalizePrecheck(data.precheckReport ?? data.details?.precheckReport ?? null),
  };
}

/** Describe Spark Job (v2). */
export const describeSparkJobEndpoint = defineEndpoint("GET /v2/projects/{projectId}/jobs/{jobId}", {
  scope: "project",
  paging: "none",
  planOrder: 4,
}).as<DescribeSparkJobArgs, SparkJobData, SparkJob>({
  request: (args) => ({
    target: V2,
    params: { projectId: args.projectId, jobId: args.jobId },
  }),
  schema: sparkJobDataSchema,
  normalize: normalizeSparkJob,
});
