import { describe, expect, it } from "vitest";
import { jsonShapeProblem, UPSTREAM_JSON_LIMITS } from "./jsonShape.js";

const LIMITS = { maxDepth: 4, maxContainers: 6, maxArrayItems: 3 };
const problem = (text: string) => jsonShapeProblem(Buffer.from(text), LIMITS);

describe("jsonShapeProblem", () => {
  it.each([
    ["a flat object", '{"a":1,"b":[1,2,3]}', undefined],
    ["an array of exactly the item cap", "[1,2,3]", undefined],
    ["an array one past the item cap", "[1,2,3,4]", "has an array of more than 3 items"],
    ["commas of an object never count as items", '{"a":1,"b":2,"c":3,"d":4,"e":5}', undefined],
    ["nesting at the depth cap", "[[[[]]]]", undefined],
    ["nesting one past the depth cap", "[[[[[]]]]]", "nests deeper than 4 levels"],
    ["containers at the cap", '{"a":[],"b":[],"c":{},"d":{},"e":[]}', undefined],
    [
      "one container past the cap",
      '{"a":[],"b":[],"c":{},"d":{},"e":[],"f":[]}',
      "holds more than 6 arrays and objects",
    ],
    ["brackets and commas inside strings are text", '["[[[[[,,,,", "{{{{{"]', undefined],
    ["an escaped quote does not end a string", '["\\"[[[[[[", 1]', undefined],
    ["an escaped backslash ends before the quote", '["\\\\", [[[[[]]]]]]', "nests deeper than 4 levels"],
    ["items of an inner array count on their own", "[[1,2,3],[1,2,3],[1,2,3]]", undefined],
    ["multi-byte text never reads as a delimiter", '["ÿ[[[[[[ü", "日本"]', undefined],
  ])("%s", (_name, text, want) => {
    expect(problem(text)).toBe(want);
  });

  it("refuses the shapes that took the heap to gigabytes, in milliseconds", () => {
    const emptyArrays = Buffer.from(`{"code":0,"data":[${new Array(5_500_000).fill("[]").join(",")}]}`);
    const nested = Buffer.from(`{"code":0,"data":${"[".repeat(8_000_000)}${"]".repeat(8_000_000)}}`);
    const started = performance.now();
    expect(jsonShapeProblem(emptyArrays, UPSTREAM_JSON_LIMITS)).toMatch(/more than/);
    expect(jsonShapeProblem(nested, UPSTREAM_JSON_LIMITS)).toMatch(/deeper/);
    // Each stops at its limit: far less than reading 16 MB, let alone parsing it.
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
