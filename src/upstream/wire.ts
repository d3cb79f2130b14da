/**
 * Zod building blocks for the tolerant reader: values the upstream documents with one type
 * but shows with another (numbers as strings, timestamps as strings or epoch numbers).
 * Objects built from these are non-strict: unknown fields are accepted (and dropped).
 */
import { z } from "zod";
import { parseTimestamp } from "./iso.js";
import type { PageInfo } from "./pageTypes.js";

const NUMERIC_STRING = /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/;

/**
 * The parse context of every validation of an upstream answer: zod's own abort-early mode (what
 * its `validate` uses), so an array stops at its first failing element and an object at its
 * first failing field. Without it a parse builds one issue per bad element, seconds of CPU and
 * hundreds of MB for an error shown as one line (docs/performance.md). The public ParseContext
 * type does not name the option.
 */
export const FIRST_ISSUE = { abortEarly: true } as z.core.ParseContext<z.core.$ZodIssue>;

/** A number, or a string holding one: yields a number. */
export const numeric = z.union([
  z.number(),
  z.string().regex(NUMERIC_STRING, { message: "expected a number or a numeric string" }).transform(Number),
]);

/** `numeric`, or null/absent: yields number | null. */
export const nullableNumeric = numeric.nullish().transform((v) => v ?? null);

/** A string, or null/absent: yields string | null. */
export const nullableString = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

/** A scalar the upstream may send as a number where a string is documented: yields a string. */
export const stringish = z.union([z.string(), z.number().transform(String)]);

/** An ISO 8601 string or epoch number (seconds or ms): yields epoch milliseconds. */
export const timestampMs = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const ms = parseTimestamp(value);
  if (ms === undefined) {
    ctx.addIssue({ code: "custom", message: "expected an ISO 8601 timestamp or epoch number" });
    return z.NEVER;
  }
  return ms;
});

const UNIT_SECONDS: Readonly<Record<string, number>> = { h: 3600, m: 60, s: 1 };
/** "1h30m", "5m", "90s", "0.5h": a Go-style duration, as the console's examples write them. */
const GO_DURATION = /^(?:\d+(?:\.\d+)?[hms])+$/;

/**
 * A span of time in seconds from what the upstream sends for it: a number or a numeric string
 * in `unitSeconds` (the documented form: minutes for an alert rule's window, seconds for an
 * auto-suspend timeout), or a duration with units ("5m", "1h30m", as the console's examples
 * send). Negative or unreadable values are rejected (wrap it in `lenient` to read them as null).
 */
export function secondsIn(unitSeconds: number) {
  return z.union([z.number(), z.string()]).transform((value, ctx) => {
    const text = typeof value === "number" ? "" : value.trim().toLowerCase();
    let seconds: number | undefined;
    if (typeof value === "number") seconds = value * unitSeconds;
    else if (NUMERIC_STRING.test(text)) seconds = Number(text) * unitSeconds;
    else if (GO_DURATION.test(text)) {
      seconds = 0;
      for (const m of text.matchAll(/(\d+(?:\.\d+)?)([hms])/g)) {
        seconds += Number(m[1]) * (UNIT_SECONDS[m[2] as string] ?? Number.NaN);
      }
    }
    if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) {
      ctx.addIssue({ code: "custom", message: "expected a non-negative duration" });
      return z.NEVER;
    }
    return seconds;
  });
}

/**
 * A one-line summary of the first few validation issues with their paths, e.g.
 * `data.results[0].unit: Invalid input: expected string, received number`. Zod messages name
 * types, never the offending values, so no body content leaks into logs.
 */
export function summarizeIssues(error: z.ZodError, prefix: string, max = 3): string {
  const parts = error.issues.slice(0, max).map((issue) => {
    let path = prefix;
    for (const key of issue.path) {
      path += typeof key === "number" ? `[${key}]` : `.${String(key)}`;
    }
    return `${path}: ${issue.message}`;
  });
  const more = error.issues.length > max ? ` (+${error.issues.length - max} more)` : "";
  return `${parts.join("; ")}${more}`;
}

/** The paging fields of one listing answer, as read (absent when the answer left them out). */
interface PageData {
  readonly count?: number | null | undefined;
  readonly currentPage?: number | null | undefined;
  readonly pageSize?: number | null | undefined;
}

/**
 * What a page says of its listing (PageInfo): its fields as the answer gave them, null where it
 * left them out; `total` is `count` unless the caller read it from elsewhere (List Spark Jobs'
 * `total`). `listed` is how many items the page carried.
 */
export function pageInfoOf(data: PageData, listed: number, total = data.count ?? null): PageInfo {
  return { total, currentPage: data.currentPage ?? null, pageSize: data.pageSize ?? null, listed };
}

/**
 * The paging fields of a listing answer's schema (spread into its z.object): each a number or a
 * numeric string, or absent. Read back through pageInfoOf().
 */
export const pageDataFields = {
  count: numeric.nullish(),
  currentPage: numeric.nullish(),
  pageSize: numeric.nullish(),
};

/**
 * The schema of a listing answer's `data` that holds its page's items under `key`: the paging
 * fields (pageDataFields) and a list of `item`, which may be absent or null (read as an empty
 * page by the normalizer).
 */
export function pageDataSchema<Key extends string, Item extends z.ZodType>(key: Key, item: Item) {
  // A computed key types as an index signature: the cast gives the object its one known key.
  const items = { [key]: z.array(item).nullish() } as Record<
    Key,
    z.ZodOptional<z.ZodNullable<z.ZodArray<Item>>>
  >;
  return z.object({ ...pageDataFields, ...items });
}

/** The query string fields that ask for one page of a listing. */
export function pageQuery(asked: { readonly currentPage: number; readonly pageSize: number }): {
  pageSize: string;
  currentPage: string;
} {
  return { pageSize: String(asked.pageSize), currentPage: String(asked.currentPage) };
}
