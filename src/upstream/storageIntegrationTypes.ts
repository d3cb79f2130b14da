/**
 * Normalized results of List Storage Integrations (V2), re-exported by types.ts. Like every
 * shape there, they know nothing of the wire or of Prometheus. They hold no credential: the
 * listing carries none, and Describe Storage Integration, whose answer names the role ARN,
 * external ID or service account the service assumes (`externalCred`), is never called.
 */
import type { PageInfo } from "./pageTypes.js";

/**
 * One storage integration of a project: the bucket the service exports backups or forwards
 * audit logs to. `status` is the raw upstream value (ACTIVE, ERROR), null when absent or
 * unreadable; `message` is the service's free text about it (why it is in ERROR), null when
 * absent or blank. Text fields the answer left out read as "".
 */
export interface StorageIntegration {
  readonly integrationId: string;
  readonly name: string;
  readonly status: string | null;
  readonly message: string | null;
  readonly regionId: string;
  readonly bucketName: string;
}

/** One page of List Storage Integrations. `total` is the documented `count`, null when absent. */
export interface StorageIntegrationPage extends PageInfo {
  readonly integrations: readonly StorageIntegration[];
}
