/**
 * Private endpoints: List Private Endpoints for each known project (List Projects V2, and the
 * polled clusters' projects), every page through the one pager, on the replica that owns
 * account-wide calls (shard 0), with the default credential. One task, target "organization";
 * each project is a part of its poll (polling/parts.ts): a project whose listing fails keeps its
 * last good series and is shown on the target's health. A key that may list them nowhere is
 * "not permitted", and one the service refuses (1800 "User hasn't authenticated") fails: both
 * by the one refusal rule of runPoll.
 */

import { defineCollector } from "../../polling/model.js";
import { eachProjectPaged, type ProjectPages, sectionListingTasks } from "../../polling/projectTask.js";
import { ENDPOINT, type PrivateEndpoint, type PrivateEndpointPage } from "../../upstream/types.js";
import { PRIVATE_ENDPOINTS_SECTION } from "./config.js";
import { PRIVATE_ENDPOINT_FAMILIES } from "./families.js";
import { mapPrivateEndpoints } from "./mapping.js";

const COLLECTOR = "private_endpoints";

/** The page size asked for: the documented maximum (the server falls back to 10 outside 1..100). */
export const PRIVATE_ENDPOINTS_PAGE_SIZE = 100;

/** List Private Endpoints of one project, every page: read with `listProjectPages`. */
export const PRIVATE_ENDPOINT_PAGES: ProjectPages<PrivateEndpointPage, PrivateEndpoint> = {
  endpoint: ENDPOINT.listPrivateEndpoints,
  pageSize: PRIVATE_ENDPOINTS_PAGE_SIZE,
  fetch: (client, asked, signal) => client.listPrivateEndpoints(asked, signal),
  items: (page) => page.endpoints,
  key: (endpoint) => endpoint.endpointId,
};

/** The one task (shard 0, `private_endpoints.enabled`), or none. */
const privateEndpointTasks = sectionListingTasks(
  (config) => config.privateEndpoints,
  () => ({
    collector: COLLECTOR,
    target: "organization",
    // The reference names no role; the console lets a project's admins manage its endpoints.
    role: "Project Admin",
    // A page per known project at least (more for a project of over 100 endpoints).
    ...eachProjectPaged(PRIVATE_ENDPOINT_PAGES, mapPrivateEndpoints),
  }),
);

/** Each known project's private endpoints and their endpoint services, with their statuses. */
export const privateEndpointsCollector = defineCollector(COLLECTOR, privateEndpointTasks, {
  polls: "private endpoints per known project (shard 0)",
  config: PRIVATE_ENDPOINTS_SECTION,
  // Endpoints change rarely (PT15M by default); the demo reads them every minute, so the one it
  // shows pending is seen within the first cycle and followed as it changes.
  demo: { settings: () => ({ interval: "PT1M" }), simulator: () => ({ privateEndpointPending: true }) },
  areas: [{ title: "Private endpoints", families: PRIVATE_ENDPOINT_FAMILIES }],
});
