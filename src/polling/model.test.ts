import { describe, expect, it } from "vitest";
import { CollectorStates, defineCollector, stateSlot } from "./model.js";

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
    const c = defineCollector(name, tasks, label);
    expect(c).toEqual({ name, label: want, tasks });
  });
});
