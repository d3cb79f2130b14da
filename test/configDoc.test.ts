/**
 * docs/configuration.md lists every key: its generated section is what `npm run generate` writes
 * from the config's JSON Schema and config/example.yaml, every key of the example is in it (read
 * by a real YAML parser, independently of the generator's own reader), and a key the schema
 * accepts cannot be rendered without the example explaining it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isMap, isSeq, type Node, parseDocument } from "yaml";
import {
  CONFIG_DOC_FILE,
  EXAMPLE_FILE,
  exampleKeys,
  renderConfigDoc,
  renderConfigKeys,
  schemaKeys,
} from "../scripts/configDoc.js";
import { configJsonSchema } from "../src/config/jsonSchema.js";

const ROOT = join(import.meta.dirname, "..");
const doc = readFileSync(join(ROOT, CONFIG_DOC_FILE), "utf8");
const example = readFileSync(join(ROOT, EXAMPLE_FILE), "utf8");
const schema = configJsonSchema();

/** Every key path of a YAML node, lists as `[]`. */
function yamlPaths(node: Node | null | undefined, prefix: string): string[] {
  if (isMap(node)) {
    return node.items.flatMap((pair) => {
      const key = String((pair.key as { value: unknown }).value);
      const path = prefix === "" ? key : `${prefix}.${key}`;
      return [path, ...yamlPaths(pair.value as Node, path)];
    });
  }
  if (isSeq(node)) return node.items.flatMap((item) => yamlPaths(item as Node, `${prefix}[]`));
  return [];
}

describe("docs/configuration.md", () => {
  it("holds what `npm run generate` writes", () => {
    expect(doc, "run `npm run generate`").toBe(renderConfigDoc(doc, schema, example));
  });

  it("documents every key of config/example.yaml, as a YAML parser reads it", () => {
    const paths = [...new Set(yamlPaths(parseDocument(example).contents, ""))];
    expect(paths.length).toBeGreaterThan(50);
    expect(paths).toContain("spark_jobs.jobs[].job_id");
    expect(paths.filter((p) => !doc.includes(`| \`${p}\` |`))).toEqual([]);
  });

  it("documents every key the example shows only in a comment, and every key the schema accepts", () => {
    const commented = exampleKeys(example).filter((k) => k.commented);
    expect(commented.map((k) => k.path)).toEqual(
      expect.arrayContaining(["api.api_key", "api.api_key_file", "clusters[].data_plane.token_file"]),
    );
    const all = [...commented.map((k) => k.path), ...schemaKeys(schema).map((k) => k.path)];
    expect(all.filter((p) => !doc.includes(`| \`${p}\` |`))).toEqual([]);
  });

  it("gives each key a type, a default where it has one, and a meaning", () => {
    const row = (path: string): string[] =>
      (doc.split("\n").find((l) => l.startsWith(`| \`${path}\` |`)) ?? "").split(" | ").map((c) => c.trim());
    expect(row("api.rate_limit")).toEqual([
      "| `api.rate_limit`",
      "integer 1..1000",
      "`20`",
      expect.any(String),
    ]);
    expect(row("metrics.interval").slice(1, 3)).toEqual(["duration (ISO 8601)", "granularity"]);
    expect(row("clusters[].id")[2]).toBe("required");
    expect(row("api.api_key_file")[2]).toBe("none");
    expect(row("metrics.queries[].stat")[1]).toBe("one of AVG, P99");
  });
});

describe("the key reference's generator", () => {
  const objectSchema = (properties: Record<string, unknown>) => ({ type: "object", properties });

  it.each([
    {
      case: "a key the example does not show",
      schema: objectSchema({ a: { type: "string" }, b: { type: "integer" } }),
      yaml: "a: x   # the a\n",
      error: /does not show these keys.*: b$/,
    },
    {
      case: "a key the example shows without a comment",
      schema: objectSchema({ a: { type: "string" } }),
      yaml: "a: x\n",
      error: /without a comment: a$/,
    },
  ])("fails on $case", ({ schema: s, yaml, error }) => {
    expect(() => renderConfigKeys(s, yaml)).toThrow(error);
  });

  it("lets a section go without a comment, since its keys explain it", () => {
    const s = objectSchema({ s: objectSchema({ k: { type: "integer" } }) });
    expect(renderConfigKeys(s, "s:\n  k: 1   # the k\n")).toContain(
      "| `s` | map |  | the section of the keys below |",
    );
  });

  it("reads trailing, continued, preceding and commented-out comments, and list entries", () => {
    const yaml = [
      "s:                 # the section",
      "  # The key, said before it.",
      "  k: 1",
      "  d: PT1S          # first line",
      "                   # continued (default: PT2S)",
      "  # c: x           # commented out",
      "  l:               # a list",
      "    - { n: 1 }",
      "    - n: 2         # the n",
    ].join("\n");
    expect(exampleKeys(yaml)).toEqual([
      { path: "s", value: "", commented: false, comment: "the section" },
      { path: "s.k", value: "1", commented: false, comment: "The key, said before it." },
      { path: "s.d", value: "PT1S", commented: false, comment: "first line continued (default: PT2S)" },
      { path: "s.c", value: "x", commented: true, comment: "commented out" },
      { path: "s.l", value: "", commented: false, comment: "a list" },
      { path: "s.l[].n", value: "", commented: false, comment: "the n" },
    ]);
  });
});
