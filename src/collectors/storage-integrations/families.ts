/**
 * The projects' storage integrations (docs/metrics.md). No family carries an integration's
 * message (free text, logged once per change) or a credential: the listing holds none, and
 * Describe Storage Integration, which does, is never called.
 */
import { gauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** When no storage integration family has a series, whatever else its own entry adds. */
const NO_INTEGRATIONS =
  'no series with storage_integrations.enabled false, on shards other than 0, or for a project whose listing has not answered yet; none while the key may not list a project\'s integrations (vdbcloud_collector_not_permitted{collector="storage_integrations"}); an integration no longer listed loses its series at the next listing';

/** The storage integrations of each known project: List Storage Integrations (shard 0). */
export const STORAGE_INTEGRATION_FAMILIES = {
  info: gauge("vdbcloud_storage_integration_info", {
    help: "A storage integration of a project in labels, always 1: its name, region and bucket; never its credentials or its message (upstream List Storage Integrations).",
    labels: ["project_id", "integration_id", "name", "region_id", "bucket_name"],
    source: `${ENDPOINT.listStorageIntegrations} integrationId, name, regionId, bucketName`,
    absent: NO_INTEGRATIONS,
  }),
  status: gauge("vdbcloud_storage_integration_status", {
    help: "Storage integration status, one series per known status (active, error; another is added lowercased), 1 for the current one at the last listing (upstream List Storage Integrations status).",
    labels: ["project_id", "integration_id", "status"],
    source: `${ENDPOINT.listStorageIntegrations} status (ACTIVE, ERROR); the message beside it is logged once per change, never exposed`,
    absent: `${NO_INTEGRATIONS}; no series while the answer carries no status`,
  }),
} as const;
