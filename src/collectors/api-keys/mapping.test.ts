import { describe, expect, it } from "vitest";
import {
  API_KEY_PERSONAL,
  OLDER_SAMPLE_API_KEYS,
  REFERENCE_API_KEYS,
} from "../../upstream/apiKeysTestkit.js";
import { apiKeysDataSchema, normalizeApiKeys } from "../../upstream/endpoints/apiKeys.js";
import type { ApiKey } from "../../upstream/types.js";
import { DOCUMENTED_ORG_ROLES, mapApiKeys } from "./mapping.js";

const KEY: ApiKey = {
  apiKeyId: "key-1",
  name: "monitoring",
  orgRoles: ["Member"],
  projectRoles: [{ projectId: "proj-1", role: "Read-Only" }],
  createdAtMs: 1_700_000_000_000,
};
const at = (fields: Partial<ApiKey>): ApiKey => ({ ...KEY, ...fields });

/** The samples of `family` as [labels, value]. */
const of = (keys: readonly ApiKey[], family: string, ownKeyId?: string) =>
  mapApiKeys(keys, ownKeyId)
    .samples.filter((s) => s.family === family)
    .map((s) => [s.labels, s.value]);

describe("mapApiKeys", () => {
  it("maps a key to its info, creation time and project roles, and counts it by org role", () => {
    expect(mapApiKeys([KEY]).samples).toEqual([
      {
        family: "vdbcloud_api_key_info",
        labels: { api_key_id: "key-1", name: "monitoring", org_role: "Member" },
        value: 1,
      },
      {
        family: "vdbcloud_api_key_created_timestamp_seconds",
        labels: { api_key_id: "key-1" },
        value: 1_700_000_000,
      },
      {
        family: "vdbcloud_api_key_project_role",
        labels: { api_key_id: "key-1", project_id: "proj-1", role: "Read-Only" },
        value: 1,
      },
      { family: "vdbcloud_api_keys", labels: { org_role: "Owner" }, value: 0 },
      { family: "vdbcloud_api_keys", labels: { org_role: "Member" }, value: 1 },
      { family: "vdbcloud_api_keys", labels: { org_role: "Billing-Admin" }, value: 0 },
    ]);
  });

  it.each<[string, ApiKey[], Array<[string, number]>]>([
    ["no key: the documented roles at 0", [], DOCUMENTED_ORG_ROLES.map((r) => [r, 0])],
    [
      "a role outside the enum, and none, after the documented ones",
      [
        at({ apiKeyId: "a", orgRoles: ["Org Viewer"] }),
        at({ apiKeyId: "b", orgRoles: [] }),
        at({ apiKeyId: "c" }),
      ],
      [
        ["Owner", 0],
        ["Member", 1],
        ["Billing-Admin", 0],
        ["Org Viewer", 1],
        ["", 1],
      ],
    ],
    [
      "several org roles (the older shape) count once, joined",
      [at({ orgRoles: ["Member", "Billing-Admin"] })],
      [
        ["Owner", 0],
        ["Member", 0],
        ["Billing-Admin", 0],
        ["Member,Billing-Admin", 1],
      ],
    ],
  ])("counts by org role: %s", (_name, keys, want) => {
    expect(
      of(keys, "vdbcloud_api_keys").map(([l, v]) => [(l as Record<string, string>).org_role, v]),
    ).toEqual(want);
  });

  it("labels a key without org role, name or time as such, and keeps any role name", () => {
    const k = at({
      orgRoles: [],
      name: "",
      createdAtMs: null,
      projectRoles: [{ projectId: "p", role: "Data Reader" }],
    });
    expect(of([k], "vdbcloud_api_key_info")).toEqual([[{ api_key_id: "key-1", name: "", org_role: "" }, 1]]);
    expect(of([k], "vdbcloud_api_key_created_timestamp_seconds")).toEqual([]);
    expect(of([k], "vdbcloud_api_key_project_role")).toEqual([
      [{ api_key_id: "key-1", project_id: "p", role: "Data Reader" }, 1],
    ]);
  });

  it.each<[string, ApiKey[], string | undefined, Array<[Record<string, string>, number]>]>([
    ["without api.key_id: no series", [KEY], undefined, []],
    ["the own key read-only: 0", [KEY], "key-1", [[{ api_key_id: "key-1" }, 0]]],
    ["the own key Owner: 1", [at({ orgRoles: ["Owner"] })], "key-1", [[{ api_key_id: "key-1" }, 1]]],
    [
      "the own key Admin in a project: 1",
      [at({ projectRoles: [{ projectId: "p1", role: "Admin" }] })],
      "key-1",
      [[{ api_key_id: "key-1" }, 1]],
    ],
    [
      "another key's Owner role says nothing of the own key",
      [KEY, at({ apiKeyId: "key-2", orgRoles: ["Owner"] })],
      "key-1",
      [[{ api_key_id: "key-1" }, 0]],
    ],
    [
      "an undocumented role name is not excess: 0",
      [at({ orgRoles: ["Org Viewer"] })],
      "key-1",
      [[{ api_key_id: "key-1" }, 0]],
    ],
    ["the own key not listed: no series", [KEY], "key-9", []],
  ])("excess privilege: %s", (_name, keys, own, want) => {
    expect(of(keys, "vdbcloud_api_key_excess_privilege", own)).toEqual(want);
  });

  it("maps both shapes of the reference, word for word, with nothing of a person", () => {
    const keys = [REFERENCE_API_KEYS, OLDER_SAMPLE_API_KEYS].flatMap(
      (data) => normalizeApiKeys(apiKeysDataSchema.parse(data)).apiKeys,
    );
    const r = mapApiKeys(keys, "key-fedcba9876543210");
    expect(r.samples.filter((s) => s.family === "vdbcloud_api_key_info").map((s) => s.labels)).toEqual([
      { api_key_id: "key-0123456789abcdef", name: "monitoring", org_role: "Member" },
      { api_key_id: "key-fedcba9876543210", name: "etl-reader", org_role: "Org Viewer" },
    ]);
    expect(
      r.samples.filter((s) => s.family === "vdbcloud_api_key_project_role").map((s) => s.labels.role),
    ).toEqual(["Read-Only", "Data Reader", "Admin"]);
    // The older sample's key holds Admin in a project: more than monitoring needs.
    expect(r.samples.find((s) => s.family === "vdbcloud_api_key_excess_privilege")?.value).toBe(1);
    const text = JSON.stringify(r);
    for (const personal of Object.values(API_KEY_PERSONAL)) expect(text).not.toContain(personal);
  });

  it("declares every family it uses with a HELP naming List API Keys", () => {
    const r = mapApiKeys([KEY], "key-1");
    expect(r.families.map((f) => f.name)).toEqual([
      "vdbcloud_api_key_info",
      "vdbcloud_api_key_created_timestamp_seconds",
      "vdbcloud_api_key_project_role",
      "vdbcloud_api_keys",
      "vdbcloud_api_key_excess_privilege",
    ]);
    for (const f of r.families) expect(f.help).toMatch(/\(upstream List API Keys[^)]*\)\.$/);
  });
});
