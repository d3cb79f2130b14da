/**
 * List Group Members (v2): GET /v2/groups/{groupId}/members, paged (`currentPage` from 1,
 * `pageSize`). `data` is documented as `{count, currentPage, pageSize, members}`; `count` may
 * come as a number or a numeric string, or be absent.
 *
 * Members (display names and e-mail addresses) are counted here and dropped: nothing past this
 * module can put a person's name or address into a label, a log line or an error.
 */
import { z } from "zod";
import { fnv1a32 } from "../../shared/hash.js";
import type { GroupMemberPage } from "../results.js";
import { pageDataSchema, pageInfoOf, pageQuery } from "../wire.js";
import { defineEndpoint, PAGES, V2 } from "./define.js";

/** Arguments of List Group Members. Page numbers start at 1. */
interface ListGroupMembersArgs {
  readonly groupId: string;
  readonly pageSize: number;
  readonly currentPage: number;
}

/** The envelope's `data`. Members are validated only as a list: their fields are never read. */
export const groupMembersDataSchema = pageDataSchema("members", z.unknown());

type GroupMembersData = z.infer<typeof groupMembersDataSchema>;

/**
 * Maps `data` to a page: the documented total (null when absent) and a hash of each member, so
 * a repeated page can be told from a new one without keeping anything a person could be named by.
 */
export function normalizeGroupMembers(data: GroupMembersData): GroupMemberPage {
  const members = data.members ?? [];
  const memberKeys = members.map((m) => fnv1a32(JSON.stringify(m) ?? "").toString(36));
  return { ...pageInfoOf(data, members.length), memberKeys };
}

/** List Group Members (v2). */
export const listGroupMembersEndpoint = defineEndpoint("GET /v2/groups/{groupId}/members", {
  scope: "account",
  paging: PAGES("count"),
  shardZero: true,
  planOrder: 12,
}).as<ListGroupMembersArgs, GroupMembersData, GroupMemberPage>({
  request: (args) => ({
    target: V2,
    params: { groupId: args.groupId },
    query: pageQuery(args),
  }),
  schema: groupMembersDataSchema,
  normalize: normalizeGroupMembers,
});
