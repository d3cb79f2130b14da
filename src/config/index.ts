/**
 * Configuration: the YAML file (design.md section 4) to a validated `Config`, the web config
 * file, the Spark jobs file, and the request plan of `--check-config`.
 */
export { DurationError, formatDuration, parseDuration } from "./duration.js";
export { ConfigError, type ConfigErrorCode, type ConfigProblem, formatProblems } from "./errors.js";
export { interpolate, interpolateString } from "./interpolate.js";
export { formatListen, type ListenAddress, ListenAddressError, parseListen } from "./listen.js";
export { type BuildOptions, buildConfig, type LoadOptions, loadConfig } from "./load.js";
export {
  computePlan,
  formatPlan,
  metricRequestsPerCycle,
  type Plan,
  type PlanRow,
  type PlanTarget,
} from "./plan.js";
export { DEFAULT_METRIC_QUERIES } from "./queries.js";
export { configFileSchema, DEFAULTS, MIN_GRANULARITY_MS } from "./schema.js";
export { API_KEY_ENV } from "./secrets.js";
export { inShard, ownsGlobalCalls, type Shard, shardOf } from "./shard.js";
export { loadSparkJobsFile } from "./sparkJobsFile.js";
export type * from "./types.js";
export {
  type ClientAuthType,
  loadWebConfig,
  parseWebConfig,
  toTlsOptions,
  type WebConfig,
  type WebTlsConfig,
} from "./webConfig.js";
