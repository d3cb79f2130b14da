import { describe, expect, it } from "vitest";
import { expectPagingFieldsRead, expectRefusalKept, itReadsEachItem, pageOf } from "../listingTestkit.js";
import { EXTERNAL_CRED, REFERENCE_STORAGE_INTEGRATIONS } from "../storageIntegrationsTestkit.js";
import { failure, readOneGet, TEST_BASE_URL, testClient, useMockUpstream } from "../testkit.js";
import type { StorageIntegration } from "../types.js";
import { normalizeStorageIntegrations, storageIntegrationsDataSchema } from "./storageIntegrations.js";
import { CONTROL_PLANE, DATA_PLANE, ENDPOINTS } from "./table.js";

const upstream = useMockUpstream();
const ARGS = { projectId: "proj-asked", pageSize: 100, currentPage: 1 };
const ONE = REFERENCE_STORAGE_INTEGRATIONS.storageIntegrations[0];

const read = (data: unknown) => normalizeStorageIntegrations(storageIntegrationsDataSchema.parse(data));

describe("List Storage Integrations over HTTP", () => {
  it("GETs /v2/storageIntegrations with the project and page, and reads the reference's shape", async () => {
    const page = await readOneGet(
      "/v2/storageIntegrations",
      { projectId: "proj-1", pageSize: 100, currentPage: 1 },
      REFERENCE_STORAGE_INTEGRATIONS,
      (client, args) => client.listStorageIntegrations(args),
    );
    expect(page).toStrictEqual(
      pageOf({ total: 1, currentPage: 1, pageSize: 10 }, "integrations", [
        {
          integrationId: "integ-xxxxxxxxxxxxxxxxxxxx",
          name: "my-storage-integration",
          status: "ACTIVE",
          message: null,
          regionId: "aws-us-west-2",
          bucketName: "my-bucket",
        },
      ]),
    );
  });

  it("drops every field the listing does not document: no credential identifier leaves the client", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: (p) => p.startsWith("/v2/storageIntegrations?") })
      .reply(200, {
        code: 0,
        data: { count: 1, storageIntegrations: [{ ...ONE, externalCred: EXTERNAL_CRED, ...EXTERNAL_CRED }] },
      });
    const { client } = testClient();
    const text = JSON.stringify(await client.listStorageIntegrations(ARGS));
    for (const secret of Object.values(EXTERNAL_CRED)) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/externalCred|roleArn|externalId|serviceAccount/);
  });

  it("a malformed integration is a schema error that names paths, never the credentials' values", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: (p) => p.startsWith("/v2/storageIntegrations?") })
      .reply(200, {
        code: 0,
        data: {
          count: 1,
          storageIntegrations: [{ integrationId: { nested: true }, externalCred: EXTERNAL_CRED }],
        },
      });
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(client.listStorageIntegrations(ARGS));
    expect(err.code).toBe("schema_error");
    expect(err.message).toContain("data.storageIntegrations[0].integrationId");
    for (const secret of Object.values(EXTERNAL_CRED)) expect(err.message).not.toContain(secret);
  });

  it("the newer pages' auth failure 1800 comes back with its code", () =>
    expectRefusalKept(
      upstream,
      "/v2/storageIntegrations",
      "GET /v2/storageIntegrations",
      (client) => client.listStorageIntegrations(ARGS),
      { code: 1800, message: "User hasn't authenticated", want: "key_refused" },
    ));
});

describe("Describe Storage Integration", () => {
  // Its answer carries externalCred (role ARN, external ID, service account): the exporter has
  // no way to ask for it, so no change elsewhere can start calling it by mistake.
  const describePath = /\/storageIntegrations\/(\{[^}]*\}|[^/?\s]+)/;

  it("is declared by no endpoint: no template reaches /storageIntegrations/{...}", () => {
    const every = [...Object.values(CONTROL_PLANE), ...Object.values(DATA_PLANE)];
    expect(ENDPOINTS.filter((e) => describePath.test(e))).toEqual([]);
    expect(every.filter((d) => describePath.test(d.endpoint)).map((d) => d.endpoint)).toEqual([]);
    // Nor does any request a declaration builds, whatever it is asked for.
    const spec = CONTROL_PLANE.listStorageIntegrations.build({ ...ARGS, projectId: "x/../integ-1" });
    expect(spec.path).toBe("/v2/storageIntegrations");
  });

  it("the pattern above does find a describe path (so the test above can fail)", () => {
    expect(describePath.test("GET /v2/storageIntegrations/{integrationId}")).toBe(true);
    expect(describePath.test("GET /v2/storageIntegrations/integ-123")).toBe(true);
    expect(describePath.test("GET /v2/storageIntegrations")).toBe(false);
  });
});

describe("normalizeStorageIntegrations", () => {
  const integration = (fields: Record<string, unknown>): StorageIntegration | undefined =>
    read({ storageIntegrations: [{ integrationId: "integ-1", ...fields }] }).integrations[0];

  itReadsEachItem(integration, [
    { name: "status ACTIVE", fields: { status: "ACTIVE" }, want: { status: "ACTIVE" } },
    { name: "status ERROR", fields: { status: "ERROR" }, want: { status: "ERROR" } },
    // Statuses outside the public two are read as they come (the mapping adds them lowercased).
    { name: "status PENDING", fields: { status: "PENDING" }, want: { status: "PENDING" } },
    { name: "status padded", fields: { status: " ERROR " }, want: { status: "ERROR" } },
    { name: "status blank", fields: { status: "" }, want: { status: null } },
    { name: "status absent", fields: {}, want: { status: null } },
    { name: "status not a string", fields: { status: { code: 1 } }, want: { status: null } },
    // The message: free text when it says something, else null.
    {
      name: "a message",
      fields: { message: "Access Denied: s3:PutObject on my-bucket" },
      want: { message: "Access Denied: s3:PutObject on my-bucket" },
    },
    { name: "a padded message", fields: { message: "  no bucket \n" }, want: { message: "no bucket" } },
    { name: "an empty message", fields: { message: "" }, want: { message: null } },
    { name: "a null message", fields: { message: null }, want: { message: null } },
    { name: "no message", fields: {}, want: { message: null } },
    // Text fields left out read as "", a number as its text.
    { name: "no name", fields: {}, want: { name: "", regionId: "", bucketName: "" } },
    {
      name: "name, region and bucket",
      fields: { name: "exports", regionId: "gcp-us-west1", bucketName: "bkt" },
      want: { name: "exports", regionId: "gcp-us-west1", bucketName: "bkt" },
    },
    { name: "a numeric ID", fields: { integrationId: 42 }, want: { integrationId: "42" } },
  ]);

  it("reads a page's paging fields as given, null where absent", () => {
    expectPagingFieldsRead(read, "storageIntegrations", "integrations");
  });

  it("refuses an integration without an ID: one cannot be told from another without it", () => {
    expect(storageIntegrationsDataSchema.safeParse({ storageIntegrations: [{ name: "x" }] }).success).toBe(
      false,
    );
  });
});
