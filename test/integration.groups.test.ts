import { afterEach, describe, expect, it } from "vitest";
import { SIM_GROUPS } from "../src/simulator/groups.js";
import { type Harness, parseSamples, startHarness } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

const TEMPLATE = "GET /v2/groups/{groupId}/members";
const IDS = ["grp-admins", "grp-engineers", "grp-empty", "grp-unknown"];
let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** An exporter polling only the groups (every other collector off), on a manual clock. */
async function start(shard?: { index: number; total: number }): Promise<Harness> {
  const clock = new ManualClock(Date.now());
  h = await startHarness({
    clock,
    ...(shard ? { shard } : {}),
    config: (raw) => {
      raw.metrics = { enabled: false };
      raw.import_jobs = { enabled: false };
      raw.inventory = { enabled: false };
      raw.spark_jobs = { jobs: [] };
      raw.groups = { ids: IDS, interval: "PT30S" };
    },
  });
  await clock.advance(0);
  await h.settle();
  return h;
}

describe("group member counts against the simulator", () => {
  it("exports each known group's member count, and no member name or address", async () => {
    const harness = await start();
    const text = await harness.metrics();
    const all = parseSamples(text);
    const counts = Object.fromEntries(
      all.filter((s) => s.name === "vdbcloud_group_members").map((s) => [s.labels.group_id, s.value]),
    );
    expect(counts).toEqual({
      "grp-admins": SIM_GROUPS.get("grp-admins")?.length,
      "grp-engineers": SIM_GROUPS.get("grp-engineers")?.length,
      "grp-empty": 0,
    });
    expect(counts["grp-engineers"]).toBe(137);
    for (const s of all.filter((x) => x.name === "vdbcloud_group_members")) {
      expect(Object.keys(s.labels)).toEqual(["group_id"]);
    }
    for (const member of [...SIM_GROUPS.values()].flat()) {
      expect(text).not.toContain(member.username);
      expect(text).not.toContain(member.email);
    }
    expect(text).not.toMatch(/@example\.com/);
    // The answers carry `count`: one page per group, read-only.
    expect(harness.sim.stats.byEndpoint[TEMPLATE]).toBe(IDS.length);
    expect(harness.sim.stats.mutatingCalls).toEqual([]);
  });

  it("sets only the unknown group's collector down, with not_found", async () => {
    const harness = await start();
    const up = Object.fromEntries(
      parseSamples(await harness.metrics())
        .filter((s) => s.name === "vdbcloud_collector_up" && s.labels.collector === "groups")
        .map((s) => [s.labels.target, s.value]),
    );
    expect(up).toEqual({ "grp-admins": 1, "grp-engineers": 1, "grp-empty": 1, "grp-unknown": 0 });
    const landing = await harness.exporter.landing();
    expect(JSON.stringify(landing)).toContain("not_found");
  });

  it("polls groups on shard 0 only", async () => {
    const harness = await start({ index: 1, total: 2 });
    const text = await harness.metrics();
    expect(parseSamples(text).filter((s) => s.name === "vdbcloud_group_members")).toEqual([]);
    expect(harness.sim.stats.byEndpoint[TEMPLATE] ?? 0).toBe(0);
  });
});
