/**
 * Describe Job (v2): GET /v2/jobs/{jobId}, any control-plane job (IMPORT, MIGRATION, BACKUP,
 * RESTORE, CLONE_COLLECTION) by its ID: {jobId, type, status (PENDING, IN_PROGRESS, SUCCESSFUL,
 * FAILED, CANCELING), progress ("0".."100"), startTime, endTime, reason}.
 *
 * The reference's schema shows the job object itself while its sample wraps it in the {code,
 * data} envelope (migration answers are known to come both ways): both are read. `progress` is
 * documented as a string and accepted as a number; empty strings (`endTime` of a running job,
 * `reason` of a healthy one) read as "not known". Only a missing or empty status rejects an
 * answer: without it the job's state cannot be shown.
 */
import { z } from "zod";
import { idOrAsked, lenient, lenientNote, lenientTimestampMs, lenientText as text } from "../lenient.js";
import type { CloudJob } from "../results.js";
import { numeric, stringish } from "../wire.js";
import { defineEndpoint, V2 } from "./define.js";

/** The job object (the envelope's `data`, or the whole body when it has no envelope). */
export const cloudJobDataSchema = z.object({
  jobId: stringish.nullish(),
  type: text,
  status: z.string().trim().min(1, { message: "expected a non-empty status" }),
  progress: lenient(numeric),
  startTime: lenientTimestampMs,
  endTime: lenientTimestampMs,
  reason: lenientNote,
});

type CloudJobData = z.infer<typeof cloudJobDataSchema>;

/** Maps the job object to CloudJob; an answer without its ID gets the requested one. */
export function normalizeCloudJob(data: CloudJobData, jobId: string): CloudJob {
  return {
    jobId: idOrAsked(data.jobId, jobId),
    type: data.type ?? "",
    status: data.status,
    progress: data.progress,
    startTimeMs: data.startTime,
    endTimeMs: data.endTime,
    reason: data.reason,
  };
}

/** Describe Job (v2). */
export const describeJobEndpoint = defineEndpoint("GET /v2/jobs/{jobId}", {
  scope: "account",
  paging: "none",
  planOrder: 6,
}).as<string, CloudJobData, CloudJob>({
  request: (jobId) => ({ target: V2, params: { jobId } }),
  schema: cloudJobDataSchema,
  normalize: normalizeCloudJob,
  envelope: "optional",
});
