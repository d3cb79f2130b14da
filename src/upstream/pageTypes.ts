/**
 * The paging vocabulary every listing shares (re-exported by types.ts): what a page says of its
 * listing, the documented page size bound, and why a listing's pages may not add up.
 */
/**
 * What one page of a listing says of the listing: each field as the answer gave it, null where
 * it left it out (never filled in from the request: the pager must tell an answer that says it
 * is page 1 from one that says nothing). `listed` is how many items the page carried, those the
 * reader skipped as unusable included.
 */
export interface PageInfo {
  /** The listing's total (`count`, or `total`), null when absent. */
  readonly total: number | null;
  readonly currentPage: number | null;
  readonly pageSize: number | null;
  readonly listed: number;
}

/** The largest page size every documented control-plane listing accepts (1..100; 96008 otherwise). */
export const PAGE_SIZE_MAX = 100;

/**
 * Why a listing's pages could not be trusted: label values of vdbcloud_api_paging_errors_total.
 * `long_page`: a page held more items than asked for (found before any item is read);
 * `shrinking_total`: a later page reported a smaller total than an earlier one.
 */
export const PAGING_ERROR_REASONS = [
  "repeated_page",
  "empty_page",
  "page_cap",
  "short_of_total",
  "long_page",
  "shrinking_total",
] as const;
export type PagingErrorReason = (typeof PAGING_ERROR_REASONS)[number];
