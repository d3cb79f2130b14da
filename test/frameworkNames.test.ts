/**
 * The framework names no collector (docs/design.md section 2): a collector is its folder and one
 * line of the registry, so no file of polling/, metrics/, config/, exposition/, http/ or app/
 * may spell a collector's name or label, its config section's key (as the file writes it, or as
 * a property of the config), or one of its families. What it needs of a collector, it reads from
 * the collector's declaration. Comments may name them (a "why" often needs an example); code may
 * not. The collectors, their sections and their families are read from the registry itself, so a
 * new collector is covered with no edit here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { COLLECTORS, CONFIG_SECTIONS } from "../src/collectors/registry.js";

const SRC = resolve(import.meta.dirname, "../src");
const FRAMEWORK = ["polling", "metrics", "config", "exposition", "http", "app"];

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return productionFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") && !/testkit\.ts$/i.test(e.name)
      ? [path]
      : [];
  });
}

/** `text` without its comments (block, line and doc comments). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/.*$/gm, "");
}

/** Every string literal of `text` ('…', "…", and the fixed parts of `…`), as written. */
function literals(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)].flatMap((m) =>
    (m[1] ?? m[2] ?? m[3] ?? "").split(/\$\{[^}]*\}/),
  );
}

/** What a framework file may not spell, each with what it is. */
function collectorWords(): Map<string, string> {
  const words = new Map<string, string>();
  for (const c of COLLECTORS) {
    words.set(c.name, `the collector ${c.name}`);
    words.set(c.label, `the collector label ${c.label}`);
    for (const area of c.areas) {
      for (const f of Object.values(area.families)) words.set(f.name, `the family ${f.name} (${c.name})`);
    }
  }
  for (const s of CONFIG_SECTIONS) if (!words.has(s.key)) words.set(s.key, `the config section ${s.key}`);
  return words;
}

/** Every place of `text` that spells one of `words`, or reads a section as a property. */
function findings(text: string, words: ReadonlyMap<string, string>): string[] {
  const found = new Set<string>();
  for (const literal of literals(text)) {
    const what = words.get(literal);
    if (what !== undefined) found.add(`"${literal}": ${what}`);
  }
  for (const s of CONFIG_SECTIONS) {
    // `config.importJobs`, `this.config.billing`, `env.config?.groups`: a section read by name
    // from whatever holds a config (a rule file's `groups` is not a config's).
    const property = new RegExp(
      `\\b\\w*(?:[cC]onfig|[sS]ettings|parsed|draft)(?:\\(\\))?\\s*\\??\\.\\s*${s.field}\\b`,
    );
    if (property.test(text)) found.add(`.${s.field}: the config section ${s.key}`);
  }
  return [...found];
}

describe("the framework names no collector", () => {
  const words = collectorWords();
  const files = FRAMEWORK.flatMap((dir) => productionFiles(join(SRC, dir)));

  it("reads every collector, section and family from the registry", () => {
    expect(COLLECTORS.length).toBeGreaterThan(10);
    expect(CONFIG_SECTIONS.length).toBeGreaterThan(8);
    expect([...words.values()].filter((w) => w.startsWith("the family")).length).toBeGreaterThan(50);
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(files.map((f) => [relative(SRC, f), f]))("%s", (_name, path) => {
    expect(findings(code(readFileSync(path, "utf8")), words)).toEqual([]);
  });

  it.each([
    ["const x = config.importJobs.enabled;", [".importJobs: the config section import_jobs"]],
    ['if (c.label === "inventory") return;', ['"inventory": the collector label inventory']],
    [
      'const name = "vdbcloud_group_members";',
      ['"vdbcloud_group_members": the family vdbcloud_group_members (groups)'],
    ],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text under test holds a template.
    ["const t = `${prefix}billing`;", ['"billing": the collector label billing']],
    ["const g = doc.groups;", []],
    ["const on = this.config.collections.enabled;", [".collections: the config section collections"]],
    ["// config.billing is read by the billing collector", []],
    ["const n = spans.length;", []],
  ])("catches a name in %s", (text, expected) => {
    expect(findings(code(text), words)).toEqual(expected);
  });
});
