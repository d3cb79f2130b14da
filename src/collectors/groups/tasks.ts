import { ownsGlobalCalls } from "../../config/shard.js";
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { nextPageSize } from "../../polling/paging.js";
import { putData, runPoll } from "../../polling/runtime.js";
import type { CloudApi } from "../../upstream/types.js";
import { ENDPOINT } from "../../upstream/types.js";
import { mapGroupMembers } from "./mapping.js";

const COLLECTOR = "groups";
const CALLED = ENDPOINT.listGroupMembers;

/** Page size of the first call: only `count` is wanted, so the page itself is kept small. */
export const COUNT_PAGE_SIZE = 10;
/** Page size when members must be counted one page at a time (an answer without `count`). */
export const WALK_PAGE_SIZE = 100;
/**
 * Hard stop for counting by pages: members carry nothing kept to tell a repeated page from a
 * new one, so a server that ignores `currentPage` would otherwise keep a poll going forever.
 */
export const MAX_WALK_PAGES = 100;

/** A group whose members could not be counted (no `count`, and paging did not end). */
export class GroupMembersUncountedError extends Error {
  readonly code = "members_uncounted";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "GroupMembersUncountedError";
  }
}

/**
 * The number of members of `groupId`: the documented `count` of page 1 when the answer gives
 * one (one call), else the members counted page by page until a page comes back short.
 */
export async function countGroupMembers(
  client: CloudApi,
  groupId: string,
  signal?: AbortSignal,
): Promise<number> {
  const first = await client.listGroupMembers({ groupId, pageSize: COUNT_PAGE_SIZE, currentPage: 1 }, signal);
  if (first.count !== null) return first.count;
  if (first.listed < nextPageSize(COUNT_PAGE_SIZE, first)) return first.listed;
  let size = WALK_PAGE_SIZE;
  let counted = 0;
  for (let currentPage = 1; currentPage <= MAX_WALK_PAGES; currentPage++) {
    const page = await client.listGroupMembers({ groupId, pageSize: size, currentPage }, signal);
    counted += page.listed;
    size = nextPageSize(size, page);
    if (page.listed < size) return counted;
  }
  throw new GroupMembersUncountedError(
    `group ${groupId}: no member count and still full pages after ${MAX_WALK_PAGES} pages`,
  );
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
        runPoll(ctx, COLLECTOR, groupId, async () => {
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
export const groupsCollector = defineCollector(COLLECTOR, groupTasks);
