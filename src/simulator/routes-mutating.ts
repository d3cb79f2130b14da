/**
 * Mutating endpoints of the spec. They answer success without changing anything; the pipeline
 * records every call in `stats.mutatingCalls`, so a test can assert the exporter makes none.
 */
import type { RouteDef, RouteRequest } from "./route.js";

type Spec = Pick<RouteDef, "method" | "path" | "template" | "version" | "handle">;

const SPECS: Spec[] = [
  {
    method: "DELETE",
    path: "/v1/pipelines/:id",
    template: "DELETE /v1/pipelines/{id}",
    version: 1,
    handle: (r) => ({
      pipelineId: r.params.id,
      name: "ingestion_pipeline",
      type: "INGESTION",
      description: "dropped by request",
      status: "SERVING",
      createTimestamp: r.nowMs,
      totalUsage: { embedding: 0 },
      functions: [],
    }),
  },
  {
    method: "DELETE",
    path: "/v1/clusters/:id/drop",
    template: "DELETE /v1/clusters/{id}/drop",
    version: 1,
    handle: (r) => ({ clusterId: r.params.id, prompt: "The cluster has been moved to the recycle bin." }),
  },
  {
    method: "DELETE",
    path: "/v2/api-keys/:id",
    template: "DELETE /v2/api-keys/{id}",
    version: 2,
    handle: (r) => ({
      apiKeyId: r.params.id,
      name: "deleted-key",
      creatorName: "Simulator",
      createdBy: "owner@example.com",
      orgRole: "Member",
      projects: [],
      createTime: new Date(r.nowMs).toISOString(),
    }),
  },
  {
    method: "POST",
    path: "/v2/migrations/toExisting",
    template: "POST /v2/migrations/toExisting",
    version: 2,
    handle: () => ({ jobId: "job-migration-existing" }),
  },
  {
    method: "POST",
    path: "/v2/migrations/toNewDedicated",
    template: "POST /v2/migrations/toNewDedicated",
    version: 2,
    handle: () => ({
      clusterId: "in01-0000000000000000",
      username: "db_admin",
      password: "not-a-real-password",
      jobId: "job-migration-new",
    }),
  },
  {
    method: "POST",
    path: "/v2/vectordb/users/create",
    template: "POST /v2/vectordb/users/create",
    version: 2,
    handle: () => ({}),
  },
  {
    method: "POST",
    path: "/v2/vectordb/users/update_password",
    template: "POST /v2/vectordb/users/update_password",
    version: 2,
    handle: () => ({}),
  },
  {
    method: "POST",
    path: "/v2/vectordb/partitions/release",
    template: "POST /v2/vectordb/partitions/release",
    version: 2,
    handle: () => ({}),
  },
  {
    method: "POST",
    path: "/v1/vector/collections/create",
    template: "POST /v1/vector/collections/create",
    version: 1,
    handle: () => ({}),
  },
];

/** The mutating routes; drop calls are attributed to their cluster in the stats. */
export function mutatingRoutes(): RouteDef[] {
  return SPECS.map((s) => ({
    ...s,
    mutating: true,
    dataShape: "object",
    ...(s.path.startsWith("/v1/clusters/") ? { clusterId: (r: RouteRequest) => r.params.id } : {}),
  }));
}
