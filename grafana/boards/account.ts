/**
 * The organization's account, beside its clusters: its API keys (List API Keys), as a security
 * review asks about them: how many per organization role, how old, and whether the exporter's
 * own key holds more than monitoring needs. A row of the overview dashboard.
 */
import type { RowSpec, ValueMapping } from "../lib/panels.js";
import { steps } from "./common.js";

/** A key's age past which VdbcloudApiKeyOld fires (thresholds.yml), in seconds. */
const OLD_KEY_SECONDS = 365 * 86_400;

/** One row per key, described in labels (value 1); `max by` collapses an HA pair's duplicates. */
const KEY_INFO = "max by (api_key_id, name, org_role) (vdbcloud_api_key_info)";
/** One value per key with its descriptive labels, so the table merges one row per key. */
const keyColumn = (expr: string) => `(${expr}) * on (api_key_id) group_left (name, org_role) ${KEY_INFO}`;

/** The own key's flag: 1 more than it needs (red), 0 no more (green). */
const EXCESS_MAPPINGS: ValueMapping[] = [
  { value: "1", text: "holds more than it needs", color: "red" },
  { value: "0", text: "read-only", color: "green" },
];

/** The API keys row. */
export const API_KEYS_ROW: RowSpec = {
  title: "Account: API keys",
  panels: [
    {
      kind: "stat",
      title: "API keys",
      description:
        "API keys of the organization (List API Keys: customized ACL keys; an Organization Owner sees every key, a Project Admin those of its projects).",
      queries: [{ expr: "max(sum by (instance) (vdbcloud_api_keys))" }],
      unit: "none",
      thresholds: steps(),
      colorMode: "value",
      w: 4,
    },
    {
      kind: "stat",
      title: "Own key",
      description:
        "Whether the exporter's own key (api.key_id) holds more than monitoring needs: the Owner organization role, or a project role above Read-Only (VdbcloudApiKeyExcessPrivilege, warning). No data: api.key_id is not set, or that key is not in the listing.",
      queries: [{ expr: "max(vdbcloud_api_key_excess_privilege)" }],
      mappings: EXCESS_MAPPINGS,
      colorMode: "background",
      noValue: "not checked (api.key_id)",
      w: 5,
    },
    {
      kind: "stat",
      title: "Oldest key",
      description:
        "The age of the oldest API key (its createTime); orange past 365 days, where VdbcloudApiKeyOld (info) fires for each such key: rotate it.",
      queries: [{ expr: "time() - min(vdbcloud_api_key_created_timestamp_seconds)" }],
      unit: "dtdurations",
      thresholds: steps(["orange", OLD_KEY_SECONDS]),
      colorMode: "value",
      w: 5,
    },
    {
      kind: "stat",
      title: "Keys not permitted to list API keys",
      description:
        "Credentials the service refuses List API Keys for lack of a role (vdbcloud_collector_not_permitted): only an Organization Owner, or a Project Admin for its projects' keys, may list them.",
      queries: [{ expr: 'count(vdbcloud_collector_not_permitted{collector="api_keys"}) or vector(0)' }],
      unit: "none",
      thresholds: steps(["orange", 1]),
      colorMode: "background",
      w: 10,
    },
    {
      kind: "bargauge",
      title: "Keys per organization role",
      description:
        "API keys per organization role as the service names it (Owner, Member, Billing-Admin; older answers say Org Owner, Org Viewer, ...; empty: a key without one). Owner keys can do anything in the organization: keep them few.",
      queries: [{ expr: "max by (org_role) (vdbcloud_api_keys)", legend: "{{org_role}}", instant: true }],
      unit: "none",
      w: 8,
      h: 8,
    },
    {
      kind: "table",
      title: "API keys",
      description:
        "One row per API key: its name and organization role, its age, and the projects it holds a role in. Never its secret, its creator or its description: the exporter does not keep them.",
      w: 16,
      h: 8,
      queries: [
        { expr: keyColumn("time() - max by (api_key_id) (vdbcloud_api_key_created_timestamp_seconds)") },
        {
          expr: keyColumn(
            "count by (api_key_id) (max by (api_key_id, project_id) (vdbcloud_api_key_project_role))",
          ),
        },
      ],
      columns: [
        { field: "api_key_id", displayName: "Key ID" },
        { field: "name", displayName: "Name" },
        { field: "org_role", displayName: "Organization role" },
        {
          field: "Value #A",
          displayName: "Age",
          unit: "dtdurations",
          thresholds: steps(["orange", OLD_KEY_SECONDS]),
          colored: true,
        },
        { field: "Value #B", displayName: "Projects with a role", unit: "none" },
      ],
    },
  ],
};
