/**
 * List Private Endpoints: the `data` of a success answer in the shape of the REST reference's
 * sample (an AWS endpoint, both statuses AVAILABLE, no `gcpProjectId`), for the HTTP-level,
 * mapping and simulator tests. Used by tests only; production code never imports this module.
 */
export const REFERENCE_PRIVATE_ENDPOINTS = {
  endpoints: [
    {
      regionId: "aws-us-west-2",
      cloudId: "aws",
      endpointService: "com.amazonaws.vpce.us-west-2.vpce-svc-0123456789abcdef0",
      endpointServiceStatus: "AVAILABLE",
      endpointId: "vpce-0123456789abcdef0",
      endpointStatus: "AVAILABLE",
    },
  ],
  currentPage: 1,
  pageSize: 10,
  count: 1,
} as const;

/** A Google Cloud endpoint, the one kind that carries `gcpProjectId`. */
export const GCP_PRIVATE_ENDPOINT = {
  regionId: "gcp-us-west1",
  cloudId: "gcp",
  endpointService: "projects/vdb-psc-prod/regions/us-west1/serviceAttachments/psc-vdb-us-west1",
  endpointServiceStatus: "AVAILABLE",
  endpointId: "7481923649184729123",
  endpointStatus: "PENDING",
  gcpProjectId: "customer-network-prod",
} as const;
