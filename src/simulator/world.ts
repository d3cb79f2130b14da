/**
 * The generated inventory: regions, projects and clusters (with their databases and
 * collections). Everything is derived from the seed, so two simulators with the same options
 * describe the same world.
 */
import { createRng, hexString } from "./random.js";
import { DAY_MS } from "./time.js";

/** A database/collection pair known to a cluster (the scopes of second-form metric queries). */
interface SimCollection {
  readonly dbName: string;
  readonly collectionName: string;
}

/** A generated cluster. `status` changes through `SimState.setClusterStatus`. */
export interface SimCluster {
  readonly id: string;
  readonly name: string;
  readonly projectId: string;
  readonly regionId: string;
  readonly plan: string;
  readonly cuType: string;
  /** 0 on free and serverless clusters, whose `cuType` is empty, as the reference documents. */
  readonly cuSize: number;
  readonly status: string;
  /** Backups taken (Describe Cluster snapshotNumber). */
  readonly snapshotNumber: number;
  /** Creation progress in percent: 100 once created. */
  readonly createProgress: number;
  /** Replicas, on dedicated clusters only (absent from the answer otherwise). */
  readonly replica: number | undefined;
  /**
   * Whether Describe Cluster sends `replica` as a string (the reference's schema) rather than
   * the number every sample shows: both occur.
   */
  readonly replicaAsString: boolean;
  /** Autoscaling CU bounds, on the dedicated clusters that have them. */
  readonly autoscalingCu: { readonly min: number; readonly max: number } | undefined;
  /**
   * Autoscaling replica bounds, or a schedule in their place (which the reference allows and no
   * sample shows), on the dedicated clusters that have them.
   */
  readonly autoscalingReplica: SimReplicaAutoscaling | undefined;
  /** deploymentOption: Dedicated or Serverless; free clusters leave it out, as the reference's free sample does. */
  readonly deploymentOption: "Dedicated" | "Serverless" | undefined;
  readonly createTimeMs: number;
  readonly connectAddress: string;
  readonly collections: readonly SimCollection[];
  /** Which key List Import Jobs uses for this cluster's list: both documented variants occur. */
  readonly importListKey: "records" | "tasks";
  /** True for the one cluster whose CU load stays above 85%. */
  readonly hot: boolean;
}

/** Replica autoscaling: bounds, or a schedule of targets by cron expression. */
export type SimReplicaAutoscaling =
  | { readonly min: number; readonly max: number }
  | { readonly schedules: ReadonlyArray<{ readonly cron: string; readonly target: number }> };

/** The schedule of the clusters whose replicas scale by time: two on weekdays, one otherwise. */
const REPLICA_SCHEDULE: SimReplicaAutoscaling = {
  schedules: [
    { cron: "0 8 * * 1-5", target: 2 },
    { cron: "0 20 * * 1-5", target: 1 },
  ],
};

/**
 * Replica autoscaling by position among the dedicated clusters: bounds on the ones that scale
 * their CUs too, a schedule on every fourth from the fourth on, none on the others.
 */
function replicaAutoscalingFor(index: number, dedicated: boolean): SimReplicaAutoscaling | undefined {
  if (!dedicated) return undefined;
  if (index % 4 === 1) return { min: 1, max: 3 };
  return index % 4 === 3 ? REPLICA_SCHEDULE : undefined;
}

/** A generated project and the clusters it holds. */
export interface SimProject {
  readonly id: string;
  readonly name: string;
  readonly createTimeMs: number;
  readonly clusterIds: readonly string[];
  /** List Projects V2 `plan`: Standard, Enterprise or BusinessCritical. */
  readonly plan: string;
  /** List Projects V2 `orgType`: SAAS or BYOC. */
  readonly orgType: string;
}

/** Project plans of List Projects V2, given in turn. */
const PROJECT_PLANS = ["Enterprise", "Standard", "BusinessCritical"] as const;
/** Organisation types of List Projects V2, given in turn. */
const ORG_TYPES = ["SAAS", "BYOC"] as const;

/** A cloud region of the region listing. */
export interface SimRegion {
  readonly cloudId: string;
  readonly regionId: string;
  /** Host (and port) of the version 2 server: the simulator itself, known once it listens. */
  readonly domain: string;
}

/** Internal, mutable view of a cluster; the public type stays read-only. */
export interface MutableSimCluster extends SimCluster {
  status: string;
  /** Filled in once the server listens: the simulator's own /dp/{id}. */
  connectAddress: string;
}

/** Internal view of a region: its domain is filled in once the server listens. */
interface MutableSimRegion extends SimRegion {
  domain: string;
}

/** The generated world as tests read it: a running simulator's regions, projects and clusters. */
export interface SimWorld {
  readonly regions: readonly SimRegion[];
  readonly projects: readonly SimProject[];
  readonly clusters: readonly SimCluster[];
}

/** Everything generateWorld makes: the world, with the views routes and SimState change. */
export interface World extends SimWorld {
  readonly regions: MutableSimRegion[];
  readonly clusters: MutableSimCluster[];
}

/** Every region the listing returns; clusters live in the first four. */
const REGIONS: ReadonlyArray<{ cloudId: string; regionId: string }> = [
  { cloudId: "aws", regionId: "aws-us-west-2" },
  { cloudId: "aws", regionId: "aws-us-east-1" },
  { cloudId: "gcp", regionId: "gcp-us-west1" },
  { cloudId: "azure", regionId: "az-eastus" },
  { cloudId: "aws", regionId: "aws-eu-central-1" },
  { cloudId: "ali", regionId: "ali-cn-hangzhou" },
];
const CLUSTER_REGIONS = 4;

const PROJECT_NAMES = ["Production", "Staging", "Analytics", "Research", "Search", "Recommendations"];
const CLUSTER_NAMES = ["search", "rag", "recsys", "images", "catalog", "support", "qa", "embeddings"];
const COLLECTION_NAMES = ["docs", "images", "products", "events", "faq", "users", "articles", "logs"];
const CU_TYPES = ["Performance-optimized", "Capacity-optimized", "Tiered-storage"];
const CU_SIZES = [1, 2, 4, 8, 12, 16, 32];

/** Inputs of generateWorld. */
interface WorldOptions {
  readonly seed: number;
  readonly clusters: number;
  readonly collectionsPerCluster: number;
  /** Start time; creation times are whole days before it so that one day yields one world. */
  readonly nowMs: number;
}

function pick<T>(items: readonly T[], r: number): T {
  const item = items[Math.floor(r * items.length) % items.length];
  if (item === undefined) throw new RangeError("pick from an empty list");
  return item;
}

/** `count` collections, named in turn, every third in a second database. */
export function collectionsFor(count: number): SimCollection[] {
  const out: SimCollection[] = [];
  for (let i = 0; i < count; i++) {
    const base = COLLECTION_NAMES[i % COLLECTION_NAMES.length] ?? "collection";
    const round = Math.floor(i / COLLECTION_NAMES.length);
    // Every third collection lives in a second database so db-level scopes are exercised.
    out.push({
      dbName: i % 3 === 2 ? "analytics" : "default",
      collectionName: round ? `${base}_${round}` : base,
    });
  }
  return out;
}

/**
 * Status by position: the last cluster is stopped, from six clusters on (the demo) one is still
 * creating, and from ten on one is abnormal.
 */
function statusFor(index: number, count: number): string {
  if (count >= 2 && index === count - 1) return "STOPPED";
  if (count >= 10 && index === count - 2) return "ABNORMAL";
  if (count >= 6 && index === count - 4) return "CREATING";
  return "RUNNING";
}

/**
 * Plan kind by position (no draw from the seed, so adding kinds keeps every other cluster as
 * it was): from five clusters on, one serverless; from ten on, one free (an in03- ID). Both
 * have no CUs: cuSize 0 and an empty cuType, as the reference documents.
 */
function kindFor(index: number, count: number): "dedicated" | "serverless" | "free" {
  if (count >= 5 && index === count - 2) return "serverless";
  if (count >= 10 && index === count - 3) return "free";
  return "dedicated";
}

/** A creating cluster's progress, in percent (the reference's integer). */
const CREATING_PROGRESS = 40;

/** Generates the world for `opts`; the same options always give the same world. */
export function generateWorld(opts: WorldOptions): World {
  const rng = createRng(opts.seed);
  const today = Math.floor(opts.nowMs / DAY_MS) * DAY_MS;

  const projectCount = Math.max(1, Math.min(20, Math.ceil(opts.clusters / 5)));
  const projectIds: string[] = [];
  const projectCreate: number[] = [];
  for (let p = 0; p < projectCount; p++) {
    projectIds.push(`proj-${hexString(rng, 22)}`);
    projectCreate.push(today - (400 + Math.floor(rng() * 300)) * DAY_MS);
  }

  const seen = new Set<string>();
  const clusters: MutableSimCluster[] = [];
  for (let i = 0; i < opts.clusters; i++) {
    let id = `in01-${hexString(rng, 16)}`;
    while (seen.has(id)) id = `in01-${hexString(rng, 16)}`;
    seen.add(id);
    const regionId = pick(REGIONS.slice(0, CLUSTER_REGIONS), rng()).regionId;
    const projectId = projectIds[i % projectCount] ?? "";
    const plan = rng() < 0.3 ? "Enterprise" : "Standard";
    const cuType = pick(CU_TYPES, rng());
    const cuSize = pick(CU_SIZES, rng());
    const createTimeMs = today - (30 + Math.floor(rng() * 300)) * DAY_MS;
    const suffix = String(i + 1).padStart(2, "0");
    const kind = kindFor(i, opts.clusters);
    const dedicated = kind === "dedicated";
    const status = statusFor(i, opts.clusters);
    if (kind === "free") id = id.replace(/^in01-/, "in03-");
    clusters.push({
      id,
      name: `${pick(CLUSTER_NAMES, (i % CLUSTER_NAMES.length) / CLUSTER_NAMES.length)}-${suffix}`,
      projectId,
      regionId,
      plan: kind === "free" ? "Free" : kind === "serverless" ? "Serverless" : plan,
      cuType: dedicated ? cuType : "",
      cuSize: dedicated ? cuSize : 0,
      status,
      snapshotNumber: dedicated ? i % 7 : 0,
      createProgress: status === "CREATING" ? CREATING_PROGRESS : 100,
      replica: dedicated ? 1 + (i % 3 === 1 ? 1 : 0) : undefined,
      replicaAsString: i % 2 === 1,
      autoscalingCu: dedicated && i % 4 === 1 ? { min: cuSize, max: cuSize * 4 } : undefined,
      autoscalingReplica: replicaAutoscalingFor(i, dedicated),
      deploymentOption: dedicated ? "Dedicated" : kind === "serverless" ? "Serverless" : undefined,
      createTimeMs,
      connectAddress: `https://${id}.${regionId}.vectordb.zillizcloud.com:19530`,
      collections: collectionsFor(opts.collectionsPerCluster),
      importListKey: i % 2 === 0 ? "records" : "tasks",
      hot: i === 0,
    });
  }

  // The service's own Prometheus endpoint serves Enterprise clusters only: a world with a dedicated
  // cluster always has one, even when no draw gave it (the first dedicated cluster then is).
  const dedicatedAt = clusters.findIndex((c) => c.cuSize > 0);
  const first = clusters[dedicatedAt];
  if (first !== undefined && !clusters.some((c) => c.plan === "Enterprise")) {
    clusters[dedicatedAt] = { ...first, plan: "Enterprise" };
  }

  const projects: SimProject[] = projectIds.map((id, p) => ({
    id,
    name: PROJECT_NAMES[p] ?? `Project ${p + 1}`,
    createTimeMs: projectCreate[p] ?? today,
    clusterIds: clusters.filter((c) => c.projectId === id).map((c) => c.id),
    plan: PROJECT_PLANS[p % PROJECT_PLANS.length] ?? "Standard",
    orgType: ORG_TYPES[p % ORG_TYPES.length] ?? "SAAS",
  }));

  const regions: MutableSimRegion[] = REGIONS.map((r) => ({ ...r, domain: "" }));
  return { regions, projects, clusters };
}
