import { ownsGlobalCalls } from "../../config/shard.js";
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { listEveryPage, nextPageSize } from "../../polling/pager.js";
import { putData, runPoll } from "../../polling/runtime.js";
import type { CloudApi } from "../../upstream/types.js";
import { ENDPOINT } from "../../upstream/types.js";
import { GROUPS_SECTION } from "./config.js";
import { GROUP_FAMILIES } from "./families.js";
import { mapGroupMembers } from "./mapping.js";

const COLLECTOR = "groups";
const CALLED = ENDPOINT.listGroupMembers;

/** Page size of the first call: only `count` is wanted, so the page itself is kept small. */
export const COUNT_PAGE_SIZE = 10;
/** Page size when members must be counted by listing them all (an answer without `count`). */
export const WALK_PAGE_SIZE = 100;

/**
 * The number of members of `groupId`: the documented `count` of a first small page when the
 * answer gives one (one call); without it, that page's members when it came back short, else
 * the members of the whole listing, read through the pager.
 */
export async function countGroupMembers(
  client: CloudApi,
  groupId: string,
  signal?: AbortSignal,
): Promise<number> {
  const first = await client.listGroupMembers({ groupId, pageSize: COUNT_PAGE_SIZE, currentPage: 1 }, signal);
  if (first.total !== null) return first.total;
  // A short first page is the whole group (one call); a full one, and the group is listed whole.
  if (first.listed < nextPageSize(COUNT_PAGE_SIZE, first)) return first.listed;
  const members = await listEveryPage(
    {
      endpoint: CALLED,
      pageSize: WALK_PAGE_SIZE,
      fetch: (page, s) => client.listGroupMembers({ groupId, ...page }, s),
      items: (page) => page.memberKeys,
      key: (member) => member,
    },
    signal,
  );
  return members.length;
}

/**
 * One task per group of `groups.ids` (target = the group ID). Groups are account-wide, so only
 * the replica that owns account-wide calls (shard 0) polls them, with the default credential.
 */
function groupTasks(env: CollectorEnv): CollectorTask[] {
  const { ctx } = env;
  const cfg = env.config.groups;
  if (cfg.ids.length === 0 || !ownsGlobalCalls(env.shard)) return [];
  const client = env.clients.forCluster({});
  const credential = env.clients.credentialOf({});
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return cfg.ids.map((groupId) =>
    collectorTask({
      id: { collector: COLLECTOR, target: groupId },
      credential,
      // One page when the answer gives its count; more only when it does not.
      calls: [{ endpoint: CALLED, count: 1, atLeast: true }],
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(ctx, { collector: COLLECTOR, target: groupId, credential }, async () => {
          putData(
            ctx,
            COLLECTOR,
            groupId,
            mapGroupMembers(groupId, await countGroupMembers(client, groupId, signal)),
            ttlMs,
          );
        }),
    }),
  );
}

/** The group collector: List Group Members per configured SCIM group, for access audits. */
export const groupsCollector = defineCollector(COLLECTOR, groupTasks, {
  polls: "List Group Members per configured SCIM group (shard 0)",
  config: GROUPS_SECTION,
  demo: {
    // The full demo counts the members of every simulated SCIM group.
    settings: ({ full, simulator }) =>
      full
        ? {
            ids: [...(simulator as { groups: ReadonlyMap<string, unknown> }).groups.keys()],
            interval: "PT30S",
          }
        : undefined,
  },
  areas: [{ title: "Groups", families: GROUP_FAMILIES }],
});
