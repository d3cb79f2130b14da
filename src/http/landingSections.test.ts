import { describe, expect, it } from "vitest";
import { type LandingQuery, NO_FILTER, parseLandingQuery } from "./landingQuery.js";
import { byTarget, type TargetRow } from "./landingRows.js";
import {
  FAILING_ROWS,
  PAGE_ROWS,
  renderFailing,
  renderSummary,
  renderTargets,
  tallies,
} from "./landingSections.js";
import { landingAtScale, listedTargets, NOW, tableCells, targetRow } from "./landingTestkit.js";

const timeout = { code: "timeout", message: "no answer within 10000 ms" };

/** Two collectors with a target in every state. */
const ROWS: readonly TargetRow[] = [
  targetRow("cluster_metrics", "in01-a", { lastPollSeconds: 0.5 }),
  targetRow("cluster_metrics", "in01-b", {
    up: false,
    lastSuccessMs: null,
    consecutiveFailures: 3,
    lastError: timeout,
    lastPollSeconds: 2,
  }),
  targetRow("cluster_metrics", "in01-c", { up: null, lastSuccessMs: null }),
  targetRow("cluster_metrics", "in01-d", {
    partialError: { code: "http_error", message: "1 call(s) failed" },
    lastPollSeconds: 1,
  }),
  targetRow("backups", "in01-a", { notPermitted: "team-b", lastPollSeconds: 0.1 }),
  targetRow("backups", "in01-b", { planRefusedAtMs: NOW - 60_000, lastPollSeconds: 0.2 }),
];

const SUMMARY = tallies(ROWS);

describe("the summary per collector", () => {
  it("counts every state and the last cycle's slowest and mean poll, per collector and in all", () => {
    expect(tableCells(renderSummary(SUMMARY), "collectors")).toEqual([
      // collector, targets, up, failing, not permitted, refused for the plan, partly failed, pending, slowest, mean
      ["backups", "2", "2", "0", "1", "1", "0", "0", "0.20 s", "0.15 s"],
      ["cluster_metrics", "4", "2", "1", "0", "0", "1", "1", "2.00 s", "1.17 s"],
      ["all collectors", "6", "4", "1", "1", "1", "1", "1", "2.00 s", "0.76 s"],
    ]);
  });

  it("leaves the durations empty before any poll ended", () => {
    const cells = tableCells(renderSummary(tallies([targetRow("jobs", "j", { up: null })])), "collectors");
    expect(cells[0]?.slice(-2)).toEqual(["", ""]);
  });

  it("links each count to exactly the rows it counts, at scale", () => {
    const info = landingAtScale({ clusters: 300, scopesPerCluster: 2, failEvery: 37 });
    const html = renderSummary(tallies(info.targets));
    const links = [...html.matchAll(/<a href="([^"]*)">(\d+)<\/a>/g)];
    expect(links.length).toBeGreaterThan(40);
    for (const [, href = "", n = ""] of links) {
      const query = parseLandingQuery(`/${href.replaceAll("&#38;", "&")}`);
      const table = renderTargets(info.targets, query, [], info.nowMs);
      expect(table, href).toMatch(new RegExp(`Rows 1&ndash;\\d+ of ${n} `));
    }
  });
});

describe("the failing targets", () => {
  it("lists only the failing ones, with their last error, counted by error code", () => {
    const html = renderFailing(ROWS, NOW);
    expect(html).toContain("Failing targets (1)");
    expect(tableCells(html, "failing-targets")).toEqual([
      ["cluster_metrics", "in01-b", "failing", "never", "2.00 s", "3", "timeout: no answer within 10000 ms"],
    ]);
    expect(html).toContain('<a href="?state=failing&#38;q=timeout#targets">timeout</a> 1');
  });

  it("says so when none fails", () => {
    expect(renderFailing([targetRow("jobs", "j")], NOW)).toContain("Failing targets (0)</h2>\n<p>None");
  });

  it(`shows the first ${FAILING_ROWS} and links to every one of them`, () => {
    const info = landingAtScale({ clusters: 100, scopesPerCluster: 0, failEvery: 3 });
    const failing = info.targets.filter((t) => t.up === false).length;
    const html = renderFailing(info.targets, info.nowMs);
    expect(tableCells(html, "failing-targets")).toHaveLength(FAILING_ROWS);
    expect(html).toContain(
      `The first ${FAILING_ROWS} of ${failing}: <a href="?state=failing#targets">every failing target</a>`,
    );
    // The most frequent code first.
    expect(html).toMatch(/By error: <a [^>]*>server_error<\/a> \d+ &middot; <a [^>]*>timeout<\/a>/);
  });
});

describe("the target table", () => {
  const table = (query: Partial<LandingQuery>, rows = ROWS) =>
    renderTargets(rows, { ...NO_FILTER, ...query }, ["backups", "cluster_metrics"], NOW);

  it.each<{ name: string; query: Partial<LandingQuery>; want: string[] }>([
    {
      name: "everything, failing first, then pending, then by collector and target",
      query: {},
      want: [
        "cluster_metrics in01-b",
        "cluster_metrics in01-c",
        "backups in01-a",
        "backups in01-b",
        "cluster_metrics in01-a",
        "cluster_metrics in01-d",
      ],
    },
    { name: "one collector", query: { collector: "backups" }, want: ["backups in01-a", "backups in01-b"] },
    { name: "an unknown collector", query: { collector: "nope" }, want: [] },
    { name: "failing", query: { state: "failing" }, want: ["cluster_metrics in01-b"] },
    { name: "pending", query: { state: "pending" }, want: ["cluster_metrics in01-c"] },
    {
      name: "up, the not permitted and refused included",
      query: { state: "up" },
      want: ["backups in01-a", "backups in01-b", "cluster_metrics in01-a", "cluster_metrics in01-d"],
    },
    { name: "not permitted", query: { state: "not_permitted" }, want: ["backups in01-a"] },
    { name: "refused for the plan", query: { state: "plan_refused" }, want: ["backups in01-b"] },
    { name: "partly failed", query: { state: "partial" }, want: ["cluster_metrics in01-d"] },
    { name: "collector and state", query: { collector: "backups", state: "failing" }, want: [] },
    { name: "text in the target", query: { q: "in01-d" }, want: ["cluster_metrics in01-d"] },
    { name: "text in the error, any case", query: { q: "TIMEOUT" }, want: ["cluster_metrics in01-b"] },
    { name: "text in a note", query: { q: "team-b" }, want: ["backups in01-a"] },
  ])("filters: $name", ({ query, want }) => {
    const html = table(query);
    expect(listedTargets(html, "target-table")).toEqual(want);
    if (want.length === 0) expect(html).toContain("No target matches.");
  });

  const many = landingAtScale({ clusters: 100, scopesPerCluster: 2, failEvery: 0 }).targets;
  const names = (html: string) => listedTargets(html, "target-table");

  const pages = Math.ceil(many.length / PAGE_ROWS);

  it.each([
    { page: 1, first: 1, last: PAGE_ROWS },
    { page: 2, first: PAGE_ROWS + 1, last: 2 * PAGE_ROWS },
    { page: pages, first: (pages - 1) * PAGE_ROWS + 1, last: many.length },
    { page: pages + 50, first: (pages - 1) * PAGE_ROWS + 1, last: many.length },
  ])("pages: page $page shows rows $first to $last", ({ page, first, last }) => {
    const html = table({ page }, many);
    expect(html).toContain(`Rows ${first}&ndash;${last} of ${many.length} `);
    expect(names(html)).toHaveLength(last - first + 1);
  });

  it("pages through every row once, in order", () => {
    const seen = Array.from({ length: pages }, (_, i) => names(table({ page: i + 1 }, many))).flat();
    expect(seen).toHaveLength(many.length);
    expect(new Set(seen).size).toBe(many.length);
    expect(names(table({ page: 3 }, many))[0]).toBe(seen[2 * PAGE_ROWS]);
  });

  it("keeps the filter in its page links and its form", () => {
    const html = table({ collector: "cluster_metrics", q: "in01", page: 2 }, many);
    expect(html).toContain('<a href="?collector=cluster_metrics&#38;q=in01&#38;page=3#targets">next</a>');
    expect(html).toContain('<a href="?collector=cluster_metrics&#38;q=in01#targets">first</a>');
    expect(html).toContain('<option value="cluster_metrics" selected>');
    expect(html).toContain('<input name="q" value="in01"');
    expect(html).toContain('<form method="get" action="#targets">');
  });

  it("orders rows handed in by target as it orders rows in any order", () => {
    const sorted = [...many].sort(byTarget);
    const shuffled = [...many].reverse();
    for (const page of [1, 2, pages]) {
      const inOrder = names(table({ page }, sorted));
      expect(inOrder).toEqual(names(table({ page }, shuffled)));
      expect(inOrder).toEqual(names(table({ page }, many)));
    }
    // And failing first either way.
    const failing = { ...sorted[500], up: false } as TargetRow;
    const withFailing = [...sorted.slice(0, 500), failing, ...sorted.slice(501)];
    expect(names(table({}, withFailing))[0]).toBe(`${failing.collector} ${failing.target}`);
    expect(names(table({}, withFailing.reverse()))[0]).toBe(`${failing.collector} ${failing.target}`);
  });

  it("links no page that does not exist", () => {
    const html = table({}, ROWS);
    expect(html).not.toContain("page=");
    expect(html).toContain("first &middot; previous &middot; page 1 of 1 &middot; next &middot; last");
  });
});
