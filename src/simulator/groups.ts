/**
 * SCIM groups and List Group Members (GET /v2/groups/{groupId}/members), paged as documented:
 * `{count, currentPage, pageSize, members}` with members `{username, email}`. The groups are
 * fixed, so tests can compare an exported count with `SIM_GROUPS`; one is larger than the
 * biggest page, so paging is exercised. An unknown group is answered with HTTP 404.
 */
import { SimApiError } from "./errors.js";
import { intParam, type RouteDef } from "./route.js";

/** One simulated group member, as the service lists it. */
export interface SimGroupMember {
  readonly username: string;
  readonly email: string;
}

/** Not documented: the body code sent with the HTTP 404 for an unknown group. */
const GROUP_NOT_FOUND = 80404;

function members(prefix: string, n: number): SimGroupMember[] {
  return Array.from({ length: n }, (_, i) => ({
    username: `${prefix} User ${i + 1}`,
    email: `${prefix.toLowerCase()}.user${i + 1}@example.com`,
  }));
}

/** Every group the simulator knows, by SCIM group ID. */
export const SIM_GROUPS: ReadonlyMap<string, readonly SimGroupMember[]> = new Map([
  ["grp-admins", members("Admin", 3)],
  ["grp-engineers", members("Engineer", 137)],
  ["grp-empty", []],
]);

/** The List Group Members route. */
export function groupRoutes(): RouteDef[] {
  return [
    {
      method: "GET",
      path: "/v2/groups/:groupId/members",
      template: "GET /v2/groups/{groupId}/members",
      version: 2,
      mutating: false,
      dataShape: "object",
      handle: (r) => {
        const all = SIM_GROUPS.get(r.params.groupId ?? "");
        if (!all) {
          throw new SimApiError(GROUP_NOT_FOUND, "The group does not exist or you don't have permission.", {
            httpStatus: 404,
          });
        }
        const pageSize = intParam(r.query, "pageSize", 10, 1, 100);
        const currentPage = intParam(r.query, "currentPage", 1, 1, Number.MAX_SAFE_INTEGER);
        const page = all.slice((currentPage - 1) * pageSize, currentPage * pageSize);
        return { count: all.length, currentPage, pageSize, members: page };
      },
    },
  ];
}
