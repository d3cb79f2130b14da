/**
 * List Storage Integrations as the reference shows it (docs/design.md section 7), for the
 * HTTP-level, mapping and simulator tests, and the credential identifiers Describe Storage
 * Integration would add, which no output of the exporter may ever hold. Used by tests only;
 * production code never imports this module.
 */
import type { StorageIntegration } from "./types.js";

/** The `data` of a List Storage Integrations success answer, in the reference's shape. */
export const REFERENCE_STORAGE_INTEGRATIONS = {
  storageIntegrations: [
    {
      integrationId: "integ-xxxxxxxxxxxxxxxxxxxx",
      name: "my-storage-integration",
      status: "ACTIVE",
      message: "",
      regionId: "aws-us-west-2",
      bucketName: "my-bucket",
    },
  ],
  count: 1,
  currentPage: 1,
  pageSize: 10,
} as const;

/**
 * What Describe Storage Integration's `externalCred` holds (a role ARN, an external ID, a
 * service account's address), as a server that put it into the listing too would send it: the
 * exporter must drop every value at the client.
 */
export const EXTERNAL_CRED = {
  roleArn: "arn:aws:iam::123456789012:role/zilliz-export-role",
  externalId: "ext-id-0123456789abcdef",
  serviceAccount: "export-sa@my-gcp-project.iam.gserviceaccount.com",
} as const;

/** One storage integration as the client reads it: active, no message; tests vary its fields. */
export const STORAGE_INTEGRATION: StorageIntegration = {
  integrationId: "integ-1",
  name: "backups",
  status: "ACTIVE",
  message: null,
  regionId: "aws-us-west-2",
  bucketName: "vdb-backups",
};
