/**
 * The import graph of src/ (production files; type-only imports count, since a type import still
 * ties two modules' designs together): no import circles, and the layering that docs/design.md's section 8
 * states. Folder names live in FOLDERS only, so renaming a folder changes one row.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../src");

/**
 * Role -> where it lives under src/: a folder (trailing slash), the subfolders of a folder
 * (trailing "*\/"), or one file. The most specific entry that matches a path wins.
 */
const FOLDERS = {
  upstreamClient: "upstream/",
  metricModel: "metrics/",
  collectorFramework: "polling/",
  collectors: "collectors/*/",
  collectorRegistry: "collectors/registry.ts",
  config: "config/",
  exposition: "exposition/",
  http: "http/",
  schedule: "scheduler/",
  shared: "shared/",
  simulator: "simulator/",
  app: "app/",
  demo: "app/demo.ts",
} as const;
type Role = keyof typeof FOLDERS;

/** A role may not import any of these roles (type-only imports included). */
const FORBIDDEN: readonly { readonly from: Role; readonly mayNotImport: readonly Role[] }[] = [
  // The upstream client knows nothing of Prometheus, config or collectors.
  {
    from: "upstreamClient",
    mayNotImport: ["metricModel", "collectorFramework", "config", "exposition", "http", "schedule", "app"],
  },
  {
    from: "shared",
    mayNotImport: [
      "upstreamClient",
      "metricModel",
      "collectorFramework",
      "config",
      "exposition",
      "http",
      "schedule",
      "app",
    ],
  },
  { from: "schedule", mayNotImport: ["metricModel", "collectorFramework", "exposition", "http", "app"] },
  { from: "metricModel", mayNotImport: ["collectorFramework", "exposition", "http", "schedule", "app"] },
  {
    from: "exposition",
    mayNotImport: ["collectorFramework", "collectors", "collectorRegistry", "http", "schedule", "app"],
  },
  // The framework names no collector: it reaches them through the registry only.
  { from: "collectorFramework", mayNotImport: ["collectors", "app"] },
  // Wiring sits above everything it wires: nothing it wires reaches back into it.
  { from: "config", mayNotImport: ["app"] },
  // A collector uses the framework, never another collector or the list of them.
  { from: "collectors", mayNotImport: ["collectorRegistry", "app"] },
];

/** Only these files may import the simulator (the demo, by dynamic import and for its type). */
const SIMULATOR_IMPORTERS: readonly Role[] = ["demo"];

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return productionFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [path] : [];
  });
}

const SPECIFIER = [
  /\b(?:import|export)\s[^;"']*?\bfrom\s*["']([^"']+)["']/g, // import x from, export { x } from
  /\bimport\s*["']([^"']+)["']/g, // import "x" (side effects)
  /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, // import("x")
];

/**
 * Every relative import of `file`, as paths relative to src/ (".js" specifiers map to ".ts").
 * `loadedWithIt`: only what Node loads with the file itself: no `import type`, no `import()`.
 */
function importsOf(file: string, loadedWithIt = false): string[] {
  let text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
  if (loadedWithIt) text = text.replace(/\bimport\s+type\s[^;]*;/g, "");
  const found = new Set<string>();
  for (const re of loadedWithIt ? SPECIFIER.slice(0, 2) : SPECIFIER) {
    for (const m of text.matchAll(re)) {
      const spec = m[1] ?? "";
      if (!spec.startsWith(".")) continue;
      const target = resolve(dirname(file), spec).replace(/\.js$/, ".ts");
      found.add(relative(SRC, target));
    }
  }
  return [...found];
}

function buildGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of productionFiles(SRC)) graph.set(relative(SRC, file), importsOf(file));
  return graph;
}

/** Tarjan's strongly connected components with more than one member, or a self-import. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

function matches(path: string, where: string): boolean {
  if (where.endsWith("*/")) {
    const folder = where.slice(0, -2);
    return path.startsWith(folder) && path.slice(folder.length).includes("/");
  }
  return where.endsWith("/") ? path.startsWith(where) : path === where;
}

function roleOf(path: string): Role | undefined {
  const roles = (Object.keys(FOLDERS) as Role[]).filter((r) => matches(path, FOLDERS[r]));
  return roles.sort((a, b) => FOLDERS[b].length - FOLDERS[a].length)[0];
}

/** The top folder of a collector ("collectors/spark-jobs/"), to tell collectors apart. */
function collectorOf(path: string): string | undefined {
  return roleOf(path) === "collectors" ? path.split("/").slice(0, 2).join("/") : undefined;
}

describe("the import graph of src/", () => {
  const graph = buildGraph();

  it("is read from every production file and resolves every relative import", () => {
    expect(graph.size).toBeGreaterThan(50);
    const unresolved = [...graph].flatMap(([from, tos]) =>
      tos.filter((to) => !graph.has(to)).map((to) => `${from} -> ${to}`),
    );
    expect(unresolved).toEqual([]);
  });

  it("has no import circles (type-only imports included)", () => {
    expect(cycles(graph).map((c) => c.join(" <-> "))).toEqual([]);
  });

  it("points one way between folders", () => {
    const violations: string[] = [];
    for (const [from, tos] of graph) {
      const fromRole = roleOf(from);
      for (const to of tos) {
        const toRole = roleOf(to);
        if (toRole === undefined || fromRole === undefined) continue;
        const rule = FORBIDDEN.find((r) => r.from === fromRole);
        if (rule?.mayNotImport.includes(toRole)) violations.push(`${from} -> ${to}`);
        if (fromRole === "collectors" && toRole === "collectors" && collectorOf(from) !== collectorOf(to)) {
          violations.push(`${from} -> ${to} (a collector never imports another)`);
        }
        if (toRole === "simulator" && fromRole !== "simulator" && !SIMULATOR_IMPORTERS.includes(fromRole)) {
          violations.push(`${from} -> ${to} (only the demo loads the simulator)`);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});

/** The files Node loads with `entry` (relative to src/), following static imports only. */
function loadedWith(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string): void => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const next of importsOf(join(SRC, path), true)) visit(next);
  };
  visit(entry);
  return seen;
}

describe("the exporter's entry point", () => {
  // The server does not hold the code of commands it never runs, nor the demo's simulator: they
  // are imported when they run.
  const ONE_SHOT = ["backfill/", "probe/", "polling/planFormat.ts", "simulator/"];

  it("main.ts, the launcher, loads nothing of the exporter before it knows this process runs it", () => {
    // The launcher may wait on the exporter as its parent (src/runtime/launch.ts): it stays small.
    const loaded = [...loadedWith("main.ts")].sort();
    expect(loaded).toEqual([
      "app/sighup.ts",
      "main.ts",
      "runtime/launch.ts",
      "runtime/resolve.ts",
      "runtime/settings.ts",
    ]);
    for (const file of loaded) {
      const text = readFileSync(join(SRC, file), "utf8");
      for (const m of text.matchAll(/\bfrom\s*["']([^"'.][^"']*)["']/g)) expect(m[1], file).toMatch(/^node:/);
    }
    expect(importsOf(join(SRC, "main.ts"))).toContain("cli/main.ts");
  });

  it("loads the one-shot commands and the simulator only when they run", () => {
    const loaded = [...loadedWith("cli/main.ts")];
    expect(loaded).toContain("app/exporter.ts");
    expect(loaded.filter((p) => ONE_SHOT.some((w) => matches(p, w)))).toEqual([]);
    // ... and still reaches each of them, by import().
    const all = loaded.flatMap((p) => importsOf(join(SRC, p)));
    for (const w of ONE_SHOT)
      expect(
        all.some((p) => matches(p, w)),
        w,
      ).toBe(true);
  });
});

describe("production files", () => {
  it("are 400 lines or shorter (split a longer one by idea)", () => {
    const long = productionFiles(SRC)
      .map((f) => ({ file: relative(SRC, f), lines: readFileSync(f, "utf8").trimEnd().split("\n").length }))
      .filter((f) => f.lines > 400);
    expect(long).toEqual([]);
  });
});

describe("design notes cited from src/", () => {
  it("exist in the repo, with the sections cited", () => {
    const missing: string[] = [];
    const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    for (const file of files) {
      const text = readFileSync(join(SRC, file), "utf8").replace(/\n\s*(\*|\/\/)\s*/g, " ");
      for (const m of text.matchAll(/\b(docs\/[\w.-]+\.md)(?: section (\d+))?/g)) {
        const [, doc = "", section] = m;
        let body: string;
        try {
          body = readFileSync(resolve(SRC, "..", doc), "utf8");
        } catch {
          missing.push(`${file}: ${doc}`);
          continue;
        }
        if (section !== undefined && !new RegExp(`^## ${section}\\. `, "m").test(body)) {
          missing.push(`${file}: ${doc} section ${section}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("no comment cites a design note outside docs/", () => {
    const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    const bare = files.filter((f) => /(?<![\w/])design\.md/.test(readFileSync(join(SRC, f), "utf8")));
    expect(bare).toEqual([]);
  });
});

describe("cycles (the checker itself)", () => {
  it.each([
    { name: "none in a chain", graph: { a: ["b"], b: ["c"], c: [] }, want: [] },
    { name: "a two-file circle", graph: { a: ["b"], b: ["a"], c: ["a"] }, want: [["a", "b"]] },
    { name: "a three-file circle", graph: { a: ["b"], b: ["c"], c: ["a"] }, want: [["a", "b", "c"]] },
    { name: "a self-import", graph: { a: ["a"] }, want: [["a"]] },
    {
      name: "two separate circles",
      graph: { a: ["b"], b: ["a"], c: ["d"], d: ["c"] },
      want: [
        ["a", "b"],
        ["c", "d"],
      ],
    },
  ])("$name", ({ graph, want }) => {
    const found = cycles(new Map(Object.entries(graph)));
    expect(found.sort((x, y) => (x[0] ?? "").localeCompare(y[0] ?? ""))).toEqual(want);
  });
});

describe("roles of paths (the layering table itself)", () => {
  it.each([
    ["upstream/client.ts", "upstreamClient"],
    ["polling/model.ts", "collectorFramework"],
    ["collectors/registry.ts", "collectorRegistry"],
    ["collectors/spark-jobs/tasks.ts", "collectors"],
    ["app/demo.ts", "demo"],
    ["app/exporter.ts", "app"],
    ["main.ts", undefined],
  ])("%s is %s", (path, role) => {
    expect(roleOf(path)).toBe(role);
  });
});
