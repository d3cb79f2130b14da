import { describe, expect } from "vitest";
import { pagedProjectListingTests } from "../../../test/helpers/projectListingTask.js";
import type { PrivateEndpoint } from "../../upstream/types.js";
import { PRIVATE_ENDPOINTS_PAGE_SIZE, privateEndpointsCollector } from "./tasks.js";

/** The `i`-th endpoint of a project: every seventh is pending, every eleventh's service rejected. */
const endpoint = (projectId: string, i: number): PrivateEndpoint => ({
  endpointId: `${projectId}-vpce-${i}`,
  projectId,
  regionId: "aws-us-west-2",
  cloudId: "aws",
  endpointService: "com.amazonaws.vpce.us-west-2.vpce-svc-0",
  endpointStatus: i % 7 === 6 ? "PENDING" : "AVAILABLE",
  endpointServiceStatus: i % 11 === 10 ? "REJECTED" : "AVAILABLE",
});

describe("the private endpoints collector", () => {
  pagedProjectListingTests({
    collector: privateEndpointsCollector,
    section: "private_endpoints",
    endpoint: "GET /v2/projects/{projectId}/privateEndpoints",
    method: "listPrivateEndpoints",
    field: "endpoints",
    item: endpoint,
    pageSize: PRIVATE_ENDPOINTS_PAGE_SIZE,
    intervalMs: 900_000,
    interval: [{ private_endpoints: { interval: "PT1M" } }, 60_000],
    names: [
      "vdbcloud_private_endpoint_info",
      "vdbcloud_private_endpoint_status",
      "vdbcloud_private_endpoint_service_status",
    ],
    notAdmin: "a project where the key may not list them",
    shows: (text) => {
      expect(text).toContain(
        'vdbcloud_private_endpoint_status{project_id="proj-big",endpoint_id="proj-big-vpce-104",status="pending"} 1',
      );
      expect(text).toContain(
        'vdbcloud_private_endpoint_status{project_id="proj-big",endpoint_id="proj-big-vpce-104",status="available"} 0',
      );
      expect(text).toContain(
        'vdbcloud_private_endpoint_service_status{project_id="proj-big",endpoint_id="proj-big-vpce-109",status="rejected"} 1',
      );
      expect(text).toContain(
        'vdbcloud_private_endpoint_info{project_id="proj-small",region_id="aws-us-west-2",cloud_id="aws",endpoint_id="proj-small-vpce-2",endpoint_service="com.amazonaws.vpce.us-west-2.vpce-svc-0"} 1',
      );
    },
  });
});
