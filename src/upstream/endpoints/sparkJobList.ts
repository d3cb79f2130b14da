/**
 * List Spark Jobs (v2): GET /v2/jobs?type=SPARK&clusterId=...&pageSize=&currentPage= (pageSize
 * at most 100). `data` is documented as `{total, items}`; an answer that says `count` instead of
 * `total`, or `jobs`/`records` instead of `items`, is read the same way.
 *
 * Items are read with Describe Spark Job's tolerant schema (same fields, fewer of them): an item
 * whose status is unusable is skipped, not the whole page, so one odd job cannot hide the others
 * from the per-status counts. Skipped items are still counted in `total` by the service.
 */
import { z } from "zod";
import { idOrAsked } from "../lenient.js";
import type { SparkJob, SparkJobPage } from "../results.js";
import { FIRST_ISSUE, numeric, pageDataFields, pageInfoOf, pageQuery } from "../wire.js";
import { defineEndpoint, PAGES, V2 } from "./define.js";
import { normalizeSparkJob, sparkJobDataSchema } from "./sparkJobs.js";

/** Arguments of List Spark Jobs. Page numbers start at 1. */
interface ListSparkJobsArgs {
  readonly clusterId: string;
  readonly pageSize: number;
  readonly currentPage: number;
}

const items = z.array(z.unknown()).nullish();

/** The envelope's `data`: paging fields and the raw items (each read on its own). */
export const sparkJobListDataSchema = z.object({
  total: numeric.nullish(),
  ...pageDataFields,
  items,
  jobs: items,
  records: items,
});

type SparkJobListData = z.infer<typeof sparkJobListDataSchema>;

/**
 * Maps `data` to a page. Items without a usable status or job ID are left out; a listed item
 * without `clusterId` belongs to the cluster asked about; an item without `projectId` keeps
 * an empty project (nothing better is known).
 */
export function normalizeSparkJobList(data: SparkJobListData, args: ListSparkJobsArgs): SparkJobPage {
  const raw = data.items ?? data.jobs ?? data.records ?? [];
  const jobs: SparkJob[] = [];
  for (const item of raw) {
    const parsed = sparkJobDataSchema.safeParse(item, FIRST_ISSUE);
    if (!parsed.success || parsed.data.jobId == null || parsed.data.jobId === "") continue;
    const job = normalizeSparkJob(parsed.data, { projectId: "", jobId: parsed.data.jobId });
    jobs.push({
      ...job,
      clusterId: idOrAsked(job.clusterId, args.clusterId),
    });
  }
  return { ...pageInfoOf(data, raw.length, data.total ?? data.count ?? null), jobs };
}

/** List Spark Jobs (v2), one cluster's jobs. */
export const listSparkJobsEndpoint = defineEndpoint("GET /v2/jobs", {
  scope: "cluster",
  paging: PAGES("total or count"),
  planOrder: 5,
}).as<ListSparkJobsArgs, SparkJobListData, SparkJobPage>({
  request: (args) => ({
    target: V2,
    query: {
      type: "SPARK",
      clusterId: args.clusterId,
      ...pageQuery(args),
    },
  }),
  schema: sparkJobListDataSchema,
  normalize: normalizeSparkJobList,
});
