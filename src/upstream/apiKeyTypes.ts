/**
 * Normalized results of List API Keys (V2), re-exported by types.ts. Like every shape there,
 * they know nothing of the wire or of Prometheus. They hold nothing of a person: the listing's
 * `creatorName` (a person's display name), `createdBy` (an e-mail address or a key ID) and
 * `description` (free text) are dropped by the endpoint's schema before anything reads the
 * answer, so no type here can carry them.
 */
import type { PageInfo } from "./pageTypes.js";

/** A role a key holds in one project, its name as the answer gives it (Admin, Read-Only, Data Reader). */
export interface ApiKeyProjectRole {
  readonly projectId: string;
  readonly role: string;
}

/**
 * One customized ACL API key of the organization (never its secret, which the service does not
 * return). Both shapes of the reference read into this one: the current (one `orgRole`, one
 * `role` per project) and the older sample's (`orgRoles` and `projectRoles`, several roles
 * each). Role names are kept as the answer spells them, trimmed; a blank one is left out.
 * `orgRoles` is empty when the answer names none; `createdAtMs` is null when `createTime` is
 * absent or unreadable.
 */
export interface ApiKey {
  readonly apiKeyId: string;
  readonly name: string;
  readonly orgRoles: readonly string[];
  /** Each project and role once, in the order listed. */
  readonly projectRoles: readonly ApiKeyProjectRole[];
  readonly createdAtMs: number | null;
}

/** One page of List API Keys. `total` is the documented `count`, null when absent. */
export interface ApiKeyPage extends PageInfo {
  readonly apiKeys: readonly ApiKey[];
}
