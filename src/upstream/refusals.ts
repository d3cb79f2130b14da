/**
 * Two refusals the backup endpoints answer that are not failures of the exporter: the
 * credential lacks the permission backup operations need (a project admin, the organisation
 * owner or a role with backup permission), and the cluster cannot have backups at all (free and
 * serverless clusters: backups are for dedicated clusters only). The reference documents
 * neither answer's code, so both are recognised by what can be relied on: HTTP 403 or a message
 * about permission for the first (never a refused key: 80001, 80002, 21119, HTTP 401 or a
 * token message, which fail every call of that key), a message about dedicated clusters or the
 * plan for the second.
 */
import { AUTH_API_CODES, isAuthMessage } from "./errorMapping.js";
import { CloudError } from "./errors.js";

const PERMISSION_MESSAGE = /\bpermission|\bforbidden\b|\bnot (?:allowed|authori[sz]ed)\b|\baccess denied\b/i;
const DEDICATED_ONLY_MESSAGE =
  /\bdedicated\b|\bserverless\b|\bfree (?:cluster|plan|tier)\b|\bnot (?:supported|available) (?:for|on|in) (?:this|the) (?:cluster|plan)\b/i;

/** Whether the upstream refused the call because the credential lacks a permission. */
export function isPermissionRefusal(err: unknown): boolean {
  if (!(err instanceof CloudError)) return false;
  if (err.httpStatus === 401 || (err.apiCode !== undefined && AUTH_API_CODES.has(err.apiCode))) return false;
  // "Cluster not exist or you don't have permission" (80020) is about the cluster, not the role.
  if (err.code === "not_found") return false;
  const message = err.message;
  if (isAuthMessage(message)) return false;
  if (err.httpStatus === 403) return true;
  return (err.code === "api_error" || err.code === "auth_error") && PERMISSION_MESSAGE.test(message);
}

/** Whether the upstream refused the call because the cluster is not a dedicated one. */
export function isDedicatedOnlyRefusal(err: unknown): boolean {
  if (!(err instanceof CloudError)) return false;
  if (err.code !== "api_error" && err.code !== "invalid_request") return false;
  return DEDICATED_ONLY_MESSAGE.test(err.message) && !isPermissionRefusal(err);
}
