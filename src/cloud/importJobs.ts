/**
 * List Import Jobs (v1): GET /v1/vector/collections/import/list at the region's controller.
 * The schema names the list `records`, the sample `tasks`; count/currentPage/pageSize are
 * documented as strings in the query and appear as numbers or strings in answers.
 */
import { z } from "zod";
import type { EndpointDef } from "./endpoint.js";
import type { ImportJob, ImportJobPage } from "./types.js";
import { numeric, stringish } from "./wire.js";

/** Arguments of List Import Jobs (CloudApi.listImportJobs). */
export interface ListImportJobsArgs {
  readonly clusterId: string;
  readonly region: string;
  readonly pageSize: number;
  readonly currentPage: number;
}

const jobSchema = z.object({
  jobId: stringish,
  collectionName: z.string().nullish(),
  state: z.string(),
});

/** The envelope's `data`. An empty page may omit the list entirely. */
export const importJobsDataSchema = z.object({
  count: numeric.nullish(),
  currentPage: numeric.nullish(),
  pageSize: numeric.nullish(),
  records: z.array(jobSchema).nullish(),
  tasks: z.array(jobSchema).nullish(),
});

export type ImportJobsData = z.infer<typeof importJobsDataSchema>;

/**
 * Maps `data` to a page; fields an answer leaves out come from the request. Jobs under
 * `records` and `tasks` are both taken (an empty `records` must not hide a full `tasks`), each
 * job ID once.
 */
export function normalizeImportJobs(data: ImportJobsData, args: ListImportJobsArgs): ImportJobPage {
  const byId = new Map<string, ImportJob>();
  for (const j of [...(data.records ?? []), ...(data.tasks ?? [])]) {
    if (!byId.has(j.jobId))
      byId.set(j.jobId, { jobId: j.jobId, collectionName: j.collectionName ?? "", state: j.state });
  }
  const jobs = [...byId.values()];
  return {
    total: data.count ?? jobs.length,
    currentPage: data.currentPage ?? args.currentPage,
    pageSize: data.pageSize ?? args.pageSize,
    jobs,
  };
}

/** List Import Jobs (v1, controller URL of `region`). */
export const listImportJobsEndpoint: EndpointDef<ListImportJobsArgs, ImportJobsData, ImportJobPage> = {
  endpoint: "GET /v1/vector/collections/import/list",
  build: (args) => ({
    endpoint: "GET /v1/vector/collections/import/list",
    method: "GET",
    target: { plane: "v1", region: args.region },
    path: "/v1/vector/collections/import/list",
    query: {
      clusterId: args.clusterId,
      pageSize: String(args.pageSize),
      currentPage: String(args.currentPage),
    },
  }),
  schema: importJobsDataSchema,
  normalize: normalizeImportJobs,
};
