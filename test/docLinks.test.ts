/**
 * Every relative link and #anchor of README.md and docs/*.md resolves, as GitHub renders them,
 * and every page of docs/ is reachable from the README.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anchorOf } from "../scripts/metricsDoc.js";
import { brokenLinks, docPages, headingAnchors, markdownLinks } from "./helpers/markdown.js";

const ROOT = join(import.meta.dirname, "..");
const PAGES = docPages(ROOT);
const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");

describe("links of README.md and docs/*.md", () => {
  it("resolve: every relative file exists and every #anchor is a heading of its page", () => {
    const pages = new Map(PAGES.map((p) => [p, read(p)]));
    expect(PAGES.length).toBeGreaterThan(8);
    expect(brokenLinks(pages, (p) => existsSync(join(ROOT, p)), read)).toEqual([]);
  });

  it("reach every page of docs/ from the README", () => {
    const linked = new Set(markdownLinks(read("README.md")).map((l) => l.target.split("#")[0]));
    expect(PAGES.filter((p) => p !== "README.md" && !linked.has(p))).toEqual([]);
  });
});

describe("the link check", () => {
  it.each([
    ["The API key's roles", "the-api-keys-roles"],
    ["8. The code as it is", "8-the-code-as-it-is"],
    ["vdbcloud_cu_computation_ratio", "vdbcloud_cu_computation_ratio"],
    ["Metrics & alerts", "metrics--alerts"],
    ["  Reload  ", "reload"],
  ])("anchors %j as %j", (heading, anchor) => {
    expect(anchorOf(heading)).toBe(anchor);
  });

  it("numbers repeated headings and reads headings' text without code marks or link targets", () => {
    expect([...headingAnchors("# A\n## A\n### `b_c`\n## [D](x.md)\n```\n# not a heading\n```\n")]).toEqual([
      "a",
      "a-1",
      "b_c",
      "d",
    ]);
  });

  const exists = (p: string): boolean => ["a.md", "docs/b.md", "docs/c.txt"].includes(p);
  it.each([
    {
      case: "a missing file",
      text: "[x](docs/missing.md)",
      broken: ["a.md:1 docs/missing.md: no such file"],
    },
    { case: "a missing anchor", text: "# Top\n[x](#nowhere)", broken: ["a.md:2 #nowhere: no such anchor"] },
    { case: "an anchor of another page", text: "[x](docs/b.md#two)", broken: [] },
    {
      case: "a wrong anchor of another page",
      text: "[x](docs/b.md#three)",
      broken: ["a.md:1 docs/b.md#three: no such anchor"],
    },
    { case: "a path out of the repository", text: "[x](../b.md)", broken: ["a.md:1 ../b.md: no such file"] },
    {
      case: "an anchor into a text file",
      text: "[x](docs/c.txt#a)",
      broken: ["a.md:1 docs/c.txt#a: an anchor into a file that is not Markdown"],
    },
    {
      case: "an absolute URL, a code span and a code block",
      text: "[x](https://e.org/#y) `[x](nope.md)`\n```\n[x](nope.md)\n```",
      broken: [],
    },
  ])("finds $case", ({ text, broken }) => {
    const pages = new Map([
      ["a.md", text],
      ["docs/b.md", "# One\n## Two\n"],
    ]);
    expect(brokenLinks(pages, exists, () => "")).toEqual(broken);
  });
});
