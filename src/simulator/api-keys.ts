/**
 * API keys: List API Keys (GET /v2/api-keys?currentPage=&pageSize=, 1..100, default 10) in the
 * reference's current shape, `{count, currentPage, pageSize, apiKeys [{apiKeyId, name,
 * description, creatorName, createdBy, orgRole, projects [{projectId, projectName, role,
 * allCluster, clusters, allVolume, volumes}], createTime}]}`, or in the older shape its list
 * sample still shows (`orgRoles` bindings, `projectRoles` with a list of roles each, an epoch
 * createTime), as the `apiKeysShape` option says.
 *
 * Every key carries what a person left on it (a display name, an e-mail address or a creator
 * key ID, a description), as the service sends it, so that a test can show none of it reaches
 * an output. The world's keys: the exporter's own (named SIM_OWN_KEY_NAME, Read-Only in every
 * project), a deploy key (Read-Write in the first project), an Owner key, a billing key, and an
 * analyst's key whose project role is outside the enums ("Data Reader"). With the bad cases
 * (the demo's), the exporter's own key also holds Admin in the first project, and the Owner and
 * billing keys are over a year old.
 */
import { ApiCode, SimApiError } from "./errors.js";
import { hashString, hexFromHash, mix } from "./random.js";
import { pageParams, type RouteDef } from "./route.js";
import { DAY_MS } from "./time.js";
import type { World } from "./world.js";

/** The name of the key the simulator calls the exporter's own: the demo's `api.key_id` names it. */
export const SIM_OWN_KEY_NAME = "vdbcloud-exporter";

/** The two shapes of the reference. */
export const API_KEY_SHAPES = ["current", "older"] as const;
export type ApiKeyShape = (typeof API_KEY_SHAPES)[number];

/**
 * Where the listing is routed: the reference's path (`/v2/api-keys`), or the spelling a public
 * account of the live gateway found it routing instead (`/v2/apiKeys`), the other answering as
 * any unknown path does (HTTP 404).
 */
export const API_KEY_PATHS = { reference: "/v2/api-keys", gateway: "/v2/apiKeys" } as const;
export type ApiKeyPath = keyof typeof API_KEY_PATHS;

/** One project role of a simulated key, with the scope fields the current shape sends. */
export interface SimApiKeyProject {
  readonly projectId: string;
  readonly projectName: string;
  readonly role: string;
}

/** One simulated API key, people's fields included. */
export interface SimApiKey {
  readonly apiKeyId: string;
  readonly name: string;
  readonly description: string;
  readonly creatorName: string;
  /** An e-mail address, or the ID of the key that made it. */
  readonly createdBy: string;
  readonly orgRole: string;
  readonly projects: readonly SimApiKeyProject[];
  readonly createTimeMs: number;
}

const KEY_SALT = 0xa91;

/** What each key of the world is, before IDs and people are given. */
interface KeyPlan {
  readonly name: string;
  readonly orgRole: string;
  readonly ageDays: number;
  /** Its role in each project (by index in the world), or none. */
  readonly roles: (projectIndex: number, projects: number) => string | undefined;
  readonly description: string;
}

/** The world's keys; `bad`: the demo's bad cases (excess privilege, keys over a year old). */
function plans(bad: boolean): KeyPlan[] {
  return [
    {
      name: SIM_OWN_KEY_NAME,
      orgRole: "Member",
      ageDays: 20,
      roles: (p) => (bad && p === 0 ? "Admin" : "Read-Only"),
      description: "Monitoring: the exporter reads clusters, jobs and usage",
    },
    {
      name: "ci-deploy",
      orgRole: "Member",
      ageDays: 90,
      roles: (p) => (p === 0 ? "Read-Write" : undefined),
      description: "Deploys from the CI pipeline of the platform team",
    },
    {
      name: "org-admin-automation",
      orgRole: "Owner",
      ageDays: bad ? 500 : 60,
      roles: () => undefined,
      description: "Terraform runs of Sam Placeholder, ask before rotating",
    },
    {
      name: "billing-export",
      orgRole: "Billing-Admin",
      ageDays: bad ? 400 : 200,
      roles: () => undefined,
      description: "Monthly invoice export to finance",
    },
    {
      name: "analyst-notebooks",
      orgRole: "Member",
      ageDays: 10,
      roles: (p, n) => (p === n - 1 ? "Data Reader" : undefined),
      description: "Notebooks of the analytics team",
    },
  ];
}

/** The people who made the keys, in turn: a display name and an e-mail address each. */
const PEOPLE = [
  ["Alex Placeholder", "alex.placeholder@example.com"],
  ["Robin Example", "robin.example@example.org"],
  ["Kim Sample", "kim.sample@example.net"],
] as const;

/**
 * The world's keys and `extra` more (Read-Only in the first project, a day apart: a listing longer
 * than a page), at `nowMs`; the same seed, the same keys.
 */
export function generateApiKeys(
  world: World,
  seed: number,
  nowMs: number,
  opts: { readonly badCases?: boolean; readonly extra?: number } = {},
): SimApiKey[] {
  const projects = world.projects;
  const all: KeyPlan[] = [...plans(opts.badCases === true)];
  for (let i = 0; i < (opts.extra ?? 0); i++) {
    all.push({
      name: `service-${i + 1}`,
      orgRole: "Member",
      ageDays: 1 + (i % 300),
      roles: (p) => (p === 0 ? "Read-Only" : undefined),
      description: `Service account ${i + 1}`,
    });
  }
  const keys: SimApiKey[] = [];
  all.forEach((plan, i) => {
    const h = mix(mix(seed, KEY_SALT), hashString(plan.name));
    const [creatorName, email] = PEOPLE[i % PEOPLE.length] ?? PEOPLE[0];
    // Every third key was made by another key: createdBy is then that key's ID.
    const maker = i % 3 === 2 ? keys[0] : undefined;
    keys.push({
      apiKeyId: `key-${hexFromHash(h, 16)}`,
      name: plan.name,
      description: plan.description,
      creatorName,
      createdBy: maker?.apiKeyId ?? email,
      orgRole: plan.orgRole,
      projects: projects.flatMap((project, p) => {
        const role = plan.roles(p, projects.length);
        return role === undefined ? [] : [{ projectId: project.id, projectName: project.name, role }];
      }),
      createTimeMs: nowMs - plan.ageDays * DAY_MS - (h % 3_600) * 1000,
    });
  });
  return keys;
}

/** `ms` as the service writes a time: ISO 8601 UTC, whole seconds. */
function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** What both shapes send of a key alike: its ID and name, and what a person left on it. */
function keyIdentity(k: SimApiKey): Record<string, unknown> {
  return {
    apiKeyId: k.apiKeyId,
    name: k.name,
    description: k.description,
    creatorName: k.creatorName,
    createdBy: k.createdBy,
  };
}

/** A key in the current shape. */
function currentShape(k: SimApiKey): Record<string, unknown> {
  return {
    ...keyIdentity(k),
    orgRole: k.orgRole,
    projects: k.projects.map((p) => ({
      projectId: p.projectId,
      projectName: p.projectName,
      role: p.role,
      allCluster: true,
      clusters: [],
      allVolume: true,
      volumes: [],
    })),
    createTime: isoSeconds(k.createTimeMs),
  };
}

/** A key in the older shape: role bindings ("Org Owner"), a list of role objects per project, epoch ms. */
function olderShape(k: SimApiKey): Record<string, unknown> {
  const h = hashString(k.apiKeyId);
  return {
    ...keyIdentity(k),
    orgRoles: [
      {
        bindingId: `bind-${hexFromHash(h, 12)}`,
        roleId: `role-${hexFromHash(mix(h, 1), 8)}`,
        roleName: `Org ${k.orgRole}`,
        roleType: "ORG",
      },
    ],
    projectRoles: k.projects.map((p) => ({
      projectId: p.projectId,
      roles: [{ roleId: `role-${hexFromHash(mix(h, 2), 8)}`, roleName: p.role }],
    })),
    createTime: k.createTimeMs,
  };
}

/** What the listing answers with: a shape, and whether the caller may list keys at all. */
export interface ApiKeyListing {
  readonly keys: readonly SimApiKey[];
  shape: ApiKeyShape;
  /** The caller is neither an Organization Owner nor a Project Admin: 96013 under HTTP 403. */
  refused: boolean;
  /** When set, the only keys that may list keys (an Owner's): every other is refused as above. */
  readonly listers?: ReadonlySet<string> | undefined;
  /** Where it is routed (API_KEY_PATHS); default the reference's path. */
  readonly path?: ApiKeyPath;
}

/** List API Keys over `listing`. */
export function apiKeyRoutes(listing: ApiKeyListing): RouteDef[] {
  const path = API_KEY_PATHS[listing.path ?? "reference"];
  return [
    {
      method: "GET",
      path,
      template: `GET ${path}`,
      version: 2,
      mutating: false,
      dataShape: "object",
      handle: (r) => {
        const lister = listing.listers === undefined || (r.key !== undefined && listing.listers.has(r.key));
        if (listing.refused || !lister) {
          throw new SimApiError(ApiCode.PERMISSION_DENIED, "Org owner or project owner is needed", {
            httpStatus: 403,
          });
        }
        const { pageSize, currentPage, slice } = pageParams(r.query);
        const form = listing.shape === "older" ? olderShape : currentShape;
        return { count: listing.keys.length, currentPage, pageSize, apiKeys: slice(listing.keys).map(form) };
      },
    },
  ];
}
