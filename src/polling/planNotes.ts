/**
 * What the plan of `--check-config` says of the listings whose number of calls only a run can
 * know: the plan counts them for the configured clusters, and says what they grow with.
 */
import { ENDPOINT, type EndpointTemplate } from "../upstream/types.js";

/** By endpoint: the note printed under the plan while a task calls it. */
export const RUN_TIME_COUNTS: ReadonlyMap<EndpointTemplate, string> = new Map([
  [
    ENDPOINT.listOnDemandClusters,
    "on-demand clusters: one List On-Demand Clusters call per project and region that List Projects V2 lists (regionIds), counted here for the configured clusters' projects and regions",
  ],
  [
    ENDPOINT.listAlertRules,
    "the console's alert rules: one List Alert Rules page per 100 rules of each project that List Projects V2 lists, counted here for the configured clusters' projects",
  ],
]);

/** By `metrics.form`: the note that says which request form Query Cluster Metrics is sent in. */
export const METRICS_FORM_NOTES: Readonly<Record<"auto" | "current" | "2024", string>> = {
  auto: "metric query form: auto: the current form (a name only, the statistic inside latency names), learned once per key: a key whose server refuses it and accepts the 2024 form (a name and a stat) is sent that form from then on, and asked the current form again hourly (--probe prints the form each key's server accepts)",
  current:
    "metric query form: current (pinned by metrics.form): a name only, the statistic inside latency names",
  "2024":
    "metric query form: 2024 (pinned by metrics.form): a name and a stat; names only the current reference lists are not asked",
};
