/**
 * The validated, normalized configuration the rest of the exporter consumes. The YAML file is
 * snake_case with ISO 8601 durations (docs/design.md section 4); `config/` turns it into this
 * camelCase shape with durations in milliseconds and every default applied, or fails with a
 * `ConfigError` listing each problem as `path.to.field: what is wrong`.
 *
 * Every type here is derived from the schema's output (schema.ts, where the field docs live),
 * so the file format and the types cannot drift apart. Only the credentials are added: they are
 * read after validation (secrets.ts).
 */
import type { ConfigDraft, MetricQuery } from "./schema.js";
import type { CollectorSections } from "./section.js";

type Settings = ConfigDraft["config"];

/** One query of Query Cluster Metrics: `name`, and `stat` for the first request form only. */
export type MetricQueryConfig = MetricQuery;

/** A database and/or collection of a cluster, with its own (expanded, second-form) queries if any. */
export type ScopeConfig = ClusterSettings["scopes"][number];

type ClusterSettings = Settings["clusters"][number];

/** A cluster to poll. `apiKey`: its own credential, if the file gives one (else the default). */
export type ClusterConfig = ClusterSettings & {
  /** Optional per-cluster credential; clusters with another key get their own rate budget. */
  readonly apiKey?: string;
  /** The data-plane token (`username:password` or an API key) from `data_plane.token_file`. */
  readonly dataPlaneToken?: string;
};

/** Upstream API settings with the resolved default credential. */
export type ApiConfig = Settings["api"] & {
  /** Resolved secret (from api_key, api_key_file or VDBCLOUD_API_KEY). Never log it. */
  readonly apiKey: string;
};

/** `metrics`: cluster-metrics polling; interval, lookback and queries already defaulted. */
export type MetricsConfig = Settings["metrics"];

/** The whole configuration: the framework's sections and every collector's (section.ts). */
export type Config = Omit<Settings, "api" | "clusters"> &
  CollectorSections & {
    readonly api: ApiConfig;
    readonly clusters: readonly ClusterConfig[];
  };
