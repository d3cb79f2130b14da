/**
 * What a reload changed, for its log line: clusters added and removed, clusters whose settings
 * changed (region, project, scopes, per-scope queries, credential), the cluster-wide metric
 * queries, and every duration that moved. Keys never appear: a changed credential is reported as
 * a changed cluster, or as `api_key_changed`.
 *
 * The durations are found in the config itself, not listed here: every `…Ms` setting of a
 * section (at any depth, lists aside) is one, reported under its file name ("metrics.interval",
 * "backups.policy_interval", "spark_jobs.discovery.interval"). A collector's new interval is
 * reported with no edit to this file; the reload rebuilds every task whatever this reports.
 */
import { isDeepStrictEqual } from "node:util";
import { formatDuration } from "../shared/duration.js";
import type { ClusterConfig, Config } from "./types.js";

/** The differences between two configs, in log-friendly form; empty lists and flags omitted. */
interface ConfigChanges {
  readonly clusters_added?: readonly string[];
  readonly clusters_removed?: readonly string[];
  readonly clusters_changed?: readonly string[];
  readonly queries_changed?: { readonly added: readonly string[]; readonly removed: readonly string[] };
  /**
   * `setting: "PT1M -> PT30S"`, for every duration that moved: interval, granularity, lookback,
   * delay, retention, timeout.
   */
  readonly intervals?: Readonly<Record<string, string>>;
  readonly api_key_changed?: true;
  /** `<section>_key_changed` for a section with a key of its own (`billing_key_changed`). */
  readonly [ownKeyChanged: `${string}_key_changed`]: true | undefined;
  /** Other settings that changed (their top-level keys), e.g. `api`, `inventory`. */
  readonly other?: readonly string[];
}

const queryName = (q: { readonly name: string; readonly stat?: string | undefined }) =>
  q.stat === undefined ? q.name : `${q.name}:${q.stat}`;

/** A camelCase key as the file spells it: `globalClusters` -> `global_clusters`. */
const fileKey = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const isSection = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A duration's file key (`policyIntervalMs` -> `policy_interval`), or undefined for other settings. */
function durationKey(key: string, value: unknown): string | undefined {
  return typeof value === "number" && /.Ms$/.test(key) ? fileKey(key.slice(0, -2)) : undefined;
}

/** Every duration of the sections, by file path ("spark_jobs.discovery.interval"), in ms. */
function durations(c: Config): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (section: Readonly<Record<string, unknown>>, path: string): void => {
    for (const [key, value] of Object.entries(section)) {
      const duration = durationKey(key, value);
      if (duration !== undefined) found.set(`${path}${duration}`, value as number);
      else if (isSection(value)) walk(value, `${path}${fileKey(key)}.`);
    }
  };
  walk(c as unknown as Readonly<Record<string, unknown>>, "");
  return found;
}

/** A section without its durations (reported on their own), at every depth. */
function withoutDurations(section: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(section)
      .filter(([key, value]) => durationKey(key, value) === undefined)
      .map(([key, value]) => [key, isSection(value) ? withoutDurations(value) : value]),
  );
}

const shown = (ms: number | undefined) => (ms === undefined ? "unset" : formatDuration(ms));

/** A config's sections by camelCase key, each a record (the top level's scalars left out). */
function sectionsOf(c: Config): Map<string, Readonly<Record<string, unknown>>> {
  return new Map(
    Object.entries(c as unknown as Record<string, unknown>).filter(
      (e): e is [string, Readonly<Record<string, unknown>>] => isSection(e[1]),
    ),
  );
}

/**
 * The sections with a key of their own (every section but `api` that carries an `apiKey`) whose
 * key changed, other than by following a changed default key; by file key ("billing").
 */
function ownKeysChanged(prev: Config, next: Config): string[] {
  const before = sectionsOf(prev);
  const changed: string[] = [];
  for (const [field, section] of sectionsOf(next)) {
    if (field === "api" || typeof section.apiKey !== "string") continue;
    const was = before.get(field)?.apiKey;
    const own = (key: unknown, c: Config) => (key === c.api.apiKey ? undefined : key);
    if (was !== section.apiKey && own(was, prev) !== own(section.apiKey, next)) changed.push(fileKey(field));
  }
  return changed;
}

/** A config without its secrets: the default key and every section's own. */
function withoutKeys(c: Config): Record<string, unknown> {
  return Object.fromEntries(
    [...sectionsOf(c)].map(([field, section]) => [
      field,
      "apiKey" in section ? { ...section, apiKey: undefined } : section,
    ]),
  );
}

/** Compares the running config with the one replacing it. */
export function configChanges(prev: Config, next: Config): ConfigChanges {
  const before = new Map<string, ClusterConfig>(prev.clusters.map((c) => [c.id, c]));
  const after = new Map<string, ClusterConfig>(next.clusters.map((c) => [c.id, c]));
  const added = [...after.keys()].filter((id) => !before.has(id));
  const removed = [...before.keys()].filter((id) => !after.has(id));
  const changed = [...after].filter(([id, c]) => before.has(id) && !isDeepStrictEqual(before.get(id), c));

  const prevQueries = new Set(prev.metrics.queries.map(queryName));
  const nextQueries = new Set(next.metrics.queries.map(queryName));
  const qAdded = [...nextQueries].filter((q) => !prevQueries.has(q));
  const qRemoved = [...prevQueries].filter((q) => !nextQueries.has(q));

  const intervals: Record<string, string> = {};
  const d0 = durations(prev);
  const d1 = durations(next);
  for (const k of new Set([...d0.keys(), ...d1.keys()])) {
    const [old, now] = [d0.get(k), d1.get(k)];
    if (old !== now) intervals[k] = `${shown(old)} -> ${shown(now)}`;
  }

  // Everything else, by top-level key, once what is reported above is taken out.
  const rest = (c: Config) =>
    withoutDurations({
      ...c,
      ...withoutKeys(c),
      clusters: undefined,
      metrics: { ...c.metrics, queries: undefined },
    });
  const r0 = rest(prev);
  const r1 = rest(next);
  const other = Object.keys(r1).filter((k) => !isDeepStrictEqual(r0[k], r1[k]));

  return {
    ...(added.length > 0 ? { clusters_added: added } : {}),
    ...(removed.length > 0 ? { clusters_removed: removed } : {}),
    ...(changed.length > 0 ? { clusters_changed: changed.map(([id]) => id) } : {}),
    ...(qAdded.length > 0 || qRemoved.length > 0
      ? { queries_changed: { added: qAdded, removed: qRemoved } }
      : {}),
    ...(Object.keys(intervals).length > 0 ? { intervals } : {}),
    ...(prev.api.apiKey !== next.api.apiKey ? { api_key_changed: true as const } : {}),
    ...Object.fromEntries(ownKeysChanged(prev, next).map((key) => [`${key}_key_changed`, true as const])),
    ...(other.length > 0 ? { other: other.map(fileKey) } : {}),
  };
}
