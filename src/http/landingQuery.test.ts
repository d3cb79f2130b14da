import { describe, expect, it } from "vitest";
import { hrefOf, NO_FILTER, parseLandingQuery } from "./landingQuery.js";

describe("parseLandingQuery", () => {
  it.each([
    { url: "/", want: NO_FILTER },
    { url: "/?", want: NO_FILTER },
    { url: "/?collector=&state=&q=", want: NO_FILTER },
    {
      url: "/?collector=backups&state=failing&q=in01-&page=3",
      want: { collector: "backups", state: "failing", q: "in01-", page: 3 },
    },
    { url: "/?state=not_permitted", want: { ...NO_FILTER, state: "not_permitted" } },
    { url: "/?collector=jobs#targets", want: { ...NO_FILTER, collector: "jobs" } },
    { url: "/?state=broken", want: NO_FILTER },
    { url: "/?state=FAILING", want: NO_FILTER },
    { url: "/?q=%20Timeout%20", want: { ...NO_FILTER, q: "Timeout" } },
    { url: "/?q=a+b", want: { ...NO_FILTER, q: "a b" } },
    ...["0", "-1", "2.5", "abc", "1e400", "99999999999999999999"].map((page) => ({
      url: `/?page=${page}`,
      want: NO_FILTER,
    })),
    { url: "/?page=12", want: { ...NO_FILTER, page: 12 } },
    { url: `/?q=${"x".repeat(500)}`, want: { ...NO_FILTER, q: "x".repeat(128) } },
    { url: `/?collector=${"c".repeat(500)}`, want: { ...NO_FILTER, collector: "c".repeat(128) } },
    { url: "/?collector=a&collector=b", want: { ...NO_FILTER, collector: "a" } },
  ])("$url", ({ url, want }) => {
    expect(parseLandingQuery(url)).toEqual(want);
  });
});

describe("hrefOf", () => {
  it.each([
    { query: {}, want: "?#targets" },
    { query: { page: 1 }, want: "?#targets" },
    {
      query: { collector: "backups", state: "failing" as const },
      want: "?collector=backups&#38;state=failing#targets",
    },
    { query: { q: 'a "b" <c>&d', page: 2 }, want: "?q=a+%22b%22+%3Cc%3E%26d&#38;page=2#targets" },
  ])("$want", ({ query, want }) => {
    expect(hrefOf(query)).toBe(want);
  });

  it("parses back to the query it was made of", () => {
    const query = { collector: "cluster_metrics", state: "partial" as const, q: "é & <x>", page: 7 };
    const href = hrefOf(query).replaceAll("&#38;", "&");
    expect(parseLandingQuery(`/${href.slice(0, href.indexOf("#"))}`)).toEqual(query);
  });
});
