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
