/**
 * The organization's API keys (docs/metrics.md). No family carries what a person left on a key
 * (its creator's name or e-mail address, its description) or its secret: the endpoint's schema
 * drops the first, and the service never returns the second. Role names are the service's own,
 * as it sends them: the reference shows names outside its enums ("Org Viewer", "Data Reader").
 */
import { gauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** When no API key family has a series, whatever else its own entry adds. */
const NO_KEYS =
  'no series with api_keys.enabled false, on shards other than 0, or before the first listing answered; none while the key may not list keys (vdbcloud_collector_not_permitted{collector="api_keys"}: an Organization Owner sees every key, a Project Admin those of its projects; the key is api_keys.api_key, else api.api_key); the listing holds customized ACL keys only, and a key no longer listed (revoked) loses its series at the next listing';

/** The organization's API keys: List API Keys (shard 0). */
export const API_KEY_FAMILIES = {
  info: gauge("vdbcloud_api_key_info", {
    help: "An API key of the organization in labels, always 1: its name and organization role (as the service names it; empty when it has none, several joined by a comma); never its secret, its creator or its description (upstream List API Keys).",
    labels: ["api_key_id", "name", "org_role"],
    source: `${ENDPOINT.listApiKeys} apiKeyId, name, orgRole (or the older shape's orgRoles[].roleName), as the service names the role`,
    absent: `${NO_KEYS}; name and org_role are empty when the answer leaves them out`,
  }),
  created: gauge("vdbcloud_api_key_created_timestamp_seconds", {
    help: "When the API key was created, Unix time in seconds: time() minus it is the key's age (upstream List API Keys createTime).",
    labels: ["api_key_id"],
    source: `${ENDPOINT.listApiKeys} createTime (ISO 8601, or an epoch number)`,
    absent: `${NO_KEYS}; none for a key whose createTime is absent or unreadable`,
  }),
  projectRole: gauge("vdbcloud_api_key_project_role", {
    help: "A role the API key holds in a project, always 1, the role as the service names it: Admin, Read-Write, Read-Only, or another name such as Data Reader (upstream List API Keys projects[].role).",
    labels: ["api_key_id", "project_id", "role"],
    unit: "1 (info)",
    source: `${ENDPOINT.listApiKeys} projects[].projectId and role (or the older shape's projectRoles[].roles)`,
    absent: `${NO_KEYS}; none for a key without a project role (an organization role only)`,
  }),
  count: gauge("vdbcloud_api_keys", {
    help: "API keys of the organization per organization role at the last listing: Owner, Member and Billing-Admin always (0 when none), any other role name as it comes, empty for keys without one (upstream List API Keys orgRole).",
    labels: ["org_role"],
    unit: "count",
    source: `${ENDPOINT.listApiKeys} count of apiKeys by orgRole (the info family's org_role)`,
    absent: NO_KEYS,
  }),
  excessPrivilege: gauge("vdbcloud_api_key_excess_privilege", {
    help: "1 when the exporter's own key (api.key_id) holds more than monitoring needs, the organization role Owner or a project role above Read-Only (Admin, Read-Write); 0 when it holds no more; role names the reference does not document are not counted (upstream List API Keys, the key of api.key_id).",
    labels: ["api_key_id"],
    unit: "1 (boolean)",
    source: `${ENDPOINT.listApiKeys} orgRole and projects[].role of the key whose apiKeyId is api.key_id`,
    absent: `${NO_KEYS}; none without api.key_id, and none while that key is not in the listing (one info line says so: the listing holds customized ACL keys only)`,
  }),
} as const;
