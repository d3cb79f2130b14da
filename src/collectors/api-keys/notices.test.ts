import { describe, expect, it } from "vitest";
import type { ApiKey } from "../../upstream/types.js";
import { ApiKeyNotices, MAX_IDS_LOGGED, type NoticeInput } from "./notices.js";

const DAY = 86_400_000;
const NOW = 1000 * DAY;
const MAX_AGE = 365 * DAY;

const key = (id: string, fields: Partial<ApiKey> = {}): ApiKey => ({
  apiKeyId: id,
  name: id,
  orgRoles: ["Member"],
  projectRoles: [{ projectId: "p1", role: "Read-Only" }],
  createdAtMs: NOW - 10 * DAY,
  ...fields,
});
const ADMIN = { projectRoles: [{ projectId: "p1", role: "Admin" }] };
const input = (ownKeyId?: string): NoticeInput => ({ ownKeyId, maxAgeMs: MAX_AGE, nowMs: NOW });

/** Each listing's lines as [level, the line's own fields], in order. */
function replay(listings: ReadonlyArray<readonly ApiKey[]>, ownKeyId?: string) {
  const n = new ApiKeyNotices();
  return listings.map((l) => n.lines(l, input(ownKeyId)).map((line) => [line.level, line.fields]));
}

describe("ApiKeyNotices: the own key", () => {
  it.each<[string, ApiKey[][], unknown[][]]>([
    ["a read-only own key says nothing, cycle after cycle", [[key("own")], [key("own")]], [[], []]],
    [
      "more than it needs is one warning, not repeated while it stays",
      [[key("own", ADMIN)], [key("own", ADMIN)], [key("own", ADMIN)]],
      [[["warn", { api_key_id: "own", excess: ["role Admin in project p1"] }]], [], []],
    ],
    [
      "a change of what it holds is a change, and back to read-only an info line",
      [[key("own", ADMIN)], [key("own", { orgRoles: ["Owner"] })], [key("own")], [key("own")]],
      [
        [["warn", { api_key_id: "own", excess: ["role Admin in project p1"] }]],
        [["warn", { api_key_id: "own", excess: ["organization role Owner"] }]],
        [["info", { api_key_id: "own" }]],
        [],
      ],
    ],
    [
      "not listed is one info line; listed later, read-only, says nothing more than it is",
      [[key("other")], [key("other")], [key("own")]],
      [[["info", { api_key_id: "own" }]], [], [["info", { api_key_id: "own" }]]],
    ],
    [
      "an undocumented role is named beside the warning, never counted",
      [[key("own", { orgRoles: ["Owner"], projectRoles: [{ projectId: "p1", role: "Data Reader" }] })]],
      [
        [
          [
            "warn",
            { api_key_id: "own", excess: ["organization role Owner"], undocumented_roles: ["Data Reader"] },
          ],
        ],
      ],
    ],
  ])("%s", (_name, listings, want) => {
    expect(replay(listings, "own")).toEqual(want);
  });

  it("says nothing of an own key without api.key_id, and forgets a key_id no longer set", () => {
    const n = new ApiKeyNotices();
    expect(n.lines([key("own", ADMIN)], input())).toEqual([]);
    expect(n.lines([key("own", ADMIN)], input("own"))).toHaveLength(1);
    expect(n.size).toBe(1);
    expect(n.lines([key("own", ADMIN)], input())).toEqual([]);
    expect(n.size).toBe(0);
    // Set again: news again.
    expect(n.lines([key("own", ADMIN)], input("own"))).toHaveLength(1);
  });

  it("words the warning as what to do, and the not-listed line as why", () => {
    const n = new ApiKeyNotices();
    const [warn] = n.lines([key("own", ADMIN)], input("own"));
    expect(warn?.msg).toMatch(/more than monitoring needs.*Read-Only/);
    const [info] = new ApiKeyNotices().lines([], input("own"));
    expect(info?.msg).toMatch(/customized ACL keys only/);
  });
});

describe("ApiKeyNotices: old keys", () => {
  const old = (id: string) => key(id, { createdAtMs: NOW - 400 * DAY });

  it.each<[string, ApiKey[][], unknown[][]]>([
    ["young keys say nothing", [[key("a")], [key("a")]], [[], []]],
    [
      "keys older than max_age are one line, again only when which ones changes",
      [[old("a"), key("b")], [old("a"), key("b")], [old("a"), old("c")], [key("b")], [key("b")]],
      [
        [["info", { max_age: "P365D", keys: 1, api_key_ids: ["a"] }]],
        [],
        [["info", { max_age: "P365D", keys: 2, api_key_ids: ["a", "c"] }]],
        [["info", { max_age: "P365D", keys: 0 }]],
        [],
      ],
    ],
    ["a key without a creation time is never old", [[key("a", { createdAtMs: null })]], [[]]],
  ])("%s", (_name, listings, want) => {
    expect(replay(listings)).toEqual(want);
  });

  it("names at most MAX_IDS_LOGGED keys, and counts them all", () => {
    const many = Array.from({ length: MAX_IDS_LOGGED + 5 }, (_, i) => old(`k${i}`));
    const [line] = new ApiKeyNotices().lines(many, input());
    expect(line?.fields.keys).toBe(MAX_IDS_LOGGED + 5);
    expect(line?.fields.api_key_ids).toHaveLength(MAX_IDS_LOGGED);
  });
});
