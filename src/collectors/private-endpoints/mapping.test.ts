import { describe, expect, it } from "vitest";
import { listProjectPages } from "../../polling/projectTask.js";
import {
  normalizePrivateEndpoints,
  privateEndpointsDataSchema,
} from "../../upstream/endpoints/privateEndpoints.js";
import { GCP_PRIVATE_ENDPOINT, REFERENCE_PRIVATE_ENDPOINTS } from "../../upstream/privateEndpointsTestkit.js";
import type { CloudApi, PrivateEndpoint, PrivateEndpointPage } from "../../upstream/types.js";
import { mapPrivateEndpoints } from "./mapping.js";
import { PRIVATE_ENDPOINT_PAGES } from "./tasks.js";

const ENDPOINT: PrivateEndpoint = {
  endpointId: "vpce-1",
  projectId: "proj-1",
  regionId: "aws-us-west-2",
  cloudId: "aws",
  endpointService: "com.amazonaws.vpce.us-west-2.vpce-svc-1",
  endpointStatus: "AVAILABLE",
  endpointServiceStatus: "AVAILABLE",
};

const ID = { project_id: "proj-1", endpoint_id: "vpce-1" };
const INFO = "vdbcloud_private_endpoint_info";
const STATUS = "vdbcloud_private_endpoint_status";
const SERVICE = "vdbcloud_private_endpoint_service_status";

/** The samples of `family` for one endpoint, as `status=value` pairs in the order written. */
const statesOf = (endpoint: Partial<PrivateEndpoint>, family: string) =>
  mapPrivateEndpoints([{ ...ENDPOINT, ...endpoint }], "proj-1")
    .samples.filter((s) => s.family === family)
    .map((s) => `${s.labels.status}=${s.value}`);

describe("mapPrivateEndpoints", () => {
  it("maps an available endpoint to its info and both state sets", () => {
    expect(mapPrivateEndpoints([ENDPOINT], "proj-1").samples).toEqual([
      {
        family: INFO,
        labels: {
          project_id: "proj-1",
          region_id: "aws-us-west-2",
          cloud_id: "aws",
          endpoint_id: "vpce-1",
          endpoint_service: "com.amazonaws.vpce.us-west-2.vpce-svc-1",
        },
        value: 1,
      },
      { family: STATUS, labels: { ...ID, status: "available" }, value: 1 },
      { family: SERVICE, labels: { ...ID, status: "available" }, value: 1 },
    ]);
  });

  it.each<[string, string | null, string[]]>([
    ["AVAILABLE", "AVAILABLE", ["available=1"]],
    ["available in lower case", "available", ["available=1"]],
    ["Available", "Available", ["available=1"]],
    ["PENDING", "PENDING", ["available=0", "pending=1"]],
    ["REJECTED", "REJECTED", ["available=0", "rejected=1"]],
    ["PENDING_ACCEPTANCE", "PENDING_ACCEPTANCE", ["available=0", "pending_acceptance=1"]],
    ["pendingAcceptance", "pendingAcceptance", ["available=0", "pending_acceptance=1"]],
    ["Pending Acceptance", "Pending Acceptance", ["available=0", "pending_acceptance=1"]],
    ["no status", null, []],
  ])("endpoint status %s", (_name, status, want) => {
    expect(statesOf({ endpointStatus: status }, STATUS)).toEqual(want);
    // Each state set reads its own field only.
    expect(statesOf({ endpointStatus: status }, SERVICE)).toEqual(["available=1"]);
  });

  it.each<[string, string | null, string[]]>([
    ["AVAILABLE", "AVAILABLE", ["available=1"]],
    ["DELETING", "DELETING", ["available=0", "deleting=1"]],
    ["FAILED", "FAILED", ["available=0", "failed=1"]],
    ["no status", null, []],
  ])("endpoint service status %s", (_name, status, want) => {
    expect(statesOf({ endpointServiceStatus: status }, SERVICE)).toEqual(want);
    expect(statesOf({ endpointServiceStatus: status }, STATUS)).toEqual(["available=1"]);
  });

  it("keeps the info series of an endpoint without its description fields, with empty labels", () => {
    const r = mapPrivateEndpoints(
      [{ ...ENDPOINT, regionId: "", cloudId: "", endpointService: "" }],
      "proj-1",
    );
    expect(r.samples.find((s) => s.family === INFO)?.labels).toEqual({
      project_id: "proj-1",
      region_id: "",
      cloud_id: "",
      endpoint_id: "vpce-1",
      endpoint_service: "",
    });
  });

  it("exposes an endpoint listed twice once, as first listed", async () => {
    // Listed through the pager, which keeps an endpoint listed again (the listing moved between
    // pages) as first listed: page 2 repeats vpce-1, now pending.
    const pages: PrivateEndpoint[][] = [
      [ENDPOINT, { ...ENDPOINT, endpointId: "vpce-2" }],
      [{ ...ENDPOINT, endpointStatus: "PENDING" }],
    ];
    const client = {
      listPrivateEndpoints: async (args: { currentPage: number }): Promise<PrivateEndpointPage> => {
        const endpoints = pages[args.currentPage - 1] ?? [];
        return {
          total: null,
          currentPage: args.currentPage,
          pageSize: 2,
          listed: endpoints.length,
          endpoints,
        };
      },
    } as unknown as CloudApi;
    const r = mapPrivateEndpoints(await listProjectPages(PRIVATE_ENDPOINT_PAGES, client, "proj-1"), "proj-1");
    expect(r.samples.filter((s) => s.family === INFO)).toHaveLength(2);
    expect(r.samples.filter((s) => s.family === STATUS && s.labels.endpoint_id === "vpce-1")).toEqual([
      { family: STATUS, labels: { ...ID, status: "available" }, value: 1 },
    ]);
  });

  it("maps the reference's sample and a Google Cloud endpoint, without the Google Cloud project ID", () => {
    const page = normalizePrivateEndpoints(
      privateEndpointsDataSchema.parse({
        ...REFERENCE_PRIVATE_ENDPOINTS,
        endpoints: [...REFERENCE_PRIVATE_ENDPOINTS.endpoints, GCP_PRIVATE_ENDPOINT],
      }),
      { projectId: "proj-b44a39b0c51cf21791a841", pageSize: 100, currentPage: 1 },
    );
    const r = mapPrivateEndpoints(page.endpoints, "proj-b44a39b0c51cf21791a841");
    const project = { project_id: "proj-b44a39b0c51cf21791a841" };
    /** One endpoint's samples: its info, then each state of its status and its service's status. */
    const samplesOf = (
      endpoint_id: string,
      info: { region_id: string; cloud_id: string; endpoint_service: string },
      status: Record<string, number>,
      service: Record<string, number>,
    ) => [
      { family: INFO, labels: { ...project, ...info, endpoint_id }, value: 1 },
      ...[
        [STATUS, status],
        [SERVICE, service],
      ].flatMap(([family, states]) =>
        Object.entries(states as Record<string, number>).map(([state, value]) => ({
          family,
          labels: { ...project, endpoint_id, status: state },
          value,
        })),
      ),
    ];
    expect(r.samples).toEqual([
      ...samplesOf(
        "vpce-0123456789abcdef0",
        {
          region_id: "aws-us-west-2",
          cloud_id: "aws",
          endpoint_service: "com.amazonaws.vpce.us-west-2.vpce-svc-0123456789abcdef0",
        },
        { available: 1 },
        { available: 1 },
      ),
      ...samplesOf(
        "7481923649184729123",
        {
          region_id: "gcp-us-west1",
          cloud_id: "gcp",
          endpoint_service: "projects/vdb-psc-prod/regions/us-west1/serviceAttachments/psc-vdb-us-west1",
        },
        { available: 0, pending: 1 },
        { available: 1 },
      ),
    ]);
    expect(JSON.stringify(r)).not.toContain("customer-network-prod");
  });

  it("declares every family it uses with a HELP naming List Private Endpoints", () => {
    const r = mapPrivateEndpoints([{ ...ENDPOINT, endpointStatus: "PENDING" }], "proj-1");
    expect(r.families.map((f) => f.name)).toEqual([INFO, STATUS, SERVICE]);
    for (const f of r.families) expect(f.help).toMatch(/\(upstream List Private Endpoints[^)]*\)\.$/);
  });
});
