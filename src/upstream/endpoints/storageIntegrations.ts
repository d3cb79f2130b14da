/**
 * List Storage Integrations (V2): GET /v2/storageIntegrations?projectId= (required)&currentPage=&
 * pageSize= (1..100), the storage integrations of one project, the buckets the service exports
 * backups to and forwards audit logs to: `{storageIntegrations [{integrationId, name, status
 * (ACTIVE, ERROR), message, regionId, bucketName}], count, currentPage, pageSize}` (docs/design.md
 * section 7). A failure of the key is `{code: 1800, message: "User hasn't authenticated"}`, which
 * the refusal rule reads as a refused key.
 *
 * Only what the listing documents is read: an item's other fields never leave this module (a
 * schema error names paths and types, never values). Describe Storage Integration (GET
 * /v2/storageIntegrations/{integrationId}) is deliberately not declared: its answer carries
 * `externalCred`, the identifiers of the credentials the service assumes (a role ARN, an
 * external ID, a service account's address), and the client has no method that could fetch it.
 */
import { z } from "zod";
import { lenientNote, lenientText } from "../lenient.js";
import type { StorageIntegration, StorageIntegrationPage } from "../results.js";
import { pageDataSchema, pageInfoOf, pageQuery, stringish } from "../wire.js";
import { defineEndpoint, PAGES, V2 } from "./define.js";

/** Arguments of List Storage Integrations. Page numbers start at 1. */
interface ListStorageIntegrationsArgs {
  readonly projectId: string;
  readonly pageSize: number;
  readonly currentPage: number;
}

// Only the ID is required: an integration cannot be told from another without it, while an odd
// name, status or message costs that field alone.
const storageIntegrationSchema = z.object({
  integrationId: stringish,
  name: lenientText,
  status: lenientText,
  message: lenientNote,
  regionId: lenientText,
  bucketName: lenientText,
});

/** The envelope's `data`. */
export const storageIntegrationsDataSchema = pageDataSchema("storageIntegrations", storageIntegrationSchema);

type StorageIntegrationsData = z.infer<typeof storageIntegrationsDataSchema>;

/** A status as sent, or null when absent, unreadable or blank: no state is known then. */
function statusOf(value: string | null): string | null {
  const trimmed = value?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
}

/** Maps `data` to a page; every integration is the asked project's (the items do not name one). */
export function normalizeStorageIntegrations(data: StorageIntegrationsData): StorageIntegrationPage {
  const integrations = (data.storageIntegrations ?? []).map(
    (s): StorageIntegration => ({
      integrationId: s.integrationId,
      name: s.name ?? "",
      status: statusOf(s.status),
      message: s.message,
      regionId: s.regionId ?? "",
      bucketName: s.bucketName ?? "",
    }),
  );
  return { ...pageInfoOf(data, integrations.length), integrations };
}

/** What the polling schedule of `--check-config` says of this listing: its calls grow with what a run lists. */
const RUN_TIME_COUNT =
  "storage integrations: one List Storage Integrations page per 100 integrations of each project that List Projects V2 lists, counted here for the configured clusters' projects";

/** List Storage Integrations (V2). */
export const listStorageIntegrationsEndpoint = defineEndpoint("GET /v2/storageIntegrations", {
  scope: "project",
  paging: PAGES("count"),
  shardZero: true,
  runTimeCount: RUN_TIME_COUNT,
}).as<ListStorageIntegrationsArgs, StorageIntegrationsData, StorageIntegrationPage>({
  request: (args) => ({
    target: V2,
    query: { projectId: args.projectId, ...pageQuery(args) },
  }),
  schema: storageIntegrationsDataSchema,
  normalize: normalizeStorageIntegrations,
});
