import { describe, expect, it } from "vitest";
import { buildConfig } from "../config/load.js";
import { HEALTH_FAMILY_NAMES } from "../metrics/families.js";
import { CollectorStates, defineCollector, selectCollectors, stateSlot } from "./model.js";

/** An allow rule admitting every health family, which an allow list must. */
const HEALTH = HEALTH_FAMILY_NAMES.join("|");

describe("CollectorStates", () => {
  it("makes a slot's state on first use and returns that same object afterwards", () => {
    let made = 0;
    const slot = stateSlot("counter", () => ({ n: ++made }));
    const states = new CollectorStates();
    expect(made).toBe(0);
    const first = states.get(slot);
    first.n = 42;
    expect(states.get(slot)).toBe(first);
    expect(states.get(slot).n).toBe(42);
    expect(made).toBe(1);
  });

  it("keeps slots apart, and each process-wide holder apart", () => {
    const a = stateSlot("a", () => new Map<string, number>());
    const b = stateSlot("b", () => new Map<string, number>());
    const states = new CollectorStates();
    states.get(a).set("x", 1);
    expect(states.get(b).size).toBe(0);
    expect(new CollectorStates().get(a).size).toBe(0);
  });
});

describe("defineCollector", () => {
  const tasks = () => [];
  it.each([
    { name: "jobs", label: undefined, want: "jobs" },
    { name: "discovery", label: "inventory", want: "inventory" },
  ])("$name reports under the label $want", ({ name, label, want }) => {
    const c = defineCollector(name, tasks, {
      polls: "p",
      families: [],
      ...(label === undefined ? {} : { label }),
    });
    expect(c).toMatchObject({ name, label: want, tasks, feedsOthers: false });
  });

  it("names the families it declares, fixed or from the config", async () => {
    const config = await buildConfig({ api: { api_key: "k" } }, { env: {} });
    const fixed = defineCollector("a", tasks, {
      polls: "p",
      families: [{ name: "vdbcloud_a" }, "vdbcloud_b"],
    });
    expect(fixed.families(config)).toEqual(["vdbcloud_a", "vdbcloud_b"]);
    const byConfig = defineCollector("b", tasks, {
      polls: "p",
      families: (c) => [`vdbcloud_${c.metrics.enabled ? "on" : "off"}`],
    });
    expect(byConfig.families(config)).toEqual(["vdbcloud_on"]);
    const feeder = defineCollector("c", tasks, { polls: "p", feedsOthers: true });
    expect(feeder).toMatchObject({ feedsOthers: true });
    expect(feeder.families(config)).toEqual([]);
  });
});

describe("selectCollectors", () => {
  const tasks = () => [];
  const a = defineCollector("a", tasks, { polls: "p", families: ["vdbcloud_a_one", "vdbcloud_a_two"] });
  const b = defineCollector("b", tasks, { polls: "p", families: ["vdbcloud_b_one"] });
  const feeder = defineCollector("feeder", tasks, { polls: "p", feedsOthers: true });
  const all = [a, feeder, b];
  const names = (list: readonly { name: string }[]) => list.map((c) => c.name);

  it.each([
    { title: "no rule: every collector runs", allow: [], deny: [], running: ["a", "feeder", "b"] },
    {
      title: "one family of a left: a runs",
      allow: [],
      deny: ["vdbcloud_a_one"],
      running: ["a", "feeder", "b"],
    },
    { title: "every family of a denied", allow: [], deny: ["vdbcloud_a_.*"], running: ["feeder", "b"] },
    {
      title: "an allow list that admits none of b's",
      allow: ["vdbcloud_a_one", HEALTH],
      deny: [],
      running: ["a", "feeder"],
    },
    {
      title: "every family denied: the feeder stops too",
      allow: [],
      deny: ["vdbcloud_a_.*", "vdbcloud_b_.*"],
      running: [],
    },
  ])("$title", async ({ allow, deny, running }) => {
    const config = await buildConfig({ api: { api_key: "k" }, families: { allow, deny } }, { env: {} });
    const selection = selectCollectors(all, config);
    expect(names(selection.running)).toEqual(running);
    expect(names(selection.silenced)).toEqual(names(all.filter((c) => !running.includes(c.name))));
  });
});
