/**
 * The one rule for the service's resource IDs (clusters, projects, jobs, global clusters), for
 * the configured ones and the ones a listing finds alike: an ID becomes a path segment of a
 * request ("/v2/clusters/{id}") and a label value, and "..", "." or "" there would address
 * another resource ("GET /v2/clusters/.." is "GET /v2/").
 */
export const RESOURCE_ID = /^[A-Za-z0-9-]+$/;

/** Whether `id` is a string that follows {@link RESOURCE_ID}. */
export function isResourceId(id: unknown): id is string {
  return typeof id === "string" && RESOURCE_ID.test(id);
}
