import { describe, expect, it } from "vitest";
import { API_KEY_PERSONAL, OLDER_SAMPLE_API_KEYS, REFERENCE_API_KEYS } from "../apiKeysTestkit.js";
import { expectPagingFieldsRead, itKeepsRefusalCodes, itReadsEachItem, pageOf } from "../listingTestkit.js";
import { refusalOf } from "../refusals.js";
import referenceSample from "../samples/list-api-keys-v2.json" with { type: "json" };
import { failure, readOneGet, TEST_BASE_URL, testClient, useMockUpstream } from "../testkit.js";
import type { ApiKey } from "../types.js";
import { apiKeysDataSchema, normalizeApiKeys } from "./apiKeys.js";

const upstream = useMockUpstream();
const ARGS = { pageSize: 100, currentPage: 1 };
const PATH = "/v2/api-keys";
const GATEWAY_PATH = "/v2/apiKeys";

/** One answer of `status` and `body` to the next GET of `path` (any query). */
function answerAt(path: string, status: number, body: unknown): void {
  upstream
    .get(TEST_BASE_URL)
    .intercept({ method: "GET", path: (p: string) => p.split("?")[0] === path })
    .reply(status, body as Record<string, unknown>);
}

const read = (data: unknown) => normalizeApiKeys(apiKeysDataSchema.parse(data));

/** Nothing a person left on a key, in any form a test can read. */
function expectNothingPersonal(value: unknown): void {
  const text = JSON.stringify(value);
  for (const personal of Object.values(API_KEY_PERSONAL)) expect(text).not.toContain(personal);
  for (const field of ["creatorName", "createdBy", "description"]) expect(text).not.toContain(field);
}

describe("List API Keys over HTTP", () => {
  it("GETs the listing with the page, and reads the reference's current shape", async () => {
    const page = await readOneGet(PATH, ARGS, REFERENCE_API_KEYS, (client, args) => client.listApiKeys(args));
    expect(page).toStrictEqual(
      pageOf({ total: 1, currentPage: 1, pageSize: 10 }, "apiKeys", [
        {
          apiKeyId: "key-0123456789abcdef",
          name: "monitoring",
          orgRoles: ["Member"],
          projectRoles: [{ projectId: "proj-0123456789abcdef", role: "Read-Only" }],
          createdAtMs: Date.parse("2024-11-05T08:30:00Z"),
        },
      ]),
    );
    expectNothingPersonal(page);
  });

  it("reads a key that is not an Org Owner's (96041, as the live service answers it) as not permitted, asking no other path", async () => {
    answerAt(PATH, 200, {
      code: 96041,
      message: "Only API keys with Org Owner permission can access this endpoint",
    });
    const err = await testClient()
      .client.listApiKeys(ARGS)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(refusalOf(err)).toBe("not_permitted");
  });

  describe("where the gateway routes its own spelling (/v2/apiKeys, as the live service was seen to)", () => {
    const NO_ROUTE = { message: "no Route matched with those values" };
    const ok = { code: 0, data: REFERENCE_API_KEYS };

    it("asks the gateway's path once the reference's is not offered, then asks it first", async () => {
      answerAt(PATH, 404, NO_ROUTE);
      answerAt(GATEWAY_PATH, 200, ok);
      answerAt(GATEWAY_PATH, 200, ok);
      const { client, observer } = testClient();
      for (let i = 0; i < 2; i += 1) expect((await client.listApiKeys(ARGS)).apiKeys).toHaveLength(1);
      // Three answers for two listings, each counted under the endpoint's one template.
      expect(observer.events).toEqual([
        { kind: "attempt", endpoint: "GET /v2/api-keys", outcome: "not_found" },
        { kind: "attempt", endpoint: "GET /v2/api-keys", outcome: "success" },
        { kind: "attempt", endpoint: "GET /v2/api-keys", outcome: "success" },
      ]);
    });

    it("goes back to the reference's path when the gateway's is no longer offered", async () => {
      answerAt(PATH, 404, NO_ROUTE);
      answerAt(GATEWAY_PATH, 200, ok);
      answerAt(GATEWAY_PATH, 404, NO_ROUTE);
      answerAt(PATH, 200, ok);
      const { client, observer } = testClient();
      await client.listApiKeys(ARGS);
      expect((await client.listApiKeys(ARGS)).apiKeys).toHaveLength(1);
      // The second listing asked the gateway's path first, as the one that answered last.
      expect(observer.events.map((e) => (e.kind === "attempt" ? e.outcome : e.kind))).toEqual([
        "not_found",
        "success",
        "not_found",
        "success",
      ]);
    });

    it("is not offered where neither path is, and says both", async () => {
      answerAt(PATH, 404, NO_ROUTE);
      answerAt(GATEWAY_PATH, 404, NO_ROUTE);
      const err = await testClient()
        .client.listApiKeys(ARGS)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(refusalOf(err)).toBe("not_offered");
      expect(err).toMatchObject({ endpoint: "GET /v2/api-keys", httpStatus: 404 });
      expect(String(err)).toContain("at /v2/api-keys or /v2/apiKeys");
    });
  });

  it.each([
    {
      name: "the reference page's own success sample, envelope and all (it counts 2 keys, lists 1)",
      body: referenceSample,
      total: 2,
      keys: [
        {
          apiKeyId: "key-xxxxxxxxxxxxxx",
          name: "Data Pipeline",
          orgRoles: ["Org Viewer"],
          projectRoles: [{ projectId: "proj-xxxxxxxx", role: "Data Reader" }],
          createdAtMs: Date.UTC(2026, 6, 22, 2, 30),
        },
      ],
      personal: ["Alice", "alice@example.com", "ingestion pipeline"],
    },
    {
      name: "the older shape the list's sample shows",
      body: { code: 0, data: OLDER_SAMPLE_API_KEYS },
      total: 1,
      keys: [
        {
          apiKeyId: "key-fedcba9876543210",
          name: "etl-reader",
          orgRoles: ["Org Viewer"],
          projectRoles: [
            { projectId: "proj-0123456789abcdef", role: "Data Reader" },
            { projectId: "proj-fedcba9876543210", role: "Admin" },
          ],
          createdAtMs: 1_700_000_000_000,
        },
      ],
      personal: Object.values(API_KEY_PERSONAL),
    },
  ])("reads $name, keeping nothing personal", async ({ body, total, keys, personal }) => {
    answerAt(PATH, 200, body);
    const page = await testClient().client.listApiKeys(ARGS);
    expect(page.total).toBe(total);
    expect(page.apiKeys).toStrictEqual(keys);
    for (const p of personal) expect(JSON.stringify(page)).not.toContain(p);
    expectNothingPersonal(page);
  });

  itKeepsRefusalCodes(upstream, PATH, "GET /v2/api-keys", (client) => client.listApiKeys(ARGS));

  it("HTTP 403 is not permitted", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: (p) => p.startsWith(`${PATH}?`) })
      .reply(403, { code: 96013, message: "Org owner or project owner is needed" });
    const { client } = testClient({ maxRetries: 0 });
    expect(refusalOf(await failure(client.listApiKeys(ARGS)))).toBe("not_permitted");
  });

  it("a key without an ID is a schema error naming the path, never a person's field", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: (p) => p.startsWith(`${PATH}?`) })
      .reply(200, { code: 0, data: { count: 1, apiKeys: [{ name: "x", ...API_KEY_PERSONAL }] } });
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(client.listApiKeys(ARGS));
    expect(err.code).toBe("schema_error");
    expect(err.message).toContain("data.apiKeys[0].apiKeyId");
    for (const personal of Object.values(API_KEY_PERSONAL)) expect(err.message).not.toContain(personal);
  });
});

describe("normalizeApiKeys", () => {
  const key = (fields: Record<string, unknown>): ApiKey | undefined =>
    read({ apiKeys: [{ apiKeyId: "key-1", ...API_KEY_PERSONAL, ...fields }] }).apiKeys[0];

  itReadsEachItem(key, [
    // The current shape: one org role, one role per project.
    {
      name: "each documented org role",
      fields: { orgRole: "Billing-Admin" },
      want: { orgRoles: ["Billing-Admin"] },
    },
    {
      name: "an org role outside the enum",
      fields: { orgRole: "Org Viewer" },
      want: { orgRoles: ["Org Viewer"] },
    },
    { name: "a padded org role", fields: { orgRole: " Owner " }, want: { orgRoles: ["Owner"] } },
    { name: "no org role", fields: {}, want: { orgRoles: [], projectRoles: [] } },
    { name: "a blank org role", fields: { orgRole: " " }, want: { orgRoles: [] } },
    { name: "an org role of another type", fields: { orgRole: [1] }, want: { orgRoles: [] } },
    {
      name: "projects with a role each, any role name",
      fields: {
        projects: [
          { projectId: "p1", projectName: "one", role: "Admin", allCluster: true, clusters: [] },
          {
            projectId: "p2",
            role: "Data Reader",
            allVolume: false,
            volumes: [{ volumeId: "v", volumeName: "n" }],
          },
        ],
      },
      want: {
        projectRoles: [
          { projectId: "p1", role: "Admin" },
          { projectId: "p2", role: "Data Reader" },
        ],
      },
    },
    // The older shape: bindings, and a list of roles per project (names or objects).
    {
      name: "orgRoles bindings",
      fields: { orgRoles: [{ bindingId: "b", roleId: "r", roleName: "Org Viewer", roleType: "ORG" }] },
      want: { orgRoles: ["Org Viewer"] },
    },
    {
      name: "orgRoles given as names, one odd element left out",
      fields: { orgRoles: ["Owner", { roleId: "no name" }, 7] },
      want: { orgRoles: ["Owner", "7"] },
    },
    {
      name: "projectRoles with names and objects",
      fields: {
        projectRoles: [
          { projectId: "p1", roles: ["Read-Only", { roleName: "Read-Write" }] },
          { projectId: "p2", roles: [] },
          { roles: ["Admin"] },
        ],
      },
      want: {
        projectRoles: [
          { projectId: "p1", role: "Read-Only" },
          { projectId: "p1", role: "Read-Write" },
        ],
      },
    },
    // Both shapes in one answer: each role once.
    {
      name: "both shapes at once",
      fields: {
        orgRole: "Member",
        orgRoles: [{ roleName: "Member" }, { roleName: "Billing-Admin" }],
        projects: [{ projectId: "p1", role: "Admin" }],
        projectRoles: [{ projectId: "p1", roles: ["Admin", "Read-Only"] }],
      },
      want: {
        orgRoles: ["Member", "Billing-Admin"],
        projectRoles: [
          { projectId: "p1", role: "Admin" },
          { projectId: "p1", role: "Read-Only" },
        ],
      },
    },
    {
      name: "a project without a role",
      fields: { projects: [{ projectId: "p1" }] },
      want: { projectRoles: [] },
    },
    { name: "projects of another type", fields: { projects: "p1" }, want: { projectRoles: [] } },
    // createTime: ISO (with or without a zone), epoch seconds or milliseconds, or not known.
    {
      name: "an ISO createTime",
      fields: { createTime: "2024-11-05T08:30:00Z" },
      want: { createdAtMs: Date.parse("2024-11-05T08:30:00Z") },
    },
    {
      name: "a zone-less createTime, read as UTC",
      fields: { createTime: "2024-11-05T08:30:00" },
      want: { createdAtMs: Date.parse("2024-11-05T08:30:00Z") },
    },
    {
      name: "an epoch in seconds",
      fields: { createTime: 1_700_000_000 },
      want: { createdAtMs: 1_700_000_000_000 },
    },
    {
      name: "an epoch in ms as text",
      fields: { createTime: "1700000000000" },
      want: { createdAtMs: 1_700_000_000_000 },
    },
    { name: "no createTime", fields: {}, want: { createdAtMs: null } },
    { name: "an unreadable createTime", fields: { createTime: "soon" }, want: { createdAtMs: null } },
    // Name and ID.
    { name: "no name", fields: {}, want: { name: "" } },
    { name: "a numeric key ID", fields: { apiKeyId: 12345 }, want: { apiKeyId: "12345" } },
  ]);

  it("keeps nothing of a person: the parse itself drops creatorName, createdBy and description", () => {
    const parsed = apiKeysDataSchema.parse(REFERENCE_API_KEYS);
    expect(Object.keys(parsed.apiKeys?.[0] ?? {}).sort()).toEqual(
      ["apiKeyId", "createTime", "name", "orgRole", "orgRoles", "projectRoles", "projects"].sort(),
    );
    expectNothingPersonal(parsed);
    expectNothingPersonal(read(OLDER_SAMPLE_API_KEYS));
    // A creator that is a key ID (createdBy may be one) is dropped as well.
    expectNothingPersonal(key({ createdBy: "key-creator-0001", creatorName: API_KEY_PERSONAL.creatorName }));
    expect(JSON.stringify(key({ createdBy: "key-creator-0001" }))).not.toContain("key-creator-0001");
  });

  it("reads a page's paging fields as given, null where absent", () => {
    expectPagingFieldsRead(read, "apiKeys", "apiKeys");
  });

  it("refuses a key without an ID: a key cannot be told from another without one", () => {
    expect(apiKeysDataSchema.safeParse({ apiKeys: [{ name: "x" }] }).success).toBe(false);
  });
});
