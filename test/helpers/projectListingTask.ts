/**
 * The tests every task built by `projectListingTask` (src/polling/projectTask.ts) must pass, written once:
 * shard 0 only, while its section is on; its families spare every call; its plan; a key refused
 * everywhere is "not permitted" (one line), a refused key (1800) fails the target, one failing
 * part is a partial failure. A collector's test calls `projectListingTaskTests` inside its own
 * `describe` with its specifics (endpoint, fake service, listed series). Used by tests only;
 * production code never imports this module.
 */
import { expect, it } from "vitest";
import {
  type CallEstimate,
  type Collector,
  type CollectorEnv,
  type CollectorTask,
  tasksOf,
} from "../../src/polling/model.js";
import { CloudError } from "../../src/upstream/errors.js";
import { projectV2 } from "../../src/upstream/testkit.js";
import type { CloudApi, EndpointTemplate, ProjectV2 } from "../../src/upstream/types.js";
import { collectorEnv } from "./collectorEnv.js";
import { storeContext } from "./storeContext.js";

const T0 = Date.UTC(2025, 5, 1);
const SHARD_0 = { index: 0, total: 1 };

type Raw = Record<string, unknown>;
type TasksOf = (env: CollectorEnv) => CollectorTask[];

/** The tasks `tasks` builds on `shard`, with `client` for every credential and the config of `raw`. */
export async function taskOf(tasks: TasksOf, client: CloudApi, raw: Raw = {}, shard = SHARD_0) {
  const s = storeContext(T0);
  const env = { ...(await collectorEnv({ ctx: s.ctx, client, raw })), shard };
  return { s, env, tasks: tasks(env) };
}

/** Runs the one task of `tasks` `runs` times: its outcomes and what /metrics then shows. */
export async function runTask(tasks: TasksOf, client: CloudApi, raw: Raw = {}, runs = 1) {
  const { s, tasks: built } = await taskOf(tasks, client, raw);
  const [task] = built;
  if (!task) throw new Error("no task");
  const outcomes: string[] = [];
  for (let i = 0; i < runs; i++) outcomes.push(await task.run(new AbortController().signal));
  return { s, task, outcomes, text: await s.text() };
}

/** How many series of `family` `text` shows. */
export const countOf = (text: string, family: string): number =>
  text.split("\n").filter((l) => l.startsWith(`${family}{`)).length;

/** The arguments a listing is called with: a project (and region), and a page when it is paged. */
interface PartArgs {
  readonly projectId: string;
  readonly regionId?: string;
  readonly pageSize?: number;
  readonly currentPage?: number;
}

/**
 * A fake service: List Projects V2 answers `projects()`; `method` answers `answer(args)`, or
 * throws what `refuse(part)` gives, the part being "project" or "project/region". Each call is
 * recorded in `asked`: its part, and "page N of S" when paged.
 */
export function fakeService<A extends PartArgs>(opts: {
  readonly projects: () => readonly ProjectV2[];
  readonly method: keyof CloudApi;
  readonly answer: (args: A) => unknown;
  readonly refuse?: ((part: string) => Error | undefined) | undefined;
}): { client: CloudApi; asked: string[] } {
  const asked: string[] = [];
  const client = {
    listProjectsV2: async () => opts.projects(),
    [opts.method]: async (args: A) => {
      const part = args.regionId === undefined ? args.projectId : `${args.projectId}/${args.regionId}`;
      asked.push(
        args.currentPage === undefined ? part : `${part} page ${args.currentPage} of ${args.pageSize}`,
      );
      const err = opts.refuse?.(part);
      if (err) throw err;
      return opts.answer(args);
    },
  } as unknown as CloudApi;
  return { client, asked };
}

/**
 * A fake paged listing: `counts[project]` items per project (each known to List Projects V2 in
 * aws-us-west-2), the `i`-th made by `item`, paged as asked under the page's `field`.
 */
export function pagedService<T>(opts: {
  readonly method: keyof CloudApi;
  readonly field: string;
  readonly counts: Readonly<Record<string, number>>;
  readonly item: (projectId: string, i: number) => T;
  readonly refuse?: ((projectId: string) => Error | undefined) | undefined;
}): { client: CloudApi; asked: string[] } {
  return fakeService<{ projectId: string; pageSize: number; currentPage: number }>({
    projects: () => Object.keys(opts.counts).map((p) => projectV2(p, ["aws-us-west-2"])),
    method: opts.method,
    refuse: opts.refuse,
    answer: ({ projectId, pageSize, currentPage }) => {
      const total = opts.counts[projectId] ?? 0;
      const from = (currentPage - 1) * pageSize;
      const page = Array.from({ length: Math.max(0, Math.min(pageSize, total - from)) }, (_, i) =>
        opts.item(projectId, from + i),
      );
      return { total, currentPage, pageSize, listed: page.length, [opts.field]: page };
    },
  });
}

/**
 * Runs a paged per-project listing once, `fake` holding 112 items of proj-big (two pages), 3 of
 * proj-small and none of proj-extra (known from a configured cluster only); checks the run is
 * ok and each page was asked once, at `pageSize`; returns what /metrics then shows.
 */
export async function runPagedListing(
  tasks: TasksOf,
  fake: (counts: Record<string, number>) => { client: CloudApi; asked: string[] },
  pageSize: number,
): Promise<string> {
  const { client, asked } = fake({ "proj-big": 112, "proj-small": 3 });
  const { outcomes, text } = await runTask(tasks, client, {
    clusters: [{ id: "in01-x", project_id: "proj-extra" }],
  });
  expect(outcomes).toEqual(["ok"]);
  expect(asked).toEqual([
    `proj-big page 1 of ${pageSize}`,
    `proj-big page 2 of ${pageSize}`,
    `proj-small page 1 of ${pageSize}`,
    `proj-extra page 1 of ${pageSize}`,
  ]);
  return text;
}

/** The errors by which the service says a key may not list a part: "not permitted". */
export function notPermittedErrors(endpoint: EndpointTemplate) {
  return [
    [
      "the error-code list's 96013",
      () =>
        new CloudError("api_error", "upstream code 96013: Org owner or project owner is needed", {
          endpoint,
          apiCode: 96013,
        }),
    ],
    [
      "the error-code list's 96027",
      () =>
        new CloudError("api_error", "upstream code 96027: Please check your Apikey scope", {
          endpoint,
          apiCode: 96027,
        }),
    ],
    ["HTTP 403", () => new CloudError("auth_error", "HTTP 403: Forbidden", { endpoint, httpStatus: 403 })],
  ] as const;
}

/** Configured clusters of two projects (p1 twice, p2, and one of no project): a plan of two parts. */
export const TWO_PROJECTS: Raw = {
  clusters: [
    { id: "in01-a", project_id: "p1" },
    { id: "in01-b", project_id: "p1" },
    { id: "in01-c", project_id: "p2" },
    { id: "in01-d" },
  ],
};

/** Configured clusters of two projects and regions (one twice, and one of no project): a plan of two parts. */
export const TWO_REGIONS: Raw = {
  clusters: [
    { id: "in01-a", project_id: "p1", region: "aws-us-west-2" },
    { id: "in01-b", project_id: "p1", region: "aws-us-west-2" },
    { id: "in01-c", project_id: "p1", region: "az-eastus" },
    { id: "in01-d", region: "az-eastus" },
  ],
};

/** The error of a region whose plan lacks the feature (96028): one part's failure, not a refusal. */
export function planRefusal(endpoint: EndpointTemplate): CloudError {
  return new CloudError(
    "api_error",
    "upstream code 96028: Feature only supported for enterprise plan clusters.",
    {
      endpoint,
      apiCode: 96028,
    },
  );
}

/** What one per-project listing task is, for `projectListingTaskTests`. */
export interface ProjectListingTaskCase {
  /** The tasks under test. */
  readonly tasks: TasksOf;
  readonly id: { readonly collector: string; readonly target: string };
  /** The endpoint each part calls, as the plan names it. */
  readonly endpoint: EndpointTemplate;
  /** The default interval. */
  readonly intervalMs: number;
  /** Settings of another interval, and that interval. */
  readonly interval?: readonly [Raw, number];
  /** Settings under which there is no task. */
  readonly off: readonly Raw[];
  /** Configured clusters of two parts, for the plan. */
  readonly planned: Raw;
  /** The collector and its families, for a collector of its own (the deny list spares it). */
  readonly families?: { readonly collector: Collector; readonly deny: string; readonly names: string[] };
  /** A fake service of two parts or more whose listing throws what `refuse(part)` gives. */
  readonly service: (refuse: (part: string) => Error | undefined) => CloudApi;
  /** The listed series `text` shows: those of a family, or those a function picks. */
  readonly listed: string | ((text: string) => readonly string[]);
  /** The calls it plans beside List Projects V2 and the listing (a describe call for some items). */
  readonly moreCalls?: readonly CallEstimate[];
  /** One part failing among others: its part, its error, what is still listed and its health message. */
  readonly partial: {
    readonly what: string;
    readonly part: string;
    readonly error: () => Error;
    readonly shown: number;
    readonly contains?: readonly string[];
    readonly message: RegExp;
  };
}

/** Declares, in the caller's `describe`, the tests every per-project listing task must pass. */
export function projectListingTaskTests(c: ProjectListingTaskCase): void {
  const { collector, target } = c.id;
  const family = c.listed;
  const listed =
    typeof family === "string"
      ? (text: string) => text.split("\n").filter((l) => l.startsWith(`${family}{`))
      : family;
  const service = () => c.service(() => undefined);

  it("is scheduled on shard 0 only, while its section is on", async () => {
    expect((await taskOf(c.tasks, service())).tasks.map((t) => [t.id, t.intervalMs, t.credential])).toEqual([
      [c.id, c.intervalMs, "default"],
    ]);
    if (c.interval) {
      const [raw, ms] = c.interval;
      expect((await taskOf(c.tasks, service(), raw)).tasks.map((t) => t.intervalMs)).toEqual([ms]);
    }
    for (const shard of [
      { index: 1, total: 2 },
      { index: 1, total: 3 },
    ])
      expect((await taskOf(c.tasks, service(), {}, shard)).tasks).toEqual([]);
    for (const raw of c.off) expect((await taskOf(c.tasks, service(), raw)).tasks).toEqual([]);
  });

  const families = c.families;
  if (families)
    it("declares its families, so a deny list of them all spares every call", async () => {
      const { env } = await taskOf(c.tasks, service(), { families: { deny: [families.deny] } });
      expect(families.collector.families(env.config)).toEqual(families.names);
      expect(tasksOf([families.collector], env)).toEqual([]);
    });

  it("plans List Projects V2 and a call per part of the configured clusters, more at run time", async () => {
    const [task] = (await taskOf(c.tasks, service(), c.planned)).tasks;
    expect(task?.calls).toEqual([
      { endpoint: "GET /v2/projects", count: 1, atLeast: false },
      { endpoint: c.endpoint, count: 2, atLeast: true },
      ...(c.moreCalls ?? []),
    ]);
  });

  it.each(notPermittedErrors(c.endpoint))(
    "a key refused everywhere by %s is not permitted: up, one line",
    async (_name, err) => {
      const { s, outcomes, text } = await runTask(
        c.tasks,
        c.service(() => err()),
        {},
        3,
      );
      expect(outcomes).toEqual(["ok", "ok", "ok"]);
      expect(text).toContain(
        `vdbcloud_collector_not_permitted{collector="${collector}",target="${target}",credential="default"} 1`,
      );
      expect(text).toContain(`vdbcloud_collector_up{collector="${collector}",target="${target}"} 1`);
      expect(listed(text)).toEqual([]);
      const lines = s.logs.filter((l) => /"level":(40|50)/.test(l));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/credential lacks the permission this collector needs \(Project Admin\)/);
    },
  );

  it('a key the service refuses (1800 "User hasn\'t authenticated") fails the target', async () => {
    const refused = new CloudError("auth_error", "upstream code 1800: User hasn't authenticated", {
      endpoint: c.endpoint,
      apiCode: 1800,
    });
    const { outcomes, text } = await runTask(
      c.tasks,
      c.service(() => refused),
    );
    expect(outcomes).toEqual(["permanent_failure"]);
    expect(text).toContain(`vdbcloud_collector_up{collector="${collector}",target="${target}"} 0`);
    expect(text).not.toContain(`vdbcloud_collector_not_permitted{collector="${collector}"`);
  });

  const { partial } = c;
  it(`${partial.what} is a partial failure; the other parts are shown`, async () => {
    const failing = partial.error();
    const { s, outcomes, text } = await runTask(
      c.tasks,
      c.service((part) => (part === partial.part ? failing : undefined)),
    );
    expect(outcomes).toEqual(["ok"]);
    expect(listed(text)).toHaveLength(partial.shown);
    for (const line of partial.contains ?? []) expect(text).toContain(line);
    expect(
      s.health.list().find((h) => h.collector === collector && h.target === target)?.partialError?.message,
    ).toMatch(partial.message);
  });
}

/** An organization-wide listing of a collector of its own, as the kits built on `projectListingTaskTests` take it. */
export interface OwnListingCase {
  readonly collector: Collector & { readonly tasks: TasksOf };
  /** Its section's key, whose `enabled: false` removes the task. */
  readonly section: string;
  readonly endpoint: EndpointTemplate;
  readonly intervalMs: number;
  /** Settings of another interval, and that interval. */
  readonly interval?: readonly [Raw, number];
}

/** The fields of a `ProjectListingTaskCase` that follow from `c`: its tasks, target "organization", section off. */
export function ownListingFields(c: OwnListingCase) {
  return {
    tasks: c.collector.tasks,
    id: { collector: c.collector.label, target: "organization" },
    endpoint: c.endpoint,
    intervalMs: c.intervalMs,
    ...(c.interval ? { interval: c.interval } : {}),
    off: [{ [c.section]: { enabled: false } }],
  };
}

/** A paged per-project listing of a collector of its own, for `pagedProjectListingTests`. */
export interface PagedProjectListingCase<T> extends OwnListingCase {
  /** The client method of the listing, and the page's field holding its items. */
  readonly method: keyof CloudApi;
  readonly field: string;
  /** The `i`-th item of a project. */
  readonly item: (projectId: string, i: number) => T;
  readonly pageSize: number;
  /** Its families, the first being one series per listed item. */
  readonly names: readonly [string, ...string[]];
  /** Which project's keys are not admin, in words. */
  readonly notAdmin: string;
  /** What /metrics shows after the listing of 112 items in one project, 3 in another, none in a third. */
  readonly shows: (text: string) => void;
}

/**
 * Declares every test of a paged per-project listing that lists through `pagedService`: those of
 * `projectListingTaskTests` (the refusing part being a project whose key is not admin, 96013),
 * and every page of each known project listed once.
 */
export function pagedProjectListingTests<T>(c: PagedProjectListingCase<T>): void {
  const fake = (counts: Record<string, number>, refuse?: (projectId: string) => Error | undefined) =>
    pagedService({ method: c.method, field: c.field, counts, item: c.item, refuse });
  const [listed] = c.names;
  projectListingTaskTests({
    ...ownListingFields(c),
    planned: TWO_PROJECTS,
    families: { collector: c.collector, deny: `${listed.replace(/_info$/, "")}_.*`, names: [...c.names] },
    service: (refuse) => fake({ p1: 2, p2: 3 }, refuse).client,
    listed,
    partial: {
      what: c.notAdmin,
      part: "p1",
      error: notPermittedErrors(c.endpoint)[0][1],
      shown: 3,
      message: /96013/,
    },
  });

  it("lists every page of each known project once: 112 items in two pages, 3 in one, none in one", async () => {
    const text = await runPagedListing(c.collector.tasks, fake, c.pageSize);
    expect(countOf(text, listed)).toBe(115);
    c.shows(text);
  });
}
