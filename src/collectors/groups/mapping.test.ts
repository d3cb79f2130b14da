import { describe, expect, it } from "vitest";
import { mapGroupMembers } from "./mapping.js";

describe("mapGroupMembers", () => {
  it.each([
    { members: 0, want: [0] },
    { members: 7, want: [7] },
    { members: 12_345, want: [12_345] },
    // Never a guessed value.
    { members: -1, want: [] },
    { members: 2.5, want: [] },
    { members: Number.NaN, want: [] },
  ])("maps $members members to $want", ({ members, want }) => {
    const r = mapGroupMembers("grp-1", members);
    expect(r.samples.map((s) => s.value)).toEqual(want);
    for (const s of r.samples) {
      expect(s.family).toBe("vdbcloud_group_members");
      // The group ID is the only label.
      expect(s.labels).toEqual({ group_id: "grp-1" });
    }
  });

  it("declares the family with its HELP", () => {
    const r = mapGroupMembers("g", 1);
    expect(r.families.map((f) => [f.name, f.type])).toEqual([["vdbcloud_group_members", "gauge"]]);
    expect(r.families[0]?.help).toMatch(/\(upstream List Group Members count\)\.?$/);
  });
});
