/**
 * The import graph of src/ (production files; type-only imports count, since a type import still
 * ties two modules' designs together): no import circles, and the layering that docs/design.md's
 * section 8 states: every folder has a role and every role a layer, imports run down the layers
 * only, and no production file imports a test kit (nor does the build ship one). Folder names
 * live in FOLDERS only, so renaming a folder changes one row.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../src");

/**
 * Role -> where it lives under src/: a folder (trailing slash), the subfolders of a folder
 * (trailing "*\/"), or one file. The most specific entry that matches a path wins. Every
 * production file has a role (a test below fails for a folder left out).
 */
const FOLDERS = {
  launcher: "main.ts",
  cli: "cli/",
  app: "app/",
  demo: "app/demo.ts",
  probe: "probe/",
  backfill: "backfill/",
  collectorRegistry: "collectors/registry.ts",
  apiClients: "api-clients/",
  slo: "slo/",
  collectors: "collectors/*/",
  collectorFramework: "polling/",
  http: "http/",
  exposition: "exposition/",
  config: "config/",
  metricModel: "metrics/",
  scheduler: "scheduler/",
  upstreamClient: "upstream/",
  shared: "shared/",
  runtime: "runtime/",
  simulator: "simulator/",
} as const;
type Role = keyof typeof FOLDERS;

/**
 * The layers, top to bottom. A file imports its own role or a role of a lower layer, never one
 * of its own layer or above it: roles side by side know nothing of each other.
 */
const LAYERS: readonly (readonly Role[])[] = [
  // The process: applies the runtime settings, then starts the command line.
  ["launcher"],
  // Parses the command line and runs the chosen mode: the exporter, the demo or a subcommand.
  ["cli"],
  // The exporter's wiring, the demo, and the one-shot subcommands beside it.
  ["app", "demo", "probe", "backfill"],
  // The one list of collectors; the API clients by credential.
  ["collectorRegistry", "apiClients"],
  // The error-budget rules: their section, which the registry registers, and their renderer.
  ["slo"],
  // A collector uses the framework, never another collector or the list of them.
  ["collectors"],
  // The framework names no collector; the HTTP app serves what it is handed, with no logic.
  ["collectorFramework", "http"],
  ["exposition", "config"],
  ["metricModel", "scheduler"],
  // The upstream client knows nothing of Prometheus, config or collectors.
  ["upstreamClient"],
  // Import nothing of the exporter.
  ["shared", "runtime", "simulator"],
];

/** Imports the layers allow but the design does not: a role may not import these roles. */
const FORBIDDEN: readonly { readonly from: Role; readonly mayNotImport: readonly Role[] }[] = [
  // The store renders whatever it holds; when tasks run is none of its business.
  { from: "exposition", mayNotImport: ["scheduler"] },
];

/**
 * Roles only these roles may import: the simulator only the demo (by dynamic import and for its
 * type); the runtime settings only the process's start and its command line.
 */
const ONLY_IMPORTED_BY: Partial<Record<Role, readonly Role[]>> = {
  simulator: ["demo"],
  runtime: ["launcher", "cli"],
};

/** A test kit (testkit.ts, namesTestkit.ts): code only tests use, beside the code it tests. */
function isTestKit(path: string): boolean {
  return /testkit\.ts$/i.test(path);
}

/** Every .ts file of `dir` but the tests (test kits included: they keep the layering too). */
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

const LAYER = new Map(LAYERS.flatMap((roles, i) => roles.map((role) => [role, i] as const)));

/** Every import of `graph` against LAYERS, FORBIDDEN or ONLY_IMPORTED_BY, with the rule it breaks. */
function violations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, tos] of graph) {
    const fromRole = roleOf(from);
    for (const to of tos) {
      const toRole = roleOf(to);
      if (toRole === undefined || fromRole === undefined) continue;
      const edge = `${from} -> ${to}`;
      if (fromRole === toRole) {
        if (collectorOf(from) !== collectorOf(to)) found.push(`${edge} (a collector never imports another)`);
        continue;
      }
      if ((LAYER.get(toRole) ?? -1) <= (LAYER.get(fromRole) ?? -1)) {
        found.push(`${edge} (${toRole} is not below ${fromRole})`);
      }
      if (FORBIDDEN.some((r) => r.from === fromRole && r.mayNotImport.includes(toRole))) {
        found.push(`${edge} (${fromRole} may not import ${toRole})`);
      }
      const only = ONLY_IMPORTED_BY[toRole];
      if (only !== undefined && !only.includes(fromRole))
        found.push(`${edge} (only ${only.join(", ")} import ${toRole})`);
    }
  }
  return found;
}

describe("the import graph of src/", () => {
  const graph = buildGraph();

  it("is read from every production file and resolves every relative import", () => {
    expect(graph.size).toBeGreaterThan(50);
    // A JSON file (a reference sample a testkit reads) is data, a leaf of the graph: it must exist.
    const isData = (to: string) => to.endsWith(".json") && existsSync(join(SRC, to));
    const unresolved = [...graph].flatMap(([from, tos]) =>
      tos.filter((to) => !graph.has(to) && !isData(to)).map((to) => `${from} -> ${to}`),
    );
    expect(unresolved).toEqual([]);
  });

  it("has no import circles (type-only imports included)", () => {
    expect(cycles(graph).map((c) => c.join(" <-> "))).toEqual([]);
  });

  it("gives every production file, so every folder of src/, a role, and every role a layer", () => {
    expect([...graph.keys()].filter((p) => roleOf(p) === undefined)).toEqual([]);
    expect([...LAYERS.flat()].sort()).toEqual(Object.keys(FOLDERS).sort());
    // No stale row: every role is where a file is.
    const roles = new Set([...graph.keys()].map(roleOf));
    expect((Object.keys(FOLDERS) as Role[]).filter((r) => !roles.has(r))).toEqual([]);
  });

  it("has no folder name that is the prefix of another", () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    const clashes = folders.flatMap((a) =>
      folders.filter((b) => a !== b && b.startsWith(a)).map((b) => `${a} ${b}`),
    );
    expect(clashes).toEqual([]);
  });

  it("points one way between folders", () => {
    expect(violations(graph)).toEqual([]);
  });

  it("imports no test kit into a production file", () => {
    const kits = [...graph].flatMap(([from, tos]) =>
      isTestKit(from) ? [] : tos.filter(isTestKit).map((to) => `${from} -> ${to}`),
    );
    expect(kits).toEqual([]);
  });
});

describe("the build", () => {
  it("leaves out every test and test kit", () => {
    const tsc = resolve(SRC, "../node_modules/typescript/bin/tsc");
    const listed = execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--listFilesOnly"], {
      cwd: resolve(SRC, ".."),
      encoding: "utf8",
    })
      .split("\n")
      .map((f) => relative(SRC, f.trim()))
      .filter((f) => f !== "" && !f.startsWith(".."));
    expect(listed).toContain("main.ts");
    expect(listed.filter((f) => isTestKit(f) || f.endsWith(".test.ts"))).toEqual([]);
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
  const ONE_SHOT = ["backfill/", "probe/", "polling/scheduleFormat.ts", "simulator/", "slo/command.ts"];

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
    ["main.ts", "launcher"],
    ["cli/main.ts", "cli"],
    ["api-clients/apiClients.ts", "apiClients"],
    ["slo/rules.ts", "slo"],
    ["probe/command.ts", "probe"],
    ["backfill/run.ts", "backfill"],
    ["runtime/format.ts", "runtime"],
    ["http/landing.ts", "http"],
    ["notes.ts", undefined],
  ])("%s is %s", (path, role) => {
    expect(roleOf(path)).toBe(role);
  });

  it.each([
    // Each import below once ran back up; the rules name it.
    ["polling/schedule.ts", "collectors/registry.ts", "collectorRegistry is not below collectorFramework"],
    ["backfill/args.ts", "cli/flags.ts", "cli is not below backfill"],
    ["backfill/run.ts", "app/apiClients.ts", "app is not below backfill"],
    ["probe/command.ts", "app/apiClients.ts", "app is not below probe"],
    ["http/landing.ts", "runtime/format.ts", "only launcher, cli import runtime"],
    ["exposition/store.ts", "scheduler/scheduler.ts", "exposition may not import scheduler"],
    ["app/exporter.ts", "simulator/index.ts", "only demo import simulator"],
    ["collectors/jobs/tasks.ts", "collectors/backups/mapping.ts", "a collector never imports another"],
  ])("%s -> %s is refused: %s", (from, to, why) => {
    expect(violations(new Map([[from, [to]]]))).toEqual([`${from} -> ${to} (${why})`]);
  });

  it.each([
    ["cli/main.ts", "runtime/format.ts"],
    ["main.ts", "runtime/launch.ts"],
    ["app/demo.ts", "simulator/index.ts"],
    ["backfill/run.ts", "api-clients/apiClients.ts"],
    ["app/exporter.ts", "http/landing.ts"],
    ["collectors/jobs/tasks.ts", "collectors/jobs/mapping.ts"],
  ])("%s -> %s is allowed", (from, to) => {
    expect(violations(new Map([[from, [to]]]))).toEqual([]);
  });

  it.each([
    ["upstream/testkit.ts", true],
    ["upstream/namesTestkit.ts", true],
    ["upstream/client.ts", false],
  ])("%s is a test kit: %s", (path, kit) => {
    expect(isTestKit(path)).toBe(kit);
  });
});
