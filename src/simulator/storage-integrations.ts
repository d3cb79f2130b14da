/**
 * Storage integrations: List Storage Integrations (GET /v2/storageIntegrations?projectId=
 * (required)&currentPage=&pageSize=, 1..100, default 10) with the shape of the reference:
 * `{storageIntegrations [{integrationId, name, status, message, regionId, bucketName}], count,
 * currentPage, pageSize}`, and Describe Storage Integration (GET
 * /v2/storageIntegrations/{integrationId}), which adds `externalCred`.
 *
 * Each project holds its integrations in the region of its first cluster (a project without
 * clusters in the world's first), in turn a backup export and an audit-log forward. Every one
 * is ACTIVE with an empty message, as in the sample, but one: the first project's second (its
 * only, when it has one) is in ERROR with the service's reason, what the demo shows.
 *
 * Describe is served as the service serves it, credentials' identifiers included (each unique to
 * its integration), so that a test can show that the exporter never asks for it and that none
 * of them reaches an output.
 */
import { ApiCode, SimApiError } from "./errors.js";
import { hashString, hexFromHash, mix } from "./random.js";
import { projectPageParams, type RouteDef } from "./route.js";
import type { World } from "./world.js";

/**
 * What Describe adds to an integration: the identifiers of the credentials the service assumes
 * to reach the bucket (the simulator's own field names inside; the reference's sample shows
 * the object).
 */
export interface SimExternalCred {
  readonly roleArn: string;
  readonly externalId: string;
  readonly serviceAccount: string;
}

/** One simulated storage integration (its status and message change through SimState). */
export interface SimStorageIntegration {
  readonly integrationId: string;
  readonly projectId: string;
  readonly name: string;
  readonly regionId: string;
  readonly bucketName: string;
  status: string;
  message: string;
  readonly externalCred: SimExternalCred;
}

const INTEGRATION_SALT = 0x5707;
const KINDS = ["backup-export", "audit-log-forward"] as const;

/** The reason the demo's broken integration gives. */
export const BROKEN_INTEGRATION_MESSAGE =
  "Access Denied: the role cannot write to the bucket (s3:PutObject). Check the bucket policy and the role's trust relationship.";

/** `perProject` integrations for each project of `world`; the same seed, the same integrations. */
export function generateStorageIntegrations(
  world: World,
  seed: number,
  perProject: number,
  withError = false,
): SimStorageIntegration[] {
  const out: SimStorageIntegration[] = [];
  world.projects.forEach((project, p) => {
    const regionId =
      world.clusters.find((c) => c.projectId === project.id)?.regionId ??
      world.regions[0]?.regionId ??
      "aws-us-west-2";
    for (let i = 0; i < perProject; i++) {
      const h = mix(mix(mix(seed, INTEGRATION_SALT), hashString(project.id)), i);
      const kind = KINDS[i % KINDS.length] ?? "backup-export";
      const broken = withError && p === 0 && i === Math.min(1, perProject - 1);
      out.push({
        integrationId: `integ-${hexFromHash(h, 20)}`,
        projectId: project.id,
        name: `${kind}-${i + 1}`,
        regionId,
        bucketName: `vdb-${kind}-${hexFromHash(mix(h, 1), 8)}`,
        status: broken ? "ERROR" : "ACTIVE",
        message: broken ? BROKEN_INTEGRATION_MESSAGE : "",
        externalCred: {
          roleArn: `arn:aws:iam::${hexFromHash(mix(h, 2), 12)}:role/vdb-integration-${hexFromHash(mix(h, 3), 10)}`,
          externalId: `ext-${hexFromHash(mix(h, 4), 24)}`,
          serviceAccount: `vdb-${hexFromHash(mix(h, 5), 10)}@customer-project.iam.gserviceaccount.com`,
        },
      });
    }
  });
  return out;
}

/** The listing's form of one integration: no credential. */
function listed(s: SimStorageIntegration): Record<string, unknown> {
  return {
    integrationId: s.integrationId,
    name: s.name,
    status: s.status,
    message: s.message,
    regionId: s.regionId,
    bucketName: s.bucketName,
  };
}

/** List Storage Integrations and Describe Storage Integration over `integrations`. */
export function storageIntegrationRoutes(integrations: readonly SimStorageIntegration[]): RouteDef[] {
  return [
    {
      method: "GET",
      path: "/v2/storageIntegrations",
      template: "GET /v2/storageIntegrations",
      version: 2,
      mutating: false,
      dataShape: "object",
      handle: (r) => {
        const { projectId, pageSize, currentPage, slice } = projectPageParams(r.query);
        const all = integrations.filter((s) => s.projectId === projectId);
        const page = slice(all).map(listed);
        return { storageIntegrations: page, count: all.length, currentPage, pageSize };
      },
    },
    {
      method: "GET",
      path: "/v2/storageIntegrations/:integrationId",
      template: "GET /v2/storageIntegrations/{integrationId}",
      version: 2,
      mutating: false,
      dataShape: "object",
      handle: (r) => {
        const found = integrations.find((s) => s.integrationId === r.params.integrationId);
        if (!found) {
          throw new SimApiError(
            ApiCode.NOT_FOUND,
            `storage integration not found: ${r.params.integrationId}`,
          );
        }
        return { ...listed(found), projectId: found.projectId, externalCred: found.externalCred };
      },
    },
  ];
}
