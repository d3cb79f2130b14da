/**
 * List Import Jobs (v1, the fallback of List Import Jobs V2 in importJobsV2.ts): GET /v1/vector/collections/import/list at the region's controller.
 * The schema names the list `records`, the sample `tasks`; count/currentPage/pageSize are
 * documented as strings in the query and appear as numbers or strings in answers.
 */
import { z } from "zod";
import { lenient, lenientText as text } from "../lenient.js";
import type { ImportJob, ImportJobPage } from "../results.js";
import { numeric, pageInfoOf, pageQuery } from "../wire.js";
import { defineEndpoint, PAGES } from "./define.js";

/** Arguments of List Import Jobs (CloudApi.listImportJobs). */
interface ListImportJobsArgs {
  readonly clusterId: string;
  readonly region: string;
  readonly pageSize: number;
  readonly currentPage: number;
}

/** A job as read: null when it has no usable ID (it is then left out, the page kept). */
const jobSchema = z
  .object({ jobId: text, collectionName: text, state: text })
  .catch({ jobId: null, collectionName: null, state: null })
  .transform((j) =>
    j.jobId === null || j.jobId === ""
      ? null
      : // A job without a readable state is listed under the "unknown" state, not dropped.
        { jobId: j.jobId, collectionName: j.collectionName ?? "", state: j.state ?? "" },
  );

/**
 * The envelope's `data`. An empty page may omit the list entirely. Jobs are read one by one:
 * an odd job costs that job, and an odd count or page number reads as absent (the request's
 * values stand in), so one field never costs the page.
 */
export const importJobsDataSchema = z.object({
  count: lenient(numeric),
  currentPage: lenient(numeric),
  pageSize: lenient(numeric),
  records: z.array(jobSchema).nullish(),
  tasks: z.array(jobSchema).nullish(),
});

export type ImportJobsData = z.infer<typeof importJobsDataSchema>;

/**
 * Maps a V2 `data` to a page; paging fields an answer leaves out read as null. Jobs under
 * `records` and `tasks` are both taken (an empty `records` must not hide a full `tasks`), each
 * job ID once; the page listed as many items as the longer of the two lists, unusable ones
 * included. V2's `count` is the listing's total (its sample: 1000 jobs, pages of 10).
 */
export function normalizeImportJobs(data: ImportJobsData): ImportJobPage {
  const records = data.records ?? [];
  const tasks = data.tasks ?? [];
  const byId = new Map<string, ImportJob>();
  for (const j of [...records, ...tasks]) {
    if (j !== null && !byId.has(j.jobId)) byId.set(j.jobId, j);
  }
  return { ...pageInfoOf(data, Math.max(records.length, tasks.length)), jobs: [...byId.values()] };
}

/**
 * Maps a v1 `data` to a page as `normalizeImportJobs` does, but with no total: v1 documents
 * `count` as the "total records listed in this response", which may be the page's own length,
 * so a v1 listing is read until a short page whatever its count says.
 */
export function normalizeImportJobsV1(data: ImportJobsData): ImportJobPage {
  return { ...normalizeImportJobs(data), total: null };
}

/** List Import Jobs (v1, controller URL of `region`). */
export const listImportJobsEndpoint = defineEndpoint("GET /v1/vector/collections/import/list", {
  scope: "cluster",
  paging: PAGES("count"),
  planOrder: 3,
}).as<ListImportJobsArgs, ImportJobsData, ImportJobPage>({
  request: (args) => ({
    target: { plane: "v1", region: args.region },
    query: {
      clusterId: args.clusterId,
      ...pageQuery(args),
    },
  }),
  schema: importJobsDataSchema,
  normalize: normalizeImportJobsV1,
});
