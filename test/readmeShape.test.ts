/**
 * The README stays the front door the documentation issue asked for: short, the two commands
 * first, the sections a new user looks for, and everything else linked into docs/.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readmeCommands } from "./readmeCommands.js";

const README = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");
const headings = [...README.matchAll(/^## (.+)$/gm)].map((m) => m[1] as string);

describe("README.md", () => {
  it("is at most 400 lines", () => {
    expect(README.trimEnd().split("\n").length).toBeLessThanOrEqual(400);
  });

  it("has the two commands in its first code block", () => {
    const first = /```\w*\n([\s\S]*?)```/.exec(README)?.[1] ?? "";
    expect(first).toMatch(/^npm ci && npm run demo\b/m);
    expect(first).toMatch(/^npm test\b/m);
  });

  it.each([
    [/real service/i, /--probe/],
    [/config/i, /```yaml\n[\s\S]*clusters:/],
    [/exposes/i, /\]\(docs\/metrics\.md#/],
    [/kubernetes/i, /kubectl apply -k/],
    [/documentation/i, /\]\(docs\/operations\.md\)/],
  ])("has a section %s saying %s", (heading, says) => {
    const title = headings.find((h) => heading.test(h));
    expect(title, `a section matching ${heading}`).toBeDefined();
    const start = README.indexOf(`## ${title}`);
    const next = README.indexOf("\n## ", start + 3);
    expect(README.slice(start, next < 0 ? undefined : next)).toMatch(says);
  });

  it("shows Kubernetes in three commands", () => {
    const start = README.indexOf("## Kubernetes");
    const section = README.slice(start, README.indexOf("\n## ", start + 3));
    expect(readmeCommands(section).map((c) => c.command)).toHaveLength(3);
  });
});
