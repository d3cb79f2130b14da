import { describe, expect, it } from "vitest";
import { bearerKey } from "./requestPath.js";

describe("bearerKey", () => {
  it.each([
    ["Bearer abc", "abc"],
    ["bearer  abc ", "abc"],
    ["Bearer user:pass", "user:pass"],
    ["Bearer ", undefined],
    ["Basic abc", undefined],
    ["abc", undefined],
    [undefined, undefined],
  ])("reads %j as %j", (header, key) => {
    expect(bearerKey(header)).toBe(key);
  });
});
