import { describe, expect, it } from "vitest";
import {
  countOf,
  notPermittedErrors,
  pagedService,
  projectListingTaskTests,
  runPagedListing,
  TWO_PROJECTS,
} from "../../../test/helpers/projectListingTask.js";
import type { PrivateEndpoint } from "../../upstream/types.js";
import { PRIVATE_ENDPOINTS_PAGE_SIZE, privateEndpointsCollector } from "./tasks.js";

const ENDPOINT = "GET /v2/projects/{projectId}/privateEndpoints";

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

/** A fake service holding `counts[project]` endpoints per project, paged as asked; `refuse` fails a project's pages. */
const fake = (counts: Record<string, number>, refuse?: (projectId: string) => Error | undefined) =>
  pagedService({ method: "listPrivateEndpoints", field: "endpoints", counts, item: endpoint, refuse });

describe("the private endpoints collector", () => {
  projectListingTaskTests({
    tasks: privateEndpointsCollector.tasks,
    id: { collector: "private_endpoints", target: "organization" },
    endpoint: ENDPOINT,
    intervalMs: 900_000,
    interval: [{ private_endpoints: { interval: "PT1M" } }, 60_000],
    off: [{ private_endpoints: { enabled: false } }],
    planned: TWO_PROJECTS,
    families: {
      collector: privateEndpointsCollector,
      deny: "vdbcloud_private_endpoint_.*",
      names: [
        "vdbcloud_private_endpoint_info",
        "vdbcloud_private_endpoint_status",
        "vdbcloud_private_endpoint_service_status",
      ],
    },
    service: (refuse) => fake({ p1: 2, p2: 3 }, refuse).client,
    listed: "vdbcloud_private_endpoint_info",
    partial: {
      what: "a project where the key may not list them",
      part: "p1",
      error: notPermittedErrors(ENDPOINT)[0][1],
      shown: 3,
      message: /96013/,
    },
  });

  it("lists every page of each known project once: 112 endpoints in two pages, 3 in one, none in one", async () => {
    const text = await runPagedListing(privateEndpointsCollector.tasks, fake, PRIVATE_ENDPOINTS_PAGE_SIZE);
    expect(countOf(text, "vdbcloud_private_endpoint_info")).toBe(115);
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
  });
});
