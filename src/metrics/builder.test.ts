import { describe, expect, it } from "vitest";
import { MappingBuilder, seriesKey } from "./builder.js";
import type { FamilyDef } from "./sample.js";

const A: FamilyDef = { name: "vdbcloud_a", help: "A.", type: "gauge" };
const B: FamilyDef = { name: "vdbcloud_b", help: "B.", type: "gauge" };

describe("seriesKey", () => {
  it.each<[string, Record<string, string>, Record<string, string>]>([
    ["two labels", { a: "1", b: "2" }, { b: "2", a: "1" }],
    ["reversed", { e: "5", d: "4", c: "3", b: "2", a: "1" }, { a: "1", b: "2", c: "3", d: "4", e: "5" }],
    [
      "shuffled",
      { cluster_id: "c", stat: "p99", db_name: "d", a: "x" },
      { a: "x", db_name: "d", stat: "p99", cluster_id: "c" },
    ],
    ["code-unit order", { B: "1", a: "2", _: "3" }, { _: "3", a: "2", B: "1" }],
  ])("ignores label order (%s)", (_name, x, y) => {
    expect(seriesKey("f", x)).toBe(seriesKey("f", y));
  });

  it("names the labels in sorted order, as Prometheus compares label sets", () => {
    expect(seriesKey("f", { b: "2", B: "0", a: "1" })).toBe(
      JSON.stringify(["f", "B", "0", "a", "1", "b", "2"]),
    );
  });

  it.each<[Record<string, string>, Record<string, string>]>([
    [{ a: "1" }, { a: "2" }],
    [{ a: "1" }, { b: "1" }],
    [{ a: "1,b" }, { a: "1", b: "" }],
  ])("tells %j and %j apart", (x, y) => {
    expect(seriesKey("f", x)).not.toBe(seriesKey("f", y));
  });
});

describe("MappingBuilder", () => {
  it("keeps the first sample of a series and lists each family once", () => {
    const b = new MappingBuilder();
    b.add(A, { x: "1" }, 1);
    b.add(B, { x: "1" }, 2);
    b.add(A, { x: "1" }, 3);
    b.add(A, { x: "2" }, 4);
    const r = b.result();
    expect(r.samples).toEqual([
      { family: "vdbcloud_a", labels: { x: "1" }, value: 1 },
      { family: "vdbcloud_b", labels: { x: "1" }, value: 2 },
      { family: "vdbcloud_a", labels: { x: "2" }, value: 4 },
    ]);
    expect(r.families).toEqual([A, B]);
  });

  it("adds up drops per reason and ignores non-positive counts", () => {
    const b = new MappingBuilder();
    b.drop("job_cap", 3);
    b.drop("job_cap");
    b.drop("unknown_unit", 0);
    b.drop("unparsable_value", -2);
    expect(b.result().dropped).toEqual({ job_cap: 4 });
  });

  it("adds prebuilt samples under the given family", () => {
    const b = new MappingBuilder();
    b.addSamples(A, [
      { family: "vdbcloud_a", labels: { s: "x" }, value: 1 },
      { family: "vdbcloud_a", labels: { s: "x" }, value: 0 },
    ]);
    expect(b.result()).toEqual({
      samples: [{ family: "vdbcloud_a", labels: { s: "x" }, value: 1 }],
      families: [A],
      dropped: {},
    });
  });
});

describe("MappingBuilder: the one numeric rule", () => {
  const SIGNED: FamilyDef = { name: "vdbcloud_amount", help: "An amount.", type: "gauge", signed: true };

  it.each([
    ["a finite positive value", A, 5, 5, {}],
    ["zero", A, 0, 0, {}],
    ["negative zero (not below zero)", A, -0, -0, {}],
    ['+Inf ("1e309" read as a number)', A, Number.POSITIVE_INFINITY, undefined, { non_finite_value: 1 }],
    ["-Inf", SIGNED, Number.NEGATIVE_INFINITY, undefined, { non_finite_value: 1 }],
    ["NaN", A, Number.NaN, undefined, { non_finite_value: 1 }],
    ["a negative size (cuSize -5)", A, -5, undefined, { negative_value: 1 }],
    ["a negative latency", A, -0.005, undefined, { negative_value: 1 }],
    ["a negative amount of a signed family (a credit)", SIGNED, -12.5, -12.5, {}],
  ])("%s", (_name, family, value, kept, dropped) => {
    const out = new MappingBuilder();
    out.add(family, { cluster_id: "c" }, value);
    const result = out.result();
    expect(result.samples.map((s) => s.value)).toEqual(kept === undefined ? [] : [kept]);
    expect(result.dropped).toEqual(dropped);
    // A dropped value declares no family: nothing of it reaches the exposition.
    expect(result.families).toHaveLength(kept === undefined ? 0 : 1);
  });

  it("a dropped value does not take the series: a later good one of it is kept", () => {
    const out = new MappingBuilder();
    out.add(A, { x: "1" }, Number.POSITIVE_INFINITY);
    out.add(A, { x: "1" }, 3);
    expect(out.result().samples).toEqual([{ family: "vdbcloud_a", labels: { x: "1" }, value: 3 }]);
  });
});
