import { describe, expect, it } from "vitest";
import type { FamilyDef } from "./sample.js";
import { stateSet } from "./stateSet.js";

const FAMILY: FamilyDef = { name: "vdbcloud_thing_state", help: "h", type: "gauge" };
const KNOWN = ["pending", "running", "done"];
const BASE = { cluster_id: "c1", job_id: "j1" };

describe("stateSet", () => {
  it.each(KNOWN)("one series per known state, 1 only for the current %s", (current) => {
    const samples = stateSet(FAMILY, BASE, "state", KNOWN, current);
    expect(samples).toEqual(
      KNOWN.map((state) => ({
        family: "vdbcloud_thing_state",
        labels: { cluster_id: "c1", job_id: "j1", state },
        value: state === current ? 1 : 0,
      })),
    );
  });

  it.each<[current: string, added: string]>([
    ["Exploded", "exploded"],
    [" WAITING ", "waiting"],
  ])("adds the unknown state %j lowercased, after the known ones", (current, added) => {
    const samples = stateSet(FAMILY, BASE, "state", KNOWN, current);
    expect(samples.map((s) => [s.labels.state, s.value])).toEqual([
      ["pending", 0],
      ["running", 0],
      ["done", 0],
      [added, 1],
    ]);
  });

  it("compares the current state case-insensitively", () => {
    const samples = stateSet(FAMILY, BASE, "state", KNOWN, "RUNNING");
    expect(samples.map((s) => s.value)).toEqual([0, 1, 0]);
  });

  it("adds nothing for an empty current state", () => {
    const samples = stateSet(FAMILY, BASE, "state", KNOWN, " ");
    expect(samples.map((s) => s.value)).toEqual([0, 0, 0]);
  });

  it("keeps the base labels first, in order, then the state label", () => {
    const [first] = stateSet(FAMILY, { b: "1", a: "2" }, "status", KNOWN, "done");
    expect(Object.keys(first?.labels ?? {})).toEqual(["b", "a", "status"]);
  });
});
