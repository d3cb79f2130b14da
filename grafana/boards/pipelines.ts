/**
 * The account's pipelines (List Pipelines V1, the seed's Pipeline resource): how many, which do
 * not serve, and the tokens they cost. A row of the overview dashboard. The service discontinued
 * pipelines, so on the service as it is today the row stays at zero: the landing page then says
 * "not offered here" for the pipelines collector.
 */
import type { RowSpec, ValueMapping } from "../lib/panels.js";
import { steps } from "./common.js";

const PROJECT_SEL = 'project_id=~"$project"';
/** The pipelines of the selected projects, described in labels (value 1). */
const INFO = `max by (project_id, pipeline_id, pipeline_name, type, cluster_id, collection_name) (vdbcloud_pipeline_info{${PROJECT_SEL}})`;
/** Each selected pipeline's current status as a series (value 1); `max by` collapses an HA pair's duplicates. */
const CURRENT = `(max by (pipeline_id, status) (vdbcloud_pipeline_status == 1) and on (pipeline_id) ${INFO})`;
/** One value per pipeline with its descriptive labels, so the table merges one row per pipeline. */
const pipelineColumn = (expr: string) =>
  `(${expr}) * on (pipeline_id) group_left (project_id, pipeline_name, type, cluster_id, collection_name) ${INFO}`;
/** A token counter's rate per selected pipeline, named. */
const tokenRate = (family: string) =>
  `sum by (pipeline_id) (rate(${family}[$__rate_interval])) * on (pipeline_id) group_left (pipeline_name) max by (pipeline_id, pipeline_name) (vdbcloud_pipeline_info{${PROJECT_SEL}})`;

/** Pipeline status colours: serving green, anything else red (it does not work). */
const STATUS_COLORS: ValueMapping[] = [
  { value: "serving", color: "green" },
  { value: ".*", color: "red", regex: true },
];

/** The pipelines row. */
export const PIPELINES_ROW: RowSpec = {
  title: "Account: pipelines",
  panels: [
    {
      kind: "stat",
      title: "Pipelines",
      description:
        "Pipelines of the selected projects (List Pipelines V1, per project and region). The service discontinued pipelines (removed by the end of Q2 2025): where a region has none, the landing page says the pipelines collector is not offered there, and this stays 0.",
      queries: [{ expr: `count(${INFO}) or vector(0)` }],
      unit: "none",
      thresholds: steps(),
      colorMode: "value",
      w: 6,
    },
    {
      kind: "stat",
      title: "Pipelines not serving",
      description:
        "Pipelines whose status is anything but SERVING, the one status the reference says works: what they ingest, search or delete fails (VdbcloudPipelineNotServing, warning, after 10 minutes).",
      queries: [
        {
          expr: `count(max by (pipeline_id) (vdbcloud_pipeline_status{status!="serving"} == 1) and on (pipeline_id) ${INFO}) or vector(0)`,
        },
      ],
      unit: "none",
      thresholds: steps(["red", 1]),
      colorMode: "background",
      w: 6,
    },
    {
      kind: "bargauge",
      title: "Pipelines by status",
      description:
        "Pipelines of the selected projects per current status, in lower snake case (serving, or what the service reports instead).",
      queries: [{ expr: `count by (status) (${CURRENT})`, legend: "{{status}}", instant: true }],
      unit: "none",
      w: 12,
    },
    {
      kind: "timeseries",
      title: "Token rate",
      description:
        "Tokens per second each pipeline costs, from the service's running totals (totalUsage): embedding tokens (documents ingested, queries embedded) and rerank tokens (search pipelines with the reranker). The service bills pipelines by these tokens.",
      queries: [
        {
          expr: tokenRate("vdbcloud_pipeline_embedding_tokens_total"),
          legend: "{{pipeline_name}} embedding",
        },
        { expr: tokenRate("vdbcloud_pipeline_rerank_tokens_total"), legend: "{{pipeline_name}} rerank" },
      ],
      unit: "short",
      min: 0,
      w: 12,
      h: 8,
    },
    {
      kind: "table",
      title: "Pipelines",
      description:
        "One row per pipeline of the selected projects: its type, the cluster and collection it targets (empty for a search pipeline whose functions target several), its current status, the tokens it has cost so far, and its number of functions (vdbcloud_pipeline_functions has them per action).",
      w: 12,
      h: 8,
      queries: [
        {
          expr: pipelineColumn(
            `max by (pipeline_id, pipeline_status) (label_join(${CURRENT}, "pipeline_status", "", "status"))`,
          ),
        },
        { expr: pipelineColumn("max by (pipeline_id) (vdbcloud_pipeline_embedding_tokens_total)") },
        {
          expr: pipelineColumn(
            "sum by (pipeline_id) (max by (pipeline_id, action) (vdbcloud_pipeline_functions))",
          ),
        },
      ],
      hide: ["Value #A"],
      columns: [
        { field: "project_id", displayName: "Project" },
        { field: "pipeline_name", displayName: "Name" },
        { field: "pipeline_id", displayName: "Pipeline ID" },
        { field: "type", displayName: "Type" },
        { field: "cluster_id", displayName: "Cluster" },
        { field: "collection_name", displayName: "Collection" },
        { field: "pipeline_status", displayName: "Status", colored: true, mappings: STATUS_COLORS },
        { field: "Value #B", displayName: "Embedding tokens", unit: "short" },
        { field: "Value #C", displayName: "Functions", unit: "none" },
      ],
    },
  ],
};
