/**
 * Private endpoints (docs/metrics.md): each known project's PrivateLink endpoints and the state
 * of the endpoint service each connects to.
 */
import { gauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** The labels of a private endpoint's state sets, before `status`. */
const ENDPOINT_LABELS = ["project_id", "endpoint_id"] as const;
/** When no private endpoint family has a series, whatever else its own entry adds. */
const NO_ENDPOINTS =
  'no series with private_endpoints.enabled false, on shards other than 0, for a project without private endpoints, or for one whose listing has not answered yet; none while the key may not list them there (vdbcloud_collector_not_permitted{collector="private_endpoints"}); an endpoint no longer listed loses its series at the next listing';

/** A project's private endpoints: List Private Endpoints per known project (shard 0). */
export const PRIVATE_ENDPOINT_FAMILIES = {
  info: gauge("vdbcloud_private_endpoint_info", {
    help: "A private endpoint of a project in labels, always 1: the cloud and region it is in and the endpoint service of the service it connects to (upstream List Private Endpoints).",
    labels: ["project_id", "region_id", "cloud_id", "endpoint_id", "endpoint_service"],
    source: `${ENDPOINT.listPrivateEndpoints} endpointId, regionId, cloudId, endpointService`,
    absent: `${NO_ENDPOINTS}; region_id, cloud_id and endpoint_service are empty when the answer leaves them out`,
  }),
  status: gauge("vdbcloud_private_endpoint_status", {
    help: "Status of the private endpoint in the customer's VPC, one series per status (available, plus the current one in lower snake case when it is another: the reference lists none), 1 for the current one; anything but available means the clients in that VPC cannot reach the clusters (upstream List Private Endpoints endpointStatus).",
    labels: [...ENDPOINT_LABELS, "status"],
    source: `${ENDPOINT.listPrivateEndpoints} endpointStatus (no enum; the sample shows AVAILABLE)`,
    absent: `${NO_ENDPOINTS}; none for an endpoint whose answer carries no status`,
  }),
  serviceStatus: gauge("vdbcloud_private_endpoint_service_status", {
    help: "Status of the service's endpoint service a private endpoint connects to, one series per status (available, plus the current one in lower snake case when it is another: the reference lists none), 1 for the current one (upstream List Private Endpoints endpointServiceStatus).",
    labels: [...ENDPOINT_LABELS, "status"],
    source: `${ENDPOINT.listPrivateEndpoints} endpointServiceStatus (no enum; the sample shows AVAILABLE)`,
    absent: `${NO_ENDPOINTS}; none for an endpoint whose answer carries no endpoint service status`,
  }),
} as const;
