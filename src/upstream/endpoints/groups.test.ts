import { describe, expect, it } from "vitest";
import { failure, TEST_AUTH_HEADERS, TEST_BASE_URL, testClient, useMockUpstream } from "../testkit.js";
import { groupMembersDataSchema, normalizeGroupMembers } from "./groups.js";

const upstream = useMockUpstream();

/** Matches a request for `path` with any query string (or none). */
const anyQuery = (path: string) => (p: string) => p.split("?")[0] === path;

const MEMBERS = [
  { username: "Ada Lovelace", email: "ada@example.com" },
  { username: "Alan Turing", email: "alan@example.com" },
];

describe("List Group Members over HTTP", () => {
  it("GETs /v2/groups/{groupId}/members with the page, and keeps counts only", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({
        method: "GET",
        path: "/v2/groups/grp%2F1/members",
        query: { currentPage: "1", pageSize: "10" },
        headers: TEST_AUTH_HEADERS,
      })
      .reply(200, { code: 0, data: { count: 7, currentPage: 1, pageSize: 10, members: MEMBERS } });
    const { client } = testClient();
    const page = await client.listGroupMembers({ groupId: "grp/1", pageSize: 10, currentPage: 1 });
    const { memberKeys, ...paging } = page;
    expect(paging).toStrictEqual({ total: 7, currentPage: 1, pageSize: 10, listed: 2 });
    // A hash per member, to tell a repeated page from a new one: never a name or an address.
    expect(memberKeys).toHaveLength(2);
    expect(new Set(memberKeys).size).toBe(2);
    expect(JSON.stringify(memberKeys)).not.toMatch(/Ada|Alan|example\.com/);
    // Names and addresses stop at the client.
    expect(JSON.stringify(page)).not.toMatch(/Ada|Alan|@example\.com/);
    upstream.assertNoPendingInterceptors();
  });

  it("answers an unknown group with a not_found error naming the endpoint template", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: anyQuery("/v2/groups/nope/members") })
      .reply(404, { code: 404, message: "group not found" });
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(client.listGroupMembers({ groupId: "nope", pageSize: 10, currentPage: 1 }));
    expect(err.code).toBe("not_found");
    expect(err.endpoint).toBe("GET /v2/groups/{groupId}/members");
  });

  it("rejects a count that is not a number as a schema error", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: anyQuery("/v2/groups/g/members") })
      .reply(200, { code: 0, data: { count: "many", members: [] } });
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(client.listGroupMembers({ groupId: "g", pageSize: 10, currentPage: 1 }));
    expect(err.code).toBe("schema_error");
  });
});

describe("normalizeGroupMembers variants", () => {
  it.each([
    {
      name: "the documented shape",
      data: { count: 12, currentPage: 2, pageSize: 10, members: MEMBERS },
      expected: { total: 12, currentPage: 2, pageSize: 10, listed: 2 },
    },
    {
      name: "numbers as strings",
      data: { count: "12", currentPage: "2", pageSize: "10", members: MEMBERS },
      expected: { total: 12, currentPage: 2, pageSize: 10, listed: 2 },
    },
    {
      name: "a member list without count or paging",
      data: { members: MEMBERS },
      expected: { total: null, currentPage: null, pageSize: null, listed: 2 },
    },
    {
      name: "count null and no members",
      data: { count: null, members: null },
      expected: { total: null, currentPage: null, pageSize: null, listed: 0 },
    },
    {
      name: "an empty group",
      data: { count: 0, currentPage: 1, pageSize: 10, members: [] },
      expected: { total: 0, currentPage: 1, pageSize: 10, listed: 0 },
    },
  ])("reads $name", ({ data, expected }) => {
    const { memberKeys, ...paging } = normalizeGroupMembers(groupMembersDataSchema.parse(data));
    expect(paging).toStrictEqual(expected);
    expect(memberKeys).toHaveLength(expected.listed);
  });

  it("rejects members that are not a list", () => {
    expect(groupMembersDataSchema.safeParse({ count: 1, members: "Ada" }).success).toBe(false);
  });
});
