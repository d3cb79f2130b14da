import { describe, expect, it } from "vitest";
import { renderLanding } from "./landing.js";
import { parseLandingQuery } from "./landingQuery.js";
import type { TargetRow } from "./landingRows.js";
import { landingAtScale, landingOf, listedTargets, NOW, tableCells, targetRow } from "./landingTestkit.js";

function page(target: Partial<TargetRow>): string {
  return renderLanding(landingOf([targetRow("backups", "in01-a", { lastSuccessMs: NOW, ...target })]));
}

describe("the landing page's note on a target", () => {
  it.each([
    {
      name: "a failure",
      row: { up: false, lastError: { code: "paging_error", message: "GET /v2/backups: repeated" } },
      want: "paging_error: GET /v2/backups: repeated",
    },
    {
      name: "a missing permission",
      row: { notPermitted: "default" },
      want: "not permitted: credential default lacks",
    },
    {
      name: "a plan refusal",
      row: { planRefusedAtMs: NOW - 60_000 },
      want: "refused for the cluster&#39;s plan 60s ago",
    },
    {
      name: "calls that failed in a complete poll",
      row: { partialError: { code: "timeout", message: "1 call(s) failed: no answer" } },
      want: "partly: timeout: 1 call(s) failed: no answer",
    },
    {
      name: "a poll that asked nothing on purpose",
      row: { skipped: "served by the service's own Prometheus endpoint" },
      want: "not asked: served by the service&#39;s own Prometheus endpoint",
    },
    { name: "nothing", row: {}, want: "<td>0</td><td></td></tr>" },
  ])("$name", ({ row, want }) => {
    expect(page(row)).toContain(want);
  });
});

describe("the landing page at 1,000 clusters", () => {
  const KB = 1024;

  it.each([
    { name: "8 collectors and 2 collection scopes a cluster, 1% failing", scopes: 2, failEvery: 100 },
    { name: "10 collection scopes a cluster", scopes: 10, failEvery: 100 },
    { name: "every target failing, with long errors", scopes: 2, failEvery: 1, messageChars: 1000 },
  ])("stays under 200 KB with $name, whatever the query", ({ scopes, failEvery, messageChars = 60 }) => {
    const info = landingAtScale({ clusters: 1000, scopesPerCluster: scopes, failEvery, messageChars });
    expect(info.targets.length).toBeGreaterThanOrEqual(10_000);
    for (const url of ["/", "/?state=failing", "/?collector=cluster_metrics&page=25", "/?q=in01&page=9999"]) {
      const html = renderLanding(info, parseLandingQuery(url));
      expect(Buffer.byteLength(html), url).toBeLessThan(200 * KB);
      expect(listedTargets(html, "target-table").length, url).toBeGreaterThan(0);
    }
  });

  it("opens with the summary, then the failing targets, then the table with failing first", () => {
    const html = renderLanding(landingAtScale({ clusters: 1000, scopesPerCluster: 2, failEvery: 100 }));
    const at = ["<h1>", '<a href="metrics">', 'id="summary"', 'id="failing"', 'id="targets"'].map((s) =>
      html.indexOf(s),
    );
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    const states = tableCells(html, "target-table").map((cells) => cells[2]);
    expect(states.slice(0, 3)).toEqual(["failing", "failing", "failing"]);
    expect(tableCells(html, "failing-targets").every((cells) => cells[2] === "failing")).toBe(true);
  });
});

describe("the landing page escapes everything it is handed", () => {
  const evil = `<script>alert("x")</script>&'`;
  const info = landingOf(
    [
      targetRow(evil, evil, {
        up: false,
        lastSuccessMs: null,
        consecutiveFailures: 1,
        lastError: { code: evil, message: evil },
      }),
      targetRow("backups", "in01-a", { notPermitted: evil }),
    ],
    {
      version: evil,
      runtime: { control: evil, relaunched: false, settings: [{ kind: evil, setting: evil, from: evil }] },
      budgets: [{ credential: evil, endpoints: evil, perSecond: 20 / 3, why: evil }],
    },
  );

  it.each([
    "/",
    `/?collector=${encodeURIComponent(evil)}`,
    `/?q=${encodeURIComponent(`"><script>alert(1)</script>`)}&state=failing`,
    `/?q=${encodeURIComponent(evil)}`,
  ])("%s", (url) => {
    const html = renderLanding(info, parseLandingQuery(url));
    // Every script-like text is escaped, so no tag or attribute is broken out of.
    expect(html).not.toMatch(/<script|alert\("x"\)|<\/script>/i);
    expect(html).toContain("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#38;&#39;");
  });

  it("shows the rate budget when given, a rate to two decimals", () => {
    const cells = tableCells(renderLanding(info), "budget");
    expect(cells).toHaveLength(1);
    expect(cells[0]?.[2]).toBe("6.67");
    const { budgets: _, ...without } = info;
    expect(renderLanding(without)).not.toContain("Rate budget");
  });
});
