/**
 * What the link check needs of Markdown, read as GitHub renders it: the headings' anchors and
 * the links outside code, and which relative links or anchors do not resolve.
 */
import { readdirSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { anchorOf } from "../../scripts/metricsDoc.js";

const FENCE = /^\s*(```|~~~)/;

/** The project's documentation pages, relative to `root`: README.md, then docs/*.md by name. */
export function docPages(root: string): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs];
}

/** The lines outside fenced code blocks (fenced lines become empty, so line numbers hold). */
export function proseLines(markdown: string): string[] {
  let inFence = false;
  return markdown.split("\n").map((line) => {
    if (FENCE.test(line)) {
      inFence = !inFence;
      return "";
    }
    return inFence ? "" : line;
  });
}

/** The anchors GitHub gives the headings of a page, a repeated one suffixed -1, -2, ... */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of proseLines(markdown)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    // Link targets and code marks are not part of the heading's text.
    const text = (m[1] as string).replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`/g, "");
    const base = anchorOf(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** A link of a page: its target as written and its line (1-based). */
export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

/** Inline links and images outside code blocks and code spans. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const out: MarkdownLink[] = [];
  proseLines(markdown).forEach((line, i) => {
    const prose = line.replace(/`[^`]*`/g, "");
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      out.push({ target: m[1] as string, line: i + 1 });
    }
  });
  return out;
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The links of `pages` (path relative to the repository -> text) that do not resolve: a relative
 * path that does not exist (`exists` answers for paths relative to the repository), or an
 * #anchor that no heading of the target page has. Absolute URLs are not followed.
 */
export function brokenLinks(
  pages: ReadonlyMap<string, string>,
  exists: (path: string) => boolean,
  read: (path: string) => string,
): string[] {
  const broken: string[] = [];
  for (const [page, text] of pages) {
    for (const link of markdownLinks(text)) {
      if (ABSOLUTE.test(link.target)) continue;
      const hash = link.target.indexOf("#");
      const path = hash < 0 ? link.target : link.target.slice(0, hash);
      const anchor = hash < 0 ? undefined : decodeURIComponent(link.target.slice(hash + 1));
      const target = path === "" ? page : normalize(join(dirname(page), decodeURIComponent(path)));
      const where = `${page}:${link.line} ${link.target}`;
      if (target.startsWith("..") || !exists(target)) {
        broken.push(`${where}: no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!target.endsWith(".md")) {
        broken.push(`${where}: an anchor into a file that is not Markdown`);
        continue;
      }
      if (!headingAnchors(pages.get(target) ?? read(target)).has(anchor))
        broken.push(`${where}: no such anchor`);
    }
  }
  return broken;
}
