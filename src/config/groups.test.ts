import { describe, expect, it } from "vitest";
import { buildConfig } from "./load.js";
import { MINIMAL_RAW as base, expectProblem } from "./testkit.js";

describe("groups config", () => {
  it.each([
    ["interval under PT30S", { groups: { interval: "PT10S" } }, "groups.interval: must be at least PT30S"],
    ["an empty group ID", { groups: { ids: ["g-1", ""] } }, "groups.ids[1]: must not be empty"],
    ["a group ID that is not a string", { groups: { ids: [42] } }, "groups.ids[0]: must be a string"],
    [
      "a repeated group ID",
      { groups: { ids: ["g-1", "g-2", "g-1"] } },
      "groups.ids[2]: duplicate of groups.ids[0]",
    ],
    ["ids that are not a list", { groups: { ids: "g-1" } }, "groups.ids: must be a list"],
    ["an unknown key", { groups: { id: ["g-1"] } }, "groups.id"],
    ["camelCase instead of snake_case", { groups: { groupIds: ["g-1"] } }, "groups.groupIds"],
  ])("rejects %s", async (_name, raw, expected) => {
    await expectProblem(raw, expected);
  });

  it.each([
    ["absent", {}, { ids: [], intervalMs: 3_600_000 }],
    ["empty", { groups: null }, { ids: [], intervalMs: 3_600_000 }],
    ["ids: with nothing after it", { groups: { ids: null } }, { ids: [], intervalMs: 3_600_000 }],
    [
      "ids and interval",
      { groups: { ids: ["g-2", "g-1"], interval: "PT30S" } },
      { ids: ["g-2", "g-1"], intervalMs: 30_000 },
    ],
  ])("reads %s", async (_name, raw, expected) => {
    const config = await buildConfig({ ...base, ...raw }, { env: {} });
    expect(config.groups).toEqual(expected);
  });
});
