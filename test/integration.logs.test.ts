/**
 * One clear log line per problem: a refused API key and an unreachable regional controller are
 * each one warning naming the cause (never the key) with the number of targets affected, not a
 * line per target. Against the simulator, with pino's output captured.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness, TEST_API_KEY } from "./helpers/harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Line = Record<string, unknown> & { level: number; msg: string };
const parsed = (logs: string[]): Line[] => logs.map((l) => JSON.parse(l) as Line);

/** Waits for the shared-cause log to settle (5 s after the last change) and returns the lines. */
async function settledLines(logs: string[], msg: string): Promise<Line[]> {
  for (let i = 0; i < 100; i++) {
    if (parsed(logs).some((l) => l.msg === msg)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // Past the first flush, a second one would have come within another settle period.
  await new Promise((r) => setTimeout(r, 5_500));
  return parsed(logs);
}

describe("shared failure causes are logged once", () => {
  it("a refused API key: one warning naming the credential and the targets, never the key", async () => {
    const logs: string[] = [];
    h = await startHarness({ sim: { clusters: 3, apiKeys: ["sk-the-only-valid-key"] }, logs });
    const lines = await settledLines(logs, "API key refused by the upstream");
    const refused = lines.filter((l) => l.msg === "API key refused by the upstream");
    const tasks = h.exporter.scheduledTasks().length;
    // One per credential label: the API keys collector reads with its section's own key (here
    // the default key, through a client of its own), labelled "api_keys".
    expect(refused.map((l) => [l.level, l.credential, l.targets]).sort()).toEqual([
      [40, "api_keys", 1],
      [40, "default", tasks - 1],
    ]);
    expect(tasks).toBeGreaterThan(5);
    // Every target's own line is debug, not a warning per target.
    expect(lines.filter((l) => l.level >= 40 && l.msg === "target failing")).toEqual([]);
    expect(lines.filter((l) => l.msg === "target failing").length).toBe(tasks);
    expect(logs.join("\n")).not.toContain(TEST_API_KEY);
  }, 30_000);

  it("an unreachable regional controller: one warning naming it and the targets that call it", async () => {
    const logs: string[] = [];
    h = await startHarness({
      sim: { clusters: 3 },
      logs,
      config: (raw) => {
        const api = raw.api as Record<string, unknown>;
        // Port 1 on loopback refuses connections: the controller is down, the v2 server is not.
        api.controller_url = "http://127.0.0.1:1/{region}";
        api.max_retries = 0;
        // Only v1 calls go to the controller: List Import Jobs v1 on the clusters, List Pipelines.
        raw.import_jobs = { api: "v1" };
      },
    });
    const lines = await settledLines(logs, "upstream server unreachable");
    const unreachable = lines.filter((l) => l.msg === "upstream server unreachable");
    // The v1 calls go to the controller: List Import Jobs per cluster, and List Pipelines per
    // project and region on the organization's target (projects come from V2).
    const v1Targets = h.exporter
      .scheduledTasks()
      .filter((t) => t.calls.some((c) => / \/v1\//.test(c.endpoint))).length;
    expect(v1Targets).toBe(4);
    expect(unreachable).toHaveLength(1);
    expect(unreachable[0]).toMatchObject({ level: 40, origin: "http://127.0.0.1:1", targets: v1Targets });
    expect(lines.filter((l) => l.level >= 40 && l.msg === "target failing")).toEqual([]);
  }, 30_000);
});
