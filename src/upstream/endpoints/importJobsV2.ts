/**
 * List Import Jobs (V2): POST /v2/vectordb/jobs/import/list on the v2 control plane, body
 * {clusterId, pageSize, currentPage}; and Get Import Job Progress (V2): POST
 * /v2/vectordb/jobs/import/describe, body {clusterId, jobId} (the older .../get_progress path
 * is deprecated). Neither needs the cluster's region. The list's `data` is documented as
 * {count, currentPage, pageSize, records}; the v1 listing's `tasks` is accepted too, and
 * numbers may come as strings (the reference's samples show the job ID as a string, the
 * request's sample as a number).
 */
import { z } from "zod";
import { idOrAsked, lenient, lenientNote, lenientText as text } from "../lenient.js";
import type { ImportJobPage, ImportJobProgress } from "../results.js";
import { numeric, stringish } from "../wire.js";
import { defineEndpoint, PAGES, V2 } from "./define.js";
import { importJobsDataSchema, normalizeImportJobs } from "./importJobs.js";

/** Arguments of List Import Jobs (V2) (CloudApi.listImportJobsV2). Pages start at 1. */
interface ListImportJobsV2Args {
  readonly clusterId: string;
  readonly pageSize: number;
  readonly currentPage: number;
}

/** List Import Jobs (V2): the same page shape and tolerance as v1, on the v2 control plane. */
export const listImportJobsV2Endpoint = defineEndpoint("POST /v2/vectordb/jobs/import/list", {
  scope: "cluster",
  paging: PAGES("count"),
  planOrder: 1,
}).as<ListImportJobsV2Args, z.infer<typeof importJobsDataSchema>, ImportJobPage>({
  request: (args) => ({
    target: V2,
    body: { clusterId: args.clusterId, pageSize: args.pageSize, currentPage: args.currentPage },
  }),
  schema: importJobsDataSchema,
  normalize: normalizeImportJobs,
});

/** Arguments of Get Import Job Progress (V2) (CloudApi.describeImportJob). */
interface DescribeImportJobArgs {
  readonly clusterId: string;
  readonly jobId: string;
}

/**
 * The envelope's `data`. Only `state` is required (the answer is about the job asked for);
 * progress, totalRows and reason read as null when absent or odd (a blank reason too), so a
 * partial answer still gives the state. `details` (per file) is not read.
 */
export const importJobProgressDataSchema = z.object({
  jobId: stringish.nullish(),
  collectionName: text,
  state: stringish,
  progress: lenient(numeric),
  totalRows: lenient(numeric),
  reason: lenientNote,
});

type ImportJobProgressData = z.infer<typeof importJobProgressDataSchema>;

/** Maps `data` to ImportJobProgress; the job ID asked for stands in for a missing one. */
export function normalizeImportJobProgress(
  data: ImportJobProgressData,
  args: DescribeImportJobArgs,
): ImportJobProgress {
  return {
    jobId: idOrAsked(data.jobId, args.jobId),
    collectionName: data.collectionName,
    state: data.state,
    progressPercent: data.progress,
    totalRows: data.totalRows,
    reason: data.reason,
  };
}

/** Get Import Job Progress (V2). */
export const describeImportJobEndpoint = defineEndpoint("POST /v2/vectordb/jobs/import/describe", {
  scope: "cluster",
  paging: "none",
  planOrder: 2,
}).as<DescribeImportJobArgs, ImportJobProgressData, ImportJobProgress>({
  request: (args) => ({
    target: V2,
    body: { clusterId: args.clusterId, jobId: args.jobId },
  }),
  schema: importJobProgressDataSchema,
  normalize: normalizeImportJobProgress,
});
