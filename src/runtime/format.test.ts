import { describe, expect, it } from "vitest";
import { renderLanding } from "../http/landing.js";
import { formatRuntimeSettings, inForce, printRuntimeSettings, runtimeInForce } from "./format.js";
import { resolveRuntime } from "./resolve.js";

const PLAIN = { execArgv: [], env: {} };

describe("formatRuntimeSettings (--check-config)", () => {
  it("lists what a run gets and what the launcher does for it", () => {
    expect(formatRuntimeSettings(resolveRuntime(PLAIN))).toBe(
      [
        "Runtime settings of a run (built-in; docs/runtime.md):",
        "  --max-semi-space-size=2        node flag: command line, set by the launcher",
        "  --heap-growing-percent=25      node flag: command line, set by the launcher",
        "  --optimize-for-size            node flag: command line, set by the launcher",
        "  MALLOC_ARENA_MAX=2             environment variable: environment, set by the launcher",
        "  MALLOC_MMAP_THRESHOLD_=131072  environment variable: environment, set by the launcher",
        "For a run the launcher starts node once more, to add --max-semi-space-size=2, add " +
          "--heap-growing-percent=25, add --optimize-for-size, add MALLOC_ARENA_MAX=2, add " +
          "MALLOC_MMAP_THRESHOLD_=131072.",
      ].join("\n"),
    );
  });

  it("says where a user's values come from, and what is off", () => {
    const text = formatRuntimeSettings(
      resolveRuntime({
        execArgv: ["--heap-growing-percent=25", "--optimize-for-size"],
        env: {
          NODE_OPTIONS: "--max-semi-space-size=8",
          MALLOC_ARENA_MAX: "2",
          VDBCLOUD_RUNTIME_ENV: "MALLOC_ARENA_MAX=2",
        },
      }),
    );
    expect(text).toContain("(built-in, replaced by VDBCLOUD_RUNTIME_ENV; docs/runtime.md)");
    expect(text).toMatch(/ {2}--max-semi-space-size=8 +node flag: NODE_OPTIONS, instead of the built-in 2\n/);
    expect(text).toMatch(/ {2}--heap-growing-percent=25 +node flag: command line\n/);
    expect(text).toMatch(/ {2}--optimize-for-size +node flag: command line\n/);
    expect(text).toMatch(/ {2}MALLOC_ARENA_MAX=2 +environment variable: environment\n/);
    expect(text).toContain(
      "MALLOC_MMAP_THRESHOLD_ (not set)  environment variable: not set (built-in: 131072)",
    );
    expect(text).toContain("A run has them as started: the launcher starts no other node process.");
  });

  it("prints them after the polling schedule, or names the bad control variable with exit 2", () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
    };
    expect(printRuntimeSettings(PLAIN, io)).toBe(0);
    expect(out.join("")).toMatch(/^\nRuntime settings of a run/);
    expect(printRuntimeSettings({ execArgv: [], env: { VDBCLOUD_RUNTIME: "maybe" } }, io)).toBe(2);
    expect(err.join("")).toBe(
      'runtime settings invalid:\nVDBCLOUD_RUNTIME: must be on or off, got "maybe"\n',
    );
  });
});

describe("the landing page's runtime table", () => {
  const info = {
    version: "1",
    startedAtMs: 0,
    nowMs: 0,
    ready: true,
    series: 0,
    publishedAtMs: 0,
    shard: { index: 0, total: 1 },
    targets: [],
  };

  it("shows the settings of this process, not the ones a relaunch would give", () => {
    const runtime = runtimeInForce({ execArgv: ["--heap-growing-percent=25"], env: { VDBCLOUD_X: "<b>" } });
    const html = renderLanding({ ...info, ...(runtime ? { runtime } : {}) });
    expect(html).toContain("<p>built-in &middot; as this process was started</p>");
    expect(html).toContain("<td><code>--heap-growing-percent=25</code></td><td>command line</td>");
    expect(html).toContain("<td><code>MALLOC_ARENA_MAX (not set)</code></td><td>not set (built-in: 2)</td>");
  });

  it("says when the launcher started this process", () => {
    const runtime = inForce(resolveRuntime({ execArgv: [], env: { VDBCLOUD_RUNTIME_LAUNCHED: "fd:3" } }));
    expect(renderLanding({ ...info, runtime })).toContain(
      "applied by the launcher, which started this process",
    );
  });

  it("is left out when unknown", () => {
    expect(renderLanding(info)).not.toContain("Runtime settings");
    expect(runtimeInForce({ execArgv: [], env: { VDBCLOUD_RUNTIME: "maybe" } })).toBeUndefined();
  });
});
