import { describe, expect, it } from "vitest";
import * as z from "zod";
import { optional, uniqueList } from "./schemaKit.js";

describe("optional", () => {
  it.each<[value: unknown, expected: object]>([
    [undefined, {}],
    [0, { k: 0 }],
    ["", { k: "" }],
    [null, { k: null }],
  ])("%j", (value, expected) => {
    const out = optional("k", value);
    expect(out).toEqual(expected);
    expect("k" in out).toBe(value !== undefined);
  });
});

describe("uniqueList", () => {
  // Renamed after the check, as schema.ts does: the check reads the file's own keys.
  const schema = uniqueList(
    z.object({ id: z.string() }),
    (item) => (typeof item.id === "string" ? item.id : undefined),
    (first, key) => `duplicate ${key} of [${first}]`,
  ).transform((items) => items.map((item) => ({ key: item.id })));

  it("passes a list without duplicates through", () => {
    expect(schema.parse([{ id: "a" }, { id: "b" }])).toEqual([{ key: "a" }, { key: "b" }]);
  });

  it.each<[items: unknown[], issues: { path: PropertyKey[]; message: string }[]]>([
    [[{ id: "a" }, { id: "b" }], []],
    [[{ id: "a" }, { id: "b" }, { id: "a" }], [{ path: [2], message: "duplicate a of [0]" }]],
    // The check still runs beside item errors, so one run reports both.
    [
      [{ id: 1 }, { id: "a" }, { id: "a" }],
      [
        { path: [0, "id"], message: expect.any(String) },
        { path: [2], message: "duplicate a of [1]" },
      ],
    ],
  ])("%j", (items, issues) => {
    const result = schema.safeParse(items);
    expect(result.success ? [] : result.error.issues.map(({ path, message }) => ({ path, message }))).toEqual(
      issues,
    );
  });
});
