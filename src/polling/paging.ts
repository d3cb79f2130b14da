/**
 * Reading every page of a job listing (List Import Jobs V2 and v1, List Spark Jobs), following
 * the server rather than trusting it: the page size it reports (nextPageSize, which List Group
 * Members' count by pages follows too), the total only while it is credible, and a hard stop
 * for a server that keeps inventing jobs.
 */

/**
 * Hard stop for paging, so an upstream that keeps inventing job IDs cannot keep a poll going
 * forever; far above any real listing (1,000 pages of at least 5 jobs).
 */
export const MAX_LISTING_PAGES = 1000;

/** What one page of a job listing says: its jobs, its total (null when absent), its page size. */
interface JobListingPage<J extends { readonly jobId: string }> {
  readonly jobs: readonly J[];
  readonly total: number | null;
  readonly pageSize: number;
}

/** Asks one page of a job listing. */
type JobPageFetch<J extends { readonly jobId: string }> = (
  page: { readonly pageSize: number; readonly currentPage: number },
  signal?: AbortSignal,
) => Promise<JobListingPage<J>>;

/**
 * The page size to ask for after `page`: the size the server says it used (it may cap the one
 * asked for), so that page N+1 starts right after page N. A reported size that is not an
 * integer from 1 to the one asked for is ignored.
 */
export function nextPageSize(asked: number, page: { readonly pageSize: number }): number {
  const reported = page.pageSize;
  return Number.isSafeInteger(reported) && reported >= 1 && reported <= asked ? reported : asked;
}

/**
 * Reads every page through `fetchPage`, first at `pageSize`, then at the page size the server
 * reported; jobs are de-duplicated by ID, the first seen kept, and the listing ends when
 * - a page brings no job ID not seen before (an empty page, or a server that ignores
 *   `currentPage` and repeats itself), or
 * - every job counted in `total` is listed, while `total` is credible (at least the number of
 *   distinct jobs seen so far), or
 * - `total` is absent or not credible (it was only the page's length, or it lies low) and the
 *   page is shorter than the page size the server reported, or
 * - MAX_LISTING_PAGES pages were read.
 * With an honest total this makes exactly as many calls as there are pages; a total that lies
 * high, or none with a full last page, costs one more call, which comes back empty.
 */
export async function listEveryJobPage<J extends { readonly jobId: string }>(
  fetchPage: JobPageFetch<J>,
  pageSize: number,
  signal?: AbortSignal,
): Promise<J[]> {
  const seen = new Map<string, J>();
  let size = pageSize;
  for (let currentPage = 1; currentPage <= MAX_LISTING_PAGES; currentPage++) {
    const page = await fetchPage({ pageSize: size, currentPage }, signal);
    const before = seen.size;
    for (const job of page.jobs) if (!seen.has(job.jobId)) seen.set(job.jobId, job);
    if (seen.size === before) break;
    size = nextPageSize(size, page);
    const total = page.total;
    const credible = total !== null && total >= seen.size;
    if (credible ? seen.size >= total : page.jobs.length < size) break;
  }
  return [...seen.values()];
}
