import { describe, expect, it } from "vitest";
import type { ApiKey } from "../../upstream/types.js";
import { privilegeOf, roleWord } from "./privilege.js";

const key = (orgRoles: string[], projectRoles: Array<[string, string]> = []): ApiKey => ({
  apiKeyId: "key-1",
  name: "k",
  orgRoles,
  projectRoles: projectRoles.map(([projectId, role]) => ({ projectId, role })),
  createdAtMs: null,
});

describe("roleWord", () => {
  it.each([
    ["Owner", "owner"],
    ["Org Owner", "owner"],
    ["Organization Owner", "owner"],
    ["Billing-Admin", "billingadmin"],
    ["Project Admin", "admin"],
    ["Read-Write", "readwrite"],
    ["READ_ONLY", "readonly"],
    ["Data Reader", "datareader"],
    ["Org Viewer", "viewer"],
    // A role that is only the prefix keeps it.
    ["Org", "org"],
  ])("%s reads as %s", (name, word) => {
    expect(roleWord(name)).toBe(word);
  });
});

describe("privilegeOf", () => {
  it.each<[string, ApiKey, string[], string[]]>([
    ["a monitoring key: Member, Read-Only", key(["Member"], [["p1", "Read-Only"]]), [], []],
    ["no role at all", key([]), [], []],
    ["the Owner organization role", key(["Owner"]), ["organization role Owner"], []],
    ["the older shape's Org Owner", key(["Org Owner"]), ["organization role Org Owner"], []],
    // The billing role is not above what the brief counts: Owner only.
    ["Billing-Admin", key(["Billing-Admin"]), [], []],
    [
      "project Admin and Read-Write",
      key(
        ["Member"],
        [
          ["p1", "Admin"],
          ["p2", "Read-Write"],
          ["p3", "Read-Only"],
        ],
      ),
      ["role Admin in project p1", "role Read-Write in project p2"],
      [],
    ],
    ["an older Project Owner", key([], [["p1", "Project Owner"]]), ["role Project Owner in project p1"], []],
    // Names outside the enums say nothing certain: reported, not counted.
    [
      "Org Viewer and Data Reader",
      key(
        ["Org Viewer"],
        [
          ["p1", "Data Reader"],
          ["p2", "Data Reader"],
        ],
      ),
      [],
      ["Org Viewer", "Data Reader"],
    ],
    [
      "excess and an undocumented name at once",
      key(["Owner"], [["p1", "Cluster Operator"]]),
      ["organization role Owner"],
      ["Cluster Operator"],
    ],
  ])("%s", (_name, k, excess, undocumented) => {
    expect(privilegeOf(k)).toEqual({ excess, undocumented });
  });
});
