/**
 * A task that lists something of each known project (the console's alert rules) or of each
 * known project and region (on-demand clusters): the account-wide listings only the replica
 * that owns account-wide calls makes, with the default credential. One run asks List Projects
 * V2 for the known projects (polling/projects.ts), then each part through `pollParts`
 * (polling/parts.ts), inside `runPoll`, so the one refusal rule decides what a refused key is.
 * A collector that is only such a listing declares it (`sectionListingTasks`), and a paged
 * listing per project is read by one rule (`eachProjectPaged`), not a wrapper per collector.
 */
import { ownsGlobalCalls } from "../config/shard.js";
import type { Config } from "../config/types.js";
import type { MappingResult } from "../metrics/sample.js";
import type { CloudApi, EndpointTemplate, PageInfo } from "../upstream/types.js";
import { ENDPOINT } from "../upstream/types.js";
import type { RoleHint } from "./health.js";
import { type CallEstimate, type CollectorEnv, type CollectorTask, collectorTask } from "./model.js";
import { listEveryPage, type PageRequest } from "./pager.js";
import { pollParts } from "./parts.js";
import { type KnownProject, knownProjects, mergeKnownProjects } from "./projects.js";
import { runPoll } from "./runtime.js";

/** What one such task lists, and how. */
export interface ProjectListing<P> {
  readonly collector: string;
  readonly target: string;
  /** What the key needs, for the one log line of a refusal. */
  readonly role: RoleHint;
  readonly intervalMs: number;
  /** The endpoint each part calls (once a part at least: the schedule counts it so). */
  readonly endpoint: EndpointTemplate;
  /** The parts of the known projects: the projects themselves, or each project and region. */
  readonly parts: (projects: readonly KnownProject[]) => readonly P[];
  readonly key: (part: P) => string;
  /**
   * The hold key parts share where the server does not offer the endpoint (pollParts'
   * `holdKey`: each project and region held by its region); default: the part's key.
   */
  readonly holdKey?: (part: P) => string;
  /** Lists one part and maps it. */
  readonly poll: (client: CloudApi, part: P, signal?: AbortSignal) => Promise<MappingResult>;
  /** Calls a run may make beside one listing a part (a describe call for some items), as the schedule counts them. */
  readonly moreCalls?: readonly CallEstimate[];
}

/**
 * The task of `listing`, or none on a replica that does not own account-wide calls. Its plan
 * counts List Projects V2 and one call a part of the configured clusters' projects, at least one
 * (every organisation has a project, and every project a region), more at run time.
 */
export function projectListingTask<P>(env: CollectorEnv, listing: ProjectListing<P>): CollectorTask[] {
  if (!ownsGlobalCalls(env.shard)) return [];
  const { collector, target } = listing;
  const client = env.clients.forCluster({});
  const credential = env.clients.credentialOf({});
  // Every configured cluster (any shard's) and this replica's discovered ones.
  const places = [...env.config.clusters, ...env.clusters];
  const counted = Math.max(1, listing.parts(mergeKnownProjects([], places)).length);
  const ttlMs = env.config.stalenessIntervals * listing.intervalMs;
  return [
    collectorTask({
      id: { collector, target },
      credential,
      calls: [
        { endpoint: ENDPOINT.listProjectsV2, count: 1, atLeast: false },
        { endpoint: listing.endpoint, count: counted, atLeast: true },
        ...(listing.moreCalls ?? []),
      ],
      intervalMs: listing.intervalMs,
      run: (signal) =>
        runPoll(env.ctx, { collector, target, credential, role: listing.role }, async (run) => {
          const parts = listing.parts(await knownProjects(client, places, signal, env.ctx));
          const { key, holdKey } = listing;
          await pollParts(
            env.ctx,
            run,
            {
              collector,
              target,
              key,
              ...(holdKey === undefined ? {} : { holdKey }),
              poll: (p, s) => listing.poll(client, p, s),
              ttlMs,
            },
            parts,
            signal,
          );
        }),
    }),
  ];
}

/** The switch and interval of a section whose collector is one project listing. */
export interface ListingSettings {
  readonly enabled: boolean;
  readonly intervalMs: number;
}

/**
 * The tasks of a collector whose work is one project listing, for `defineCollector`: none while
 * `settings(config).enabled` is off, else `projectListingTask` of `listing(env)` at the
 * section's interval (so none either off shard 0). The collector hands its section's settings
 * over, so that the framework needs no section's name.
 */
export function sectionListingTasks<P>(
  settings: (config: Config) => ListingSettings,
  listing: (env: CollectorEnv) => Omit<ProjectListing<P>, "intervalMs">,
): (env: CollectorEnv) => CollectorTask[] {
  return (env) => {
    const { enabled, intervalMs } = settings(env.config);
    return enabled ? projectListingTask(env, { ...listing(env), intervalMs }) : [];
  };
}

/** How one project's paged listing is read: its endpoint, page size, call, items and their identity. */
export interface ProjectPages<Page extends PageInfo, T> {
  readonly endpoint: EndpointTemplate;
  /** The page size asked first (the documented maximum, as a rule). */
  readonly pageSize: number;
  readonly fetch: (
    client: CloudApi,
    asked: PageRequest & { readonly projectId: string },
    signal?: AbortSignal,
  ) => Promise<Page>;
  readonly items: (page: Page) => readonly T[];
  readonly key: (item: T) => string;
}

/** Every item of `projectId`'s listing, each once, read through the pager (`listEveryPage`'s contract). */
export function listProjectPages<Page extends PageInfo, T>(
  pages: ProjectPages<Page, T>,
  client: CloudApi,
  projectId: string,
  signal?: AbortSignal,
): Promise<T[]> {
  const { endpoint, pageSize, items, key } = pages;
  return listEveryPage(
    { endpoint, pageSize, items, key, fetch: (page, s) => pages.fetch(client, { projectId, ...page }, s) },
    signal,
  );
}

/**
 * The parts of a listing of each known project, every page: the parts are the known projects,
 * keyed by ID; each is listed whole (`listProjectPages`), then mapped by `map`. The plan counts
 * a page a project at least (more for a project of more items than a page holds).
 */
export function eachProjectPaged<Page extends PageInfo, T>(
  pages: ProjectPages<Page, T>,
  map: (items: T[], projectId: string) => MappingResult,
): Pick<ProjectListing<KnownProject>, "endpoint" | "parts" | "key" | "poll"> {
  return {
    endpoint: pages.endpoint,
    parts: (projects) => projects,
    key: (p) => p.projectId,
    poll: async (client, p, signal) =>
      map(await listProjectPages(pages, client, p.projectId, signal), p.projectId),
  };
}
