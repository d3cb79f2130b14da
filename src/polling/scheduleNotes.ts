/**
 * What the polling schedule of `--check-config` says beside its rows. The notes of the listings whose number
 * of calls only a run can know (`RUN_TIME_COUNTS`) are declared with their endpoints
 * (upstream/endpoints/) and derived by the table.
 */
export { RUN_TIME_COUNTS } from "../upstream/endpoints/table.js";

/** By `metrics.form`: the note that says which request form Query Cluster Metrics is sent in. */
export const METRICS_FORM_NOTES: Readonly<Record<"auto" | "current" | "2024", string>> = {
  auto: "metric query form: auto: the current form (a name only, the statistic inside latency names), learned once per key: a key whose server refuses it and accepts the 2024 form (a name and a stat) is sent that form from then on, and asked the current form again hourly (--probe prints the form each key's server accepts)",
  current:
    "metric query form: current (pinned by metrics.form): a name only, the statistic inside latency names",
  "2024":
    "metric query form: 2024 (pinned by metrics.form): a name and a stat; names only the current reference lists are not asked",
};
