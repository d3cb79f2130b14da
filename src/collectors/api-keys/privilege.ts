/**
 * What a monitoring key needs, and what it holds beyond that: the exporter only reads, so its
 * key needs no organization role above Member and no project role above Read-Only. The
 * reference's enums (Owner, Member, Billing-Admin; Admin, Read-Write, Read-Only) are read in
 * either spelling its two shapes use ("Owner" or "Org Owner", "Admin" or "Project Admin"); a name
 * outside them ("Org Viewer", "Data Reader") says nothing certain of what it allows, so it is
 * reported, never counted as excess.
 */
import type { ApiKey } from "../../upstream/types.js";

/** The organization roles above what monitoring needs, as `roleWord` reads them. */
const EXCESS_ORG_ROLES: ReadonlySet<string> = new Set(["owner"]);
/** The organization roles the reference documents. */
const KNOWN_ORG_ROLES: ReadonlySet<string> = new Set(["owner", "member", "billingadmin"]);
/** The project roles above Read-Only, as `roleWord` reads them (an older "Project Owner" too). */
const EXCESS_PROJECT_ROLES: ReadonlySet<string> = new Set(["owner", "admin", "readwrite"]);
/** The project roles the reference documents. */
const KNOWN_PROJECT_ROLES: ReadonlySet<string> = new Set([...EXCESS_PROJECT_ROLES, "readonly"]);

/**
 * A role name as compared: lower case, letters and digits only, without a leading
 * "organization", "org" or "project" ("Org Owner" -> "owner", "Read-Write" -> "readwrite").
 */
export function roleWord(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .replace(/^(?:organization|org|project)(?=.)/, "");
}

/** What one key holds beyond what monitoring needs, and the role names the rule cannot judge. */
export interface Privilege {
  /** Each excess role in words ("organization role Owner", "role Admin in project proj-1"); empty when none. */
  readonly excess: readonly string[];
  /** Role names outside the reference's enums, each once, as the service sent them: not counted. */
  readonly undocumented: readonly string[];
}

/** The privilege of `key` by the rule above. Pure. */
export function privilegeOf(key: ApiKey): Privilege {
  const excess: string[] = [];
  const undocumented = new Set<string>();
  for (const role of key.orgRoles) {
    const word = roleWord(role);
    if (EXCESS_ORG_ROLES.has(word)) excess.push(`organization role ${role}`);
    else if (!KNOWN_ORG_ROLES.has(word)) undocumented.add(role);
  }
  for (const { projectId, role } of key.projectRoles) {
    const word = roleWord(role);
    if (EXCESS_PROJECT_ROLES.has(word)) excess.push(`role ${role} in project ${projectId}`);
    else if (!KNOWN_PROJECT_ROLES.has(word)) undocumented.add(role);
  }
  return { excess, undocumented: [...undocumented] };
}
