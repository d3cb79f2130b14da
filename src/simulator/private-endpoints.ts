/**
 * Private endpoints and List Private Endpoints (GET /v2/projects/{projectId}/privateEndpoints?
 * currentPage=&pageSize=, 1..100, default 10; the server uses 10 outside that), with the shape
 * of the reference's sample: `{endpoints [{regionId, cloudId, endpointService,
 * endpointServiceStatus, endpointId, endpointStatus, gcpProjectId}], currentPage, pageSize,
 * count}`.
 *
 * Each project holds its endpoints in regions taken in turn from the world's (two by default:
 * the first project's in AWS and Google Cloud, the second's in AWS and Azure), each with the ID
 * and endpoint service its cloud names them by; only Google Cloud endpoints carry `gcpProjectId`, as the reference says. Every status
 * is AVAILABLE (the sample's) but one: the first project's second endpoint (a Private Service
 * Connect one) is PENDING, what the demo shows. A project the world does not hold lists none.
 */
import { hashString, hexFromHash, mix, unit } from "./random.js";
import { intParam, type RouteDef } from "./route.js";
import type { World } from "./world.js";

/** One simulated private endpoint (its statuses change through SimState). */
export interface SimPrivateEndpoint {
  readonly endpointId: string;
  readonly projectId: string;
  readonly regionId: string;
  readonly cloudId: string;
  readonly endpointService: string;
  /** The customer's Google Cloud project: Google Cloud endpoints only. */
  readonly gcpProjectId?: string;
  endpointStatus: string;
  endpointServiceStatus: string;
}

const ENDPOINT_SALT = 0x9e1c;
/** The page size the service uses when none, or one outside 1..100, is asked. */
const DEFAULT_PAGE_SIZE = 10;

/** The region's name without its cloud prefix ("aws-us-west-2" is "us-west-2"). */
function bareRegion(regionId: string): string {
  return regionId.replace(/^[a-z]+-/, "");
}

/** A decimal ID of `digits` digits from `h` (Private Service Connect names connections by number). */
function decimalFromHash(h: number, digits: number): string {
  let out = "";
  for (let i = 0; out.length < digits; i++) out += String(Math.floor(unit(mix(h, i)) * 1e9)).padStart(9, "0");
  return `${1 + (h % 9)}${out.slice(0, digits - 1)}`;
}

/** How each cloud names an endpoint and the service's endpoint service in `regionId`. */
function cloudNames(
  cloudId: string,
  regionId: string,
  h: number,
): { endpointId: string; endpointService: string; gcpProjectId?: string } {
  const region = bareRegion(regionId);
  switch (cloudId) {
    case "aws":
      return {
        endpointId: `vpce-${hexFromHash(h, 17)}`,
        endpointService: `com.amazonaws.vpce.${region}.vpce-svc-${hexFromHash(mix(h, 1), 17)}`,
      };
    case "gcp":
      return {
        endpointId: decimalFromHash(h, 19),
        endpointService: `projects/vdb-psc-${hexFromHash(mix(h, 1), 8)}/regions/${region}/serviceAttachments/vdb-psc-${region}`,
        gcpProjectId: `customer-net-${hexFromHash(mix(h, 2), 6)}`,
      };
    case "azure":
      return {
        endpointId: `vdb-pe-${hexFromHash(h, 12)}`,
        endpointService: `vdb-pls-${hexFromHash(mix(h, 1), 8)}.${hexFromHash(mix(h, 3), 8)}.${region}.azure.privatelinkservice`,
      };
    default:
      return {
        endpointId: `ep-${hexFromHash(h, 20)}`,
        endpointService: `com.aliyuncs.privatelink.${region}.epsrv-${hexFromHash(mix(h, 1), 20)}`,
      };
  }
}

/** `perProject` endpoints for each project of `world`; the same seed, the same endpoints. */
export function generatePrivateEndpoints(
  world: World,
  seed: number,
  perProject: number,
  withPending = false,
): SimPrivateEndpoint[] {
  const out: SimPrivateEndpoint[] = [];
  const regions = world.regions;
  world.projects.forEach((project, p) => {
    for (let i = 0; i < perProject; i++) {
      const region = regions[(p + 2 * i) % Math.max(1, regions.length)];
      const regionId = region?.regionId ?? "aws-us-west-2";
      const cloudId = region?.cloudId ?? "aws";
      const h = mix(mix(mix(seed, ENDPOINT_SALT), hashString(project.id)), i);
      const pending = withPending && p === 0 && i === Math.min(1, perProject - 1);
      out.push({
        ...cloudNames(cloudId, regionId, h),
        projectId: project.id,
        regionId,
        cloudId,
        endpointStatus: pending ? "PENDING" : "AVAILABLE",
        endpointServiceStatus: "AVAILABLE",
      });
    }
  });
  return out;
}

/** The wire form of one endpoint: `gcpProjectId` only where the endpoint has one. */
function endpointView(e: SimPrivateEndpoint): Record<string, unknown> {
  return {
    regionId: e.regionId,
    cloudId: e.cloudId,
    endpointService: e.endpointService,
    endpointServiceStatus: e.endpointServiceStatus,
    endpointId: e.endpointId,
    endpointStatus: e.endpointStatus,
    ...(e.gcpProjectId === undefined ? {} : { gcpProjectId: e.gcpProjectId }),
  };
}

/** The asked page size, or the service's 10 when it is absent or outside 1..100. */
function pageSizeOf(raw: string | undefined): number {
  const n = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 1 && n <= 100 ? n : DEFAULT_PAGE_SIZE;
}

/** The List Private Endpoints route over `endpoints`. */
export function privateEndpointRoutes(endpoints: readonly SimPrivateEndpoint[]): RouteDef[] {
  return [
    {
      method: "GET",
      path: "/v2/projects/:projectId/privateEndpoints",
      template: "GET /v2/projects/{projectId}/privateEndpoints",
      version: 2,
      mutating: false,
      dataShape: "object",
      handle: (r) => {
        const projectId = r.params.projectId ?? "";
        const pageSize = pageSizeOf(r.query.pageSize);
        const currentPage = intParam(r.query, "currentPage", 1, 1, Number.MAX_SAFE_INTEGER);
        const all = endpoints.filter((e) => e.projectId === projectId);
        const page = all.slice((currentPage - 1) * pageSize, currentPage * pageSize).map(endpointView);
        return { endpoints: page, currentPage, pageSize, count: all.length };
      },
    },
  ];
}
