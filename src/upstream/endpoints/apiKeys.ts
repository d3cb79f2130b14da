/**
 * List API Keys (V2): GET /v2/api-keys?currentPage=&pageSize= (1..100, default 10), the
 * organization's customized ACL API keys: `{count, currentPage, pageSize, apiKeys [{apiKeyId,
 * name, description, creatorName, createdBy, orgRole, projects [{projectId, projectName, role,
 * allCluster, clusters, allVolume, volumes}], createTime}]}` (docs/design.md section 7). The
 * secret is never returned, and nothing says which key is the caller's, when one expires or
 * when it was last used. Only an Organization Owner sees every key; a Project Admin sees those
 * of its projects.
 *
 * The reference shows two shapes, both read: the current one above, and the older one its
 * list sample still shows (`orgRoles [{bindingId, roleId, roleName, roleType}]`, `projectRoles
 * [{projectId, roles [...]}]`, a role being a name or an object with a `roleName`). Role names
 * are taken as they come (the samples show "Org Viewer" and "Data Reader" beside the enums).
 *
 * `creatorName` (a person's display name), `createdBy` (an e-mail address or a key ID) and
 * `description` are not in the schema: the parse drops them (non-strict objects keep only their
 * own fields), so they never reach the normalized key, a log line or an error (a schema error
 * names paths and types, never values). A failure of the key is `{code: 1800, message: "User
 * hasn't authenticated"}`, which the refusal rule reads as a refused key.
 */
import { z } from "zod";
import type { ApiKey, ApiKeyPage, ApiKeyProjectRole } from "../apiKeyTypes.js";
import { lenient, lenientText, lenientTimestampMs } from "../lenient.js";
import { FIRST_ISSUE, pageDataSchema, pageInfoOf, pageQuery, stringish } from "../wire.js";
import { defineEndpoint, PAGES, V2 } from "./define.js";

/** Arguments of List API Keys. Page numbers start at 1. */
interface ListApiKeysArgs {
  readonly pageSize: number;
  readonly currentPage: number;
}

/** A role as either shape names it: its name, or an object with its `roleName` (the older bindings). */
const roleName = z.union([stringish, z.object({ roleName: stringish }).transform((r) => r.roleName)]);

/** A list whose elements are read one by one, so that an odd element costs itself only. */
const looseList = lenient(z.array(z.unknown()));

/** A project of the current shape: one role. */
const currentProjectSchema = z.object({ projectId: stringish, role: roleName });
/** A project of the older shape: a list of roles. */
const olderProjectSchema = z.object({ projectId: stringish, roles: looseList });

// Only the ID is required: a key cannot be told from another without it, while an odd role or
// time costs that field alone. No field of a person is declared, so none is kept.
const apiKeySchema = z.object({
  apiKeyId: stringish,
  name: lenientText,
  orgRole: lenient(roleName),
  orgRoles: looseList,
  projects: looseList,
  projectRoles: looseList,
  createTime: lenientTimestampMs,
});

/** The envelope's `data`. */
export const apiKeysDataSchema = pageDataSchema("apiKeys", apiKeySchema);

type ApiKeysData = z.infer<typeof apiKeysDataSchema>;
type ApiKeyData = z.infer<typeof apiKeySchema>;

/** The elements of `list` that `schema` reads, each read; the others are left out. */
function eachRead<T>(list: readonly unknown[] | null, schema: z.ZodType<T>): T[] {
  return (list ?? []).flatMap((item) => {
    const parsed = schema.safeParse(item, FIRST_ISSUE);
    return parsed.success ? [parsed.data] : [];
  });
}

/** A role name trimmed, or null when blank. */
function named(role: string | null): string | null {
  const trimmed = role?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
}

/** The key's organization roles from both shapes, each once, in the order given. */
function orgRolesOf(k: ApiKeyData): string[] {
  const roles = [k.orgRole, ...eachRead(k.orgRoles, roleName)].flatMap((r) => named(r) ?? []);
  return [...new Set(roles)];
}

/** The key's project roles from both shapes, each project and role once, in the order given. */
function projectRolesOf(k: ApiKeyData): ApiKeyProjectRole[] {
  const pairs = [
    ...eachRead(k.projects, currentProjectSchema).map((p) => [p.projectId, [p.role]] as const),
    ...eachRead(k.projectRoles, olderProjectSchema).map(
      (p) => [p.projectId, eachRead(p.roles, roleName)] as const,
    ),
  ];
  const seen = new Set<string>();
  const out: ApiKeyProjectRole[] = [];
  for (const [id, roles] of pairs) {
    const projectId = id.trim();
    if (projectId === "") continue;
    for (const r of roles) {
      const role = named(r);
      const key = `${projectId}\u0000${role}`;
      if (role === null || seen.has(key)) continue;
      seen.add(key);
      out.push({ projectId, role });
    }
  }
  return out;
}

/** Maps `data` to a page: each key with its roles in one shape, nothing of a person. */
export function normalizeApiKeys(data: ApiKeysData): ApiKeyPage {
  const apiKeys = (data.apiKeys ?? []).map(
    (k): ApiKey => ({
      apiKeyId: k.apiKeyId,
      name: k.name ?? "",
      orgRoles: orgRolesOf(k),
      projectRoles: projectRolesOf(k),
      createdAtMs: k.createTime,
    }),
  );
  return { ...pageInfoOf(data, apiKeys.length), apiKeys };
}

/** What the polling schedule of `--check-config` says of this listing: its calls grow with what a run lists. */
const RUN_TIME_COUNT =
  "API keys: one List API Keys page per 100 keys of the organization, counted here as one";

/**
 * List API Keys (V2), at the reference's path, and at the spelling a public account of the live
 * API (2026-07) found its gateway routing instead: `/v2/apiKeys`, this path answered "no Route
 * matched" (HTTP 404). The client asks the other path where one is not offered and keeps the one
 * that answers (`alsoAt`); a server that offers neither costs a call at each path a day and no
 * failing target ("not offered here") instead of a collector down every hour.
 */
export const listApiKeysEndpoint = defineEndpoint("GET /v2/api-keys", {
  scope: "account",
  paging: PAGES("count"),
  shardZero: true,
  runTimeCount: RUN_TIME_COUNT,
  absent: { apiCodes: [], alsoAt: ["/v2/apiKeys"] },
}).as<ListApiKeysArgs, ApiKeysData, ApiKeyPage>({
  request: (args) => ({ target: V2, query: pageQuery(args) }),
  schema: apiKeysDataSchema,
  normalize: normalizeApiKeys,
});
