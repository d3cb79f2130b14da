/**
 * What the tests of the control plane's paged listings share: the page a listing's reader
 * returns, the refusals a console listing meets, the paging fields each normalizer reads, and the
 * runner of a normalizer's table of items. Each test then states only what its listing does
 * differently. Used by tests only; production code never imports this module.
 */
import { expect, it } from "vitest";
import type { CloudClient } from "./client.js";
import type { PageInfo } from "./pageTypes.js";
import { type Refusal, refusalOf } from "./refusals.js";
import { failure, TEST_BASE_URL, testClient, type useMockUpstream } from "./testkit.js";
import type { EndpointTemplate } from "./types.js";

/** A page holding `items` under `key`, beside its paging fields. */
type PageOf<K extends string, T> = PageInfo & { readonly [P in K]: readonly T[] };

/**
 * A page as a listing's reader returns it when it kept every item the answer carried: `paging`
 * as the answer gave it, `listed` as many as `items`, and the items under `key`.
 */
export function pageOf<const K extends string, T>(
  paging: Omit<PageInfo, "listed">,
  key: K,
  items: readonly T[],
): PageOf<K, T> {
  return { ...paging, listed: items.length, [key]: items } as PageOf<K, T>;
}

/**
 * The refusals a console listing meets, as [name, code, message, what the refusal rule reads]:
 * the newer reference pages' failure sample (1800, a refused key), and the error-code list's
 * 96013 (the key's role may not list).
 */
const LISTING_REFUSALS = [
  [
    "1800 User hasn't authenticated (the reference's failure sample)",
    1800,
    "User hasn't authenticated",
    "key_refused",
  ],
  ["96013 owner needed", 96013, "Org owner or project owner is needed", "not_permitted"],
] as const satisfies readonly (readonly [string, number, string, Refusal])[];

/** The part of useMockUpstream()'s handle that answers a request. */
type Upstream = Pick<ReturnType<typeof useMockUpstream>, "get">;

/** One refusal: what the service answers, and what the refusal rule reads of it. */
interface RefusalCase {
  readonly code: number;
  readonly message: string;
  readonly want: Refusal;
}

/**
 * Answers every GET of `path` (any query) with the refusal `{code, message}` under HTTP 200, and
 * asserts that `call` rejects with a CloudError that keeps the code and names `endpoint`, which
 * the refusal rule reads as `want`. No retries: a refusal is final.
 */
export async function expectRefusalKept(
  upstream: Upstream,
  path: string,
  endpoint: EndpointTemplate,
  call: (client: CloudClient) => Promise<unknown>,
  { code, message, want }: RefusalCase,
): Promise<void> {
  upstream
    .get(TEST_BASE_URL)
    .intercept({ method: "GET", path: (p) => p.startsWith(`${path}?`) })
    .reply(200, { code, message });
  const { client } = testClient({ maxRetries: 0 });
  const err = await failure(call(client));
  expect(err.apiCode).toBe(code);
  expect(err.endpoint).toBe(endpoint);
  expect(refusalOf(err)).toBe(want);
}

/**
 * Declares, in the calling describe block, one test per refusal of LISTING_REFUSALS: the listing
 * at `path`, which `call` reads, keeps the refusal's code (expectRefusalKept).
 */
export function itKeepsRefusalCodes(
  upstream: Upstream,
  path: string,
  endpoint: EndpointTemplate,
  call: (client: CloudClient) => Promise<unknown>,
): void {
  it.each(LISTING_REFUSALS)(
    "a refusal, %s, keeps its code for the refusal rule",
    (_name, code, message, want) =>
      expectRefusalKept(upstream, path, endpoint, call, { code, message, want }),
  );
}

/**
 * Asserts that `read` (a listing's schema, then its normalizer) reads a page's paging fields as
 * the answer gives them (a count as text too) and null where it gives none: `listKey` is where
 * the answer lists the items, `itemsKey` where the page holds them, and `absent` an answer
 * without paging (by default one whose list is null).
 */
export function expectPagingFieldsRead<P extends PageInfo>(
  read: (data: unknown) => P,
  listKey: string,
  itemsKey: Exclude<keyof P, keyof PageInfo> & string,
  absent: Readonly<Record<string, unknown>> = { [listKey]: null },
): void {
  const { [itemsKey]: items, ...paging } = read({
    count: "112",
    currentPage: 2,
    pageSize: 100,
    [listKey]: [],
  });
  expect(paging).toEqual({ total: 112, currentPage: 2, pageSize: 100, listed: 0 });
  expect(items).toEqual([]);
  const { [itemsKey]: none, ...bare } = read(absent);
  expect(bare).toEqual({ total: null, currentPage: null, pageSize: null, listed: 0 });
  expect(none).toEqual([]);
}

/** One row of a normalizer's table: an item with `fields` beside its ID reads as `want` says. */
export interface ItemRow<T> {
  readonly name: string;
  readonly fields: Record<string, unknown>;
  readonly want: Partial<T>;
}

/**
 * Declares, in the calling describe block, one test per row named "reads <row name>": `item`,
 * given the row's fields, reads an item that has every field of the row's `want`.
 */
export function itReadsEachItem<T>(
  item: (fields: Record<string, unknown>) => T | undefined,
  rows: readonly ItemRow<NoInfer<T>>[],
): void {
  it.each(rows)("reads $name", ({ fields, want }) => {
    expect(item(fields)).toMatchObject(want);
  });
}
