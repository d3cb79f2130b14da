/**
 * Normalized results of List Private Endpoints (v2), re-exported by types.ts. Like every shape
 * there, they know nothing of the wire's variants or of Prometheus.
 */
import type { PageInfo } from "./pageTypes.js";

/**
 * One private endpoint of a project (a PrivateLink or Private Service Connect endpoint in the
 * customer's VPC) and the service's endpoint service it connects to. The statuses are the raw
 * upstream values: the reference gives them no enum (its sample shows AVAILABLE for both), so
 * any string may come. A text field the answer left out or sent unreadable is "" (a label value),
 * a status so read is null (no state is known, so none is shown). `projectId` is the project
 * asked: the items do not name theirs. The Google Cloud project ID some items carry is not read.
 */
export interface PrivateEndpoint {
  readonly endpointId: string;
  readonly projectId: string;
  readonly regionId: string;
  readonly cloudId: string;
  readonly endpointService: string;
  readonly endpointStatus: string | null;
  readonly endpointServiceStatus: string | null;
}

/** One page of List Private Endpoints. `total` is the documented `count`, null when absent. */
export interface PrivateEndpointPage extends PageInfo {
  readonly endpoints: readonly PrivateEndpoint[];
}
