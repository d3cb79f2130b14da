import { describe, expect, it } from "vitest";
import { BILLING_STATE, oldestNeeded, storeWindow, usageWindow } from "./cache.js";

const at = (iso: string) => Date.parse(iso);
const fresh = () => BILLING_STATE.create();

describe("usage windows", () => {
  it.each([
    ["mid-month: the month and today", "2026-03-15T10:00:00Z", "2026-03-01"],
    ["the 2nd: the recent days reach into last month", "2026-03-02T01:00:00Z", "2026-02-27"],
    ["the 1st: yesterday is last month's", "2026-03-01T00:10:00Z", "2026-02-26"],
  ])("%s", (_name, now, start) => {
    expect(oldestNeeded(now.slice(0, 10))).toBe(start);
    const w = usageWindow(fresh(), at(now));
    expect(w).toEqual({ start, last: now.slice(0, 10), end: expect.any(String), full: true });
    // One day past today as `end`: right whether the service's end is inclusive or not.
    expect(Date.parse(w.end) - Date.parse(w.last)).toBe(86_400_000);
  });

  it("reads the whole month once a day, then today and the three days before it", () => {
    const state = fresh();
    const first = usageWindow(state, at("2026-03-15T10:00:00Z"));
    storeWindow(state, first, new Map());
    expect(state.fullReadDay).toBe("2026-03-15");
    expect(usageWindow(state, at("2026-03-15T11:00:00Z"))).toMatchObject({
      start: "2026-03-12",
      full: false,
    });
    expect(usageWindow(state, at("2026-03-16T00:30:00Z"))).toMatchObject({ start: "2026-03-01", full: true });
  });

  it("reads the whole month again when a needed day is missing", () => {
    const state = fresh();
    storeWindow(state, usageWindow(state, at("2026-03-15T10:00:00Z")), new Map());
    state.days.delete("2026-03-05");
    expect(usageWindow(state, at("2026-03-15T11:00:00Z")).full).toBe(true);
  });

  it("replaces the window's days, keeps an empty day for a day without items, drops days no longer needed", () => {
    const state = fresh();
    state.days.set("2026-01-31", { currency: "USD", items: [] });
    const item = {
      costType: "compute",
      clusterId: "c",
      projectId: "p",
      regionId: "r",
      quantity: "1",
      unit: "h",
      amount: "1",
    };
    storeWindow(
      state,
      usageWindow(state, at("2026-03-15T10:00:00Z")),
      new Map([["2026-03-14", { currency: "USD", items: [item] }]]),
    );
    expect(state.days.has("2026-01-31")).toBe(false);
    expect([...state.days.keys()]).toHaveLength(15);
    expect(state.days.get("2026-03-14")?.items).toEqual([item]);
    expect(state.days.get("2026-03-13")).toEqual({ currency: "", items: [] });
  });
});
