import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { COLLECTORS } from "../collectors/registry.js";
import { DEFAULT_METRIC_QUERIES } from "../config/queries.js";
import type { DemoWorld } from "../polling/model.js";
import type { Simulator } from "../simulator/index.js";
import {
  expandQuery,
  isClusterOnly,
  otherForm,
  type QueryLike,
  toCurrentForm,
  UPSTREAM_METRICS,
  upstreamMetric,
} from "../upstream/catalog.js";

/**
 * The names only the 2024 reference lists whose questions no current name asks (the success
 * ratio, the all-types failure ratio, entity inserts, bulk-insert latency), in the 2024 form.
 * The permissive demo asks them too, so that every family has data.
 */
const ONLY_2024: readonly QueryLike[] = UPSTREAM_METRICS.filter((m) => !m.references.includes("current"))
  .flatMap((m) => expandQuery({ name: m.name }))
  .filter((q) => otherForm(q) === undefined);

/**
 * A name no server knows, asked on purpose (with `allow_unknown_names`): the simulator refuses
 * it, and the demo shows what a refused query costs (itself only) and how it is reported.
 */
const REFUSED_ON_PURPOSE = { name: "DEMO_REFUSED_METRIC" } as const;

/**
 * The per-collection queries of the demo (configured scopes and discovered collections): the
 * cluster-wide list's names a scope can carry, without the unknown name, which is shown at
 * cluster level only: finding it among some thirty names, which a strict server refuses as a
 * whole, would cost dozens of calls per collection and delay the first cycle.
 */
function scopeQueries(queries: readonly QueryLike[]): QueryLike[] {
  return queries.filter(
    (q) =>
      upstreamMetric(q.name) !== undefined &&
      !isClusterOnly(q.name) &&
      expandQuery(q).every((x) => toCurrentForm(x) !== undefined),
  );
}

/**
 * Which reference the demo's simulator follows: "current" (the default: the reference as it
 * reads today, name only, one unknown name refusing the request, as the real service is
 * documented), "2024" (the older reference, `stat` required: the exporter learns that form for
 * the demo key on its first refusal and sends it from then on), or "permissive" (every name the
 * exporter knows, in either request form: every family and dashboard panel has data). "strict"
 * is the earlier name of "2024".
 */
export const DEMO_METRIC_CATALOGS = ["current", "2024", "permissive", "strict"] as const;

/** One of DEMO_METRIC_CATALOGS. */
export type DemoMetricCatalog = (typeof DEMO_METRIC_CATALOGS)[number];

/** The demo's monitoring key (config/prometheus/demo-api-key holds it for the compose Prometheus). */
export const DEMO_API_KEY = "demo-key";

/** Options of the embedded demo. */
interface DemoOptions {
  readonly listen: string;
  readonly clusters?: number;
  /**
   * Every collector's full part of the demo (`--demo` does): each collector says what that is
   * (polling/model.ts `CollectorDemo`). Clusters whose data plane takes a `username:password`
   * get it through a token file written into `tokenDir`, a directory the caller owns and removes
   * when the demo stops.
   */
  readonly full?: { readonly tokenDir: string };
  /**
   * Give the last cluster its own key, which one collector's simulator refuses (`--demo` does):
   * that collector then shows the credential as not permitted.
   */
  readonly showNotPermitted?: boolean;
  /** Also ask a name no server knows, to show a refused query (`--demo` does; tests do not). */
  readonly showRefusal?: boolean;
  /**
   * The simulator's catalog the queries are chosen for. "permissive" (the default here): the
   * default list plus the names only the 2024 reference has, so every family has data. Any
   * other: the default list (and the unknown name, refused).
   */
  readonly metricCatalog?: DemoMetricCatalog;
  /**
   * Serve one Enterprise cluster (not the hot first one, whose CU alerts the demo shows) through
   * the service's own Prometheus endpoint (`--demo` does): /sd/native-export lists it, and its
   * metric queries are saved.
   */
  readonly nativeExport?: boolean;
}

/** The key one collector's part of the demo refuses (see `showNotPermitted`). */
const DEMO_RESTRICTED_KEY = "demo-key-restricted";

/** Clusters the `--demo` simulator holds. */
export const DEMO_CLUSTERS = 6;

/**
 * The options of `--demo` itself (main.ts): every collector on, the refused name shown, the
 * data planes' credentials in `tokenDir`. The reference test runs the permissive demo with
 * exactly these, so every family the demo can show must be in docs/metrics.md.
 */
export function demoRunOptions(
  listen: string,
  tokenDir: string,
  metricCatalog: DemoMetricCatalog,
): DemoOptions {
  return {
    listen,
    showRefusal: true,
    showNotPermitted: true,
    full: { tokenDir },
    metricCatalog,
    nativeExport: true,
  };
}

/** The cluster the demo serves natively: a running Enterprise one after the first, else the first Enterprise one. */
export function demoNativeCluster(sim: Pick<Simulator, "clusters">): string | undefined {
  const enterprise = sim.clusters.filter((c) => c.plan === "Enterprise");
  return (enterprise.find((c) => c !== sim.clusters[0] && c.status === "RUNNING") ?? enterprise[0])?.id;
}

/**
 * Starts the simulator on loopback. It is imported dynamically so that production code paths
 * never load it: only `--demo` does.
 */

export async function startDemoSimulator(opts: {
  clusters: number;
  metricCatalog?: DemoMetricCatalog;
  /** Where the simulator listens (`--demo-simulator-listen`); default a free loopback port. */
  listen?: { host: string; port: number };
}): Promise<Simulator> {
  const { startSimulator } = await import("../simulator/index.js");
  // Time runs 10x faster for jobs so that a visitor sees import and Spark jobs change state.
  // Six collections per cluster show every load state; one appears and vanishes every 2 minutes.
  const sim = await startSimulator({
    host: opts.listen?.host ?? "127.0.0.1",
    port: opts.listen?.port ?? 0,
    clusters: opts.clusters,
    seed: 1,
    timeScale: 10,
    collectionsPerCluster: 6,
    collectionChurnMs: 120_000,
    metricCatalog: opts.metricCatalog ?? "current",
    ...simulatorOptions(),
  });
  // A planned operation under way: its status series, and no not-running alert for it. The
  // global clusters' primaries and secondaries come with the world.
  const resizing = demoResizingCluster(sim);
  if (resizing !== undefined) sim.state.setClusterStatus(resizing, "RESIZING");
  return sim;
}

/**
 * The cluster the demo shows RESIZING: a running dedicated one other than the first (whose CU
 * alerts the demo shows) and the one served natively, preferably one with autoscaling bounds.
 */
export function demoResizingCluster(sim: Pick<Simulator, "clusters">): string | undefined {
  const native = demoNativeCluster(sim);
  const candidates = sim.clusters.filter(
    (c) => c !== sim.clusters[0] && c.id !== native && c.status === "RUNNING" && c.cuSize > 0,
  );
  return (candidates.find((c) => c.autoscalingCu !== undefined) ?? candidates[0])?.id;
}

/**
 * The raw (YAML-shaped) config of the demo: every simulated cluster, a per-collection scope on
 * the first one, each collector's part as it declares it (the full part with `full`), 30 s
 * cycles (the API's finest granularity), and a fixed demo key the simulator accepts.
 */
export function demoConfig(sim: Simulator, opts: DemoOptions): Record<string, unknown> {
  const first = sim.clusters[0];
  const last = sim.clusters[sim.clusters.length - 1];
  const strict = opts.metricCatalog !== undefined && opts.metricCatalog !== "permissive";
  const refused = opts.showRefusal === true;
  const queries = [
    ...DEFAULT_METRIC_QUERIES,
    ...(strict ? [] : ONLY_2024),
    ...(refused ? [REFUSED_ON_PURPOSE] : []),
  ];
  // Own scope lists only where the unknown name or a strict server needs them (tests keep the
  // configured and discovered scopes on the cluster-wide list, as a user's config would).
  const scoped = refused || strict ? { queries: scopeQueries(queries) } : {};
  const native = opts.nativeExport === true ? demoNativeCluster(sim) : undefined;
  const tokenDir = opts.full?.tokenDir;
  const dataPlane = (clusterId: string): Record<string, unknown> => {
    const credential = sim.state.dataPlaneCredential(clusterId);
    if (tokenDir === undefined || credential === undefined) return {};
    const file = join(tokenDir, `${clusterId}.token`);
    writeFileSync(file, `${credential}\n`, { mode: 0o600 });
    return { data_plane: { token_file: file } };
  };
  return {
    api: {
      ...collectorApiSettings(sim, opts),
      base_url: sim.baseUrl,
      controller_url: sim.controllerUrlTemplate,
      api_key: DEMO_API_KEY,
      // The simulator serves each cluster's data plane on its own plaintext loopback address
      // (its connectAddress): listed by hand, as a user lists a proxy, never allowed by default.
      data_plane_hosts: [`http://${new URL(sim.baseUrl).hostname}`],
    },
    clusters: sim.clusters.map((c) => ({
      id: c.id,
      region: c.regionId,
      project_id: c.projectId,
      scopes:
        c === first
          ? c.collections.slice(0, 2).map((col) => ({
              db_name: col.dbName,
              collection_name: col.collectionName,
              ...scoped,
            }))
          : [],
      ...dataPlane(c.id),
      ...(opts.showNotPermitted === true && c === last && c !== first
        ? { api_key: DEMO_RESTRICTED_KEY }
        : {}),
    })),
    metrics: {
      granularity: "PT30S",
      interval: "PT30S",
      lookback: "PT5M",
      queries,
      allow_unknown_names: refused,
    },
    ...collectorSettings(sim, opts, scoped),
    ...(native === undefined ? {} : { native_export: { enabled: true, clusters: [native] } }),
    server: { listen: opts.listen },
  };
}

/** What each collector's part of the demo may read. */
function demoWorld(
  simulator: Simulator | undefined,
  opts: Pick<DemoOptions, "full">,
  scopeSettings: Readonly<Record<string, unknown>> = {},
): DemoWorld {
  return { simulator, full: opts.full !== undefined, scopeSettings, restrictedKey: DEMO_RESTRICTED_KEY };
}

/** Each collector's section of the demo's config, by its key in the file. */
function collectorSettings(
  sim: Simulator,
  opts: DemoOptions,
  scopeSettings: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const world = demoWorld(sim, opts, scopeSettings);
  const sections: Record<string, unknown> = {};
  for (const c of COLLECTORS) {
    const settings = c.config === undefined ? undefined : c.demo?.settings?.(world);
    if (c.config !== undefined && settings !== undefined) sections[c.config.key] = settings;
  }
  return sections;
}

/** What the collectors' parts of the demo add to its `api` section (the demo's own keys win). */
function collectorApiSettings(sim: Simulator, opts: DemoOptions): Record<string, unknown> {
  const world = demoWorld(sim, opts);
  return Object.assign({}, ...COLLECTORS.map((c) => c.demo?.api?.(world) ?? {}));
}

/** The simulator's start options every collector's part of the demo asks for (all of them, always). */
function simulatorOptions(): Record<string, unknown> {
  const world = demoWorld(undefined, { full: { tokenDir: "" } });
  return Object.assign({}, ...COLLECTORS.map((c) => c.demo?.simulator?.(world) ?? {}));
}
