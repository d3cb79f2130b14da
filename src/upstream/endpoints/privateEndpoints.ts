/**
 * List Private Endpoints (v2): GET /v2/projects/{projectId}/privateEndpoints?currentPage=&
 * pageSize= (1..100, default 10; the server uses 10 outside that), the private endpoints of one
 * project: `{endpoints [{regionId, cloudId, endpointService, endpointServiceStatus, endpointId,
 * endpointStatus, gcpProjectId}], currentPage, pageSize, count}` (docs/design.md section 7).
 *
 * The statuses have no enum in the reference (its sample shows AVAILABLE for both), so any
 * string is read as it comes; `gcpProjectId` appears on Google Cloud endpoints only and is not
 * read. A failure of the key is `{code: 1800, message: "User hasn't authenticated"}`, which the
 * refusal rule already reads as a refused key.
 */
import { z } from "zod";
import { lenientText } from "../lenient.js";
import type { PrivateEndpoint, PrivateEndpointPage } from "../results.js";
import { pageDataSchema, pageInfoOf, pageQuery, stringish } from "../wire.js";
import { defineEndpoint, PAGES, V2 } from "./define.js";

/** Arguments of List Private Endpoints. Page numbers start at 1. */
interface ListPrivateEndpointsArgs {
  readonly projectId: string;
  readonly pageSize: number;
  readonly currentPage: number;
}

// Only the endpoint's ID is required: an endpoint cannot be told from another without it, while
// an odd description or status field costs that field alone.
const privateEndpointSchema = z.object({
  endpointId: stringish,
  regionId: lenientText,
  cloudId: lenientText,
  endpointService: lenientText,
  endpointServiceStatus: lenientText,
  endpointStatus: lenientText,
});

/** The envelope's `data`. */
export const privateEndpointsDataSchema = pageDataSchema("endpoints", privateEndpointSchema);

type PrivateEndpointsData = z.infer<typeof privateEndpointsDataSchema>;

/** A status as sent, or null when absent, unreadable or blank: no state is known then. */
function statusOf(value: string | null): string | null {
  const trimmed = value?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
}

/** Maps `data` to a page; every endpoint is the asked project's (the items do not name one). */
export function normalizePrivateEndpoints(
  data: PrivateEndpointsData,
  args: ListPrivateEndpointsArgs,
): PrivateEndpointPage {
  const endpoints = (data.endpoints ?? []).map(
    (e): PrivateEndpoint => ({
      endpointId: e.endpointId,
      projectId: args.projectId,
      regionId: e.regionId ?? "",
      cloudId: e.cloudId ?? "",
      endpointService: e.endpointService ?? "",
      endpointStatus: statusOf(e.endpointStatus),
      endpointServiceStatus: statusOf(e.endpointServiceStatus),
    }),
  );
  return { ...pageInfoOf(data, endpoints.length), endpoints };
}

/** What the polling schedule of `--check-config` says of this listing: its calls grow with what a run lists. */
const RUN_TIME_COUNT =
  "private endpoints: one List Private Endpoints page per 100 endpoints of each project that List Projects V2 lists, counted here for the configured clusters' projects";

/** List Private Endpoints (v2). */
export const listPrivateEndpointsEndpoint = defineEndpoint("GET /v2/projects/{projectId}/privateEndpoints", {
  scope: "project",
  paging: PAGES("count"),
  shardZero: true,
  runTimeCount: RUN_TIME_COUNT,
}).as<ListPrivateEndpointsArgs, PrivateEndpointsData, PrivateEndpointPage>({
  request: (args) => ({
    target: V2,
    params: { projectId: args.projectId },
    query: pageQuery(args),
  }),
  schema: privateEndpointsDataSchema,
  normalize: normalizePrivateEndpoints,
});
