import { describe, expect, it } from "vitest";
import { expectPagingFieldsRead, itKeepsRefusalCodes, itReadsEachItem, pageOf } from "../listingTestkit.js";
import { GCP_PRIVATE_ENDPOINT, REFERENCE_PRIVATE_ENDPOINTS } from "../privateEndpointsTestkit.js";
import { failure, TEST_AUTH_HEADERS, TEST_BASE_URL, testClient, useMockUpstream } from "../testkit.js";
import type { PrivateEndpoint } from "../types.js";
import { normalizePrivateEndpoints, privateEndpointsDataSchema } from "./privateEndpoints.js";

const upstream = useMockUpstream();
const ARGS = { projectId: "proj-asked", pageSize: 100, currentPage: 1 };
const PATH = "/v2/projects/proj-asked/privateEndpoints";

const read = (data: unknown) => normalizePrivateEndpoints(privateEndpointsDataSchema.parse(data), ARGS);

describe("List Private Endpoints over HTTP", () => {
  it("GETs the project's path with the page, and reads the reference's sample", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({
        method: "GET",
        path: PATH,
        query: { pageSize: "100", currentPage: "1" },
        headers: TEST_AUTH_HEADERS,
      })
      .reply(200, { code: 0, data: REFERENCE_PRIVATE_ENDPOINTS });
    const { client } = testClient();
    expect(await client.listPrivateEndpoints(ARGS)).toStrictEqual(
      pageOf({ total: 1, currentPage: 1, pageSize: 10 }, "endpoints", [
        {
          endpointId: "vpce-0123456789abcdef0",
          projectId: "proj-asked",
          regionId: "aws-us-west-2",
          cloudId: "aws",
          endpointService: "com.amazonaws.vpce.us-west-2.vpce-svc-0123456789abcdef0",
          endpointStatus: "AVAILABLE",
          endpointServiceStatus: "AVAILABLE",
        },
      ]),
    );
    upstream.assertNoPendingInterceptors();
  });

  it("encodes the project ID as one path segment", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: (p) => p.startsWith("/v2/projects/proj%2Fodd/privateEndpoints?") })
      .reply(200, { code: 0, data: { count: 0, endpoints: [] } });
    const { client } = testClient();
    const page = await client.listPrivateEndpoints({ ...ARGS, projectId: "proj/odd" });
    expect(page.endpoints).toEqual([]);
    upstream.assertNoPendingInterceptors();
  });

  itKeepsRefusalCodes(upstream, PATH, "GET /v2/projects/{projectId}/privateEndpoints", (client) =>
    client.listPrivateEndpoints(ARGS),
  );

  it("an endpoint without an ID is a schema error naming the path", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: (p) => p.startsWith(`${PATH}?`) })
      .reply(200, { code: 0, data: { count: 1, endpoints: [{ endpointStatus: "AVAILABLE" }] } });
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(client.listPrivateEndpoints(ARGS));
    expect(err.code).toBe("schema_error");
    expect(err.message).toContain("data.endpoints[0].endpointId");
  });
});

describe("normalizePrivateEndpoints", () => {
  const endpoint = (fields: Record<string, unknown>): PrivateEndpoint | undefined =>
    read({ endpoints: [{ endpointId: "vpce-1", ...fields }] }).endpoints[0];

  itReadsEachItem(endpoint, [
    // Google Cloud endpoints carry gcpProjectId; it is accepted and not kept.
    {
      name: "a Google Cloud endpoint with gcpProjectId",
      fields: { ...GCP_PRIVATE_ENDPOINT },
      want: {
        endpointId: "7481923649184729123",
        cloudId: "gcp",
        regionId: "gcp-us-west1",
        endpointStatus: "PENDING",
      },
    },
    // Statuses: no enum, so any string comes through as sent.
    { name: "AVAILABLE", fields: { endpointStatus: "AVAILABLE" }, want: { endpointStatus: "AVAILABLE" } },
    {
      name: "pendingAcceptance",
      fields: { endpointStatus: "pendingAcceptance" },
      want: { endpointStatus: "pendingAcceptance" },
    },
    {
      name: "REJECTED",
      fields: { endpointServiceStatus: "REJECTED" },
      want: { endpointServiceStatus: "REJECTED" },
    },
    {
      name: "a padded status",
      fields: { endpointStatus: " DELETING " },
      want: { endpointStatus: "DELETING" },
    },
    { name: "a blank status", fields: { endpointStatus: " " }, want: { endpointStatus: null } },
    { name: "no status", fields: {}, want: { endpointStatus: null, endpointServiceStatus: null } },
    {
      name: "a status of another type",
      fields: { endpointStatus: { s: 1 } },
      want: { endpointStatus: null },
    },
    // Description fields: "" when absent or unreadable, never a failure of the page.
    {
      name: "no region, cloud or service",
      fields: {},
      want: { regionId: "", cloudId: "", endpointService: "" },
    },
    { name: "a region of another type", fields: { regionId: [1] }, want: { regionId: "" } },
    // A numeric ID (a Google Cloud connection ID sent as a number) reads as its string.
    {
      name: "a numeric endpoint ID",
      fields: { endpointId: 7481923649184729 },
      want: { endpointId: "7481923649184729" },
    },
    // The items name no project: each is the asked project's.
    { name: "the asked project", fields: {}, want: { projectId: "proj-asked" } },
  ]);

  it("does not keep the Google Cloud project ID", () => {
    expect(JSON.stringify(endpoint({ ...GCP_PRIVATE_ENDPOINT }))).not.toContain("customer-network-prod");
  });

  it("reads a page's paging fields as given, null where absent", () => {
    expectPagingFieldsRead(read, "endpoints", "endpoints");
  });

  it("refuses an endpoint without an ID: an endpoint cannot be told from another without one", () => {
    expect(
      privateEndpointsDataSchema.safeParse({ endpoints: [{ endpointStatus: "AVAILABLE" }] }).success,
    ).toBe(false);
  });
});
