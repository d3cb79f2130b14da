/**
 * Reading an answer's `data` at a cost bounded by what the request asked for, not by what the
 * server sent. Three rules, each cheaper than what it prevents:
 * - a listing's items are counted before any is read: a paged listing's page holds at most the
 *   page size asked (more is a paging error), a listing without paging at most its `maxItems`;
 * - validation stops at the first issue of a failing branch: a zod parse otherwise builds one
 *   issue per bad element, a cost out of all proportion to an error shown as one line;
 * - a long array answer is validated element by element, in slices, asking for the event
 *   loop's turn (shared/foreground.ts) between slices, so a scrape never waits behind it.
 */
import { z } from "zod";
import { DEFAULT_MAX_ITEMS, type EndpointDef } from "./endpoints/define.js";
import { CloudError } from "./errors.js";
import { PagingError } from "./pagingError.js";
import type { EndpointTemplate } from "./types.js";
import { FIRST_ISSUE, summarizeIssues } from "./wire.js";

/** Elements validated between two turns of the event loop. */
export const VALIDATION_SLICE = 500;

/** The page size a paged listing's arguments asked for; undefined for a call without paging. */
export function pageSizeAsked(args: unknown): number | undefined {
  if (typeof args !== "object" || args === null) return undefined;
  const size = (args as { pageSize?: unknown }).pageSize;
  return typeof size === "number" && Number.isSafeInteger(size) && size > 0 ? size : undefined;
}

/**
 * How many items the answer's listing holds, counted without reading them: the length of `data`
 * when it is an array, else of its longest array field (the items of a page object: `clusters`,
 * `records`, `items`, ...), else 0.
 */
export function itemsOf(data: unknown): number {
  if (Array.isArray(data)) return data.length;
  if (typeof data !== "object" || data === null) return 0;
  let longest = 0;
  for (const value of Object.values(data)) {
    if (Array.isArray(value) && value.length > longest) longest = value.length;
  }
  return longest;
}

/**
 * Throws when the answer holds more items than the call may read: a PagingError (`long_page`)
 * for a paged listing, a schema error for any other answer. Nothing of the answer is read yet.
 */
export function checkItemCount<A, D, R>(
  def: EndpointDef<A, D, R, EndpointTemplate>,
  args: A,
  data: unknown,
  status: number,
): void {
  const listed = itemsOf(data);
  const asked = pageSizeAsked(args);
  if (asked !== undefined) {
    if (listed > asked) {
      throw new PagingError(def.endpoint, "long_page", `a page of ${asked} asked for held ${listed} items`);
    }
    return;
  }
  const max = def.maxItems ?? DEFAULT_MAX_ITEMS;
  if (listed > max) {
    throw new CloudError(
      "schema_error",
      `${def.endpoint}: ${listed} items, more than the ${max} it may hold`,
      {
        endpoint: def.endpoint,
        httpStatus: status,
      },
    );
  }
}

/** The outcome of {@link validateData}: the parsed data, or a one-line summary of the first issues. */
type Validated<D> =
  | { readonly ok: true; readonly data: D }
  | { readonly ok: false; readonly summary: string };

/**
 * Validates `data` with `schema`, stopping at the first issue of each failing branch. An array
 * schema given more than VALIDATION_SLICE elements is run element by element, awaiting `turn`
 * between slices (undefined: go on at once) and stopping at the first bad element.
 */
export async function validateData<D>(
  schema: z.ZodType<D>,
  data: unknown,
  turn?: () => Promise<void> | undefined,
): Promise<Validated<D>> {
  // An array schema with checks of its own (min, max, refine) is validated whole: they see the array.
  if (
    schema instanceof z.ZodArray &&
    (schema.def.checks ?? []).length === 0 &&
    Array.isArray(data) &&
    data.length > VALIDATION_SLICE
  ) {
    const element = schema.element as z.ZodType;
    const out: unknown[] = new Array(data.length);
    for (let i = 0; i < data.length; i++) {
      if (i > 0 && i % VALIDATION_SLICE === 0) await turn?.();
      const parsed = element.safeParse(data[i], FIRST_ISSUE);
      if (!parsed.success) return { ok: false, summary: summarizeIssues(parsed.error, `data[${i}]`) };
      out[i] = parsed.data;
    }
    return { ok: true, data: out as D };
  }
  const parsed = schema.safeParse(data, FIRST_ISSUE);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, summary: summarizeIssues(parsed.error, "data") };
}
