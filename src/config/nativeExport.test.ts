import { describe, expect, it } from "vitest";
import { buildConfig } from "./load.js";
import { MINIMAL_RAW as base, expectProblem } from "./testkit.js";

const ENTERPRISE = "in01-0000000000000001";
const OTHER = "in01-0000000000000002";
const clusters = [{ id: ENTERPRISE }, { id: OTHER }];

describe("native_export config", () => {
  it.each([
    [
      "a word other than auto",
      { native_export: { enabled: true, clusters: "all" } },
      'native_export.clusters: must be "auto" or a non-empty list of cluster IDs',
    ],
    [
      "an empty list",
      { native_export: { enabled: true, clusters: [] } },
      'native_export.clusters: must be "auto" or a non-empty list of cluster IDs',
    ],
    [
      "an ID that is not one",
      { clusters, native_export: { enabled: true, clusters: ["in01 x"] } },
      "native_export.clusters[0]: must be a cluster ID of letters, digits and -",
    ],
    [
      "enabled not a boolean",
      { native_export: { enabled: "yes" } },
      "native_export.enabled: must be true or false",
    ],
    [
      "an unknown key",
      { native_export: { skip_metric_query: true } },
      'native_export.skip_metric_query: unknown key (did you mean "skip_metric_queries"?)',
    ],
    [
      "no inventory and no discovery to learn the plans",
      { clusters, native_export: { enabled: true }, inventory: { enabled: false } },
      "native_export.enabled: needs the clusters' plans: enable inventory (Describe Cluster) or inventory.discovery",
    ],
    [
      "a listed ID that is not polled, without discovery",
      { clusters, native_export: { enabled: true, clusters: [ENTERPRISE, "in01-typo"] } },
      "native_export.clusters[1]: in01-typo is not a polled cluster: list it under clusters, or enable inventory.discovery",
    ],
    [
      "a free cluster by its ID, even with discovery",
      {
        inventory: { discovery: { enabled: true } },
        native_export: { enabled: true, clusters: ["in03-0123456789abcdef"] },
      },
      "native_export.clusters[0]: in03-0123456789abcdef is a free cluster (in03-)",
    ],
  ])("rejects %s", async (_name, raw, expected) => {
    await expectProblem(raw, expected);
  });

  it.each([
    ["absent", {}, { enabled: false, clusters: "auto", skipMetricQueries: true }],
    ["empty", { native_export: null }, { enabled: false, clusters: "auto", skipMetricQueries: true }],
    [
      "enabled, auto",
      { clusters, native_export: { enabled: true, clusters: "auto" } },
      { enabled: true, clusters: "auto", skipMetricQueries: true },
    ],
    [
      "enabled, listed configured clusters, metric queries kept",
      {
        clusters,
        native_export: { enabled: true, clusters: [OTHER, ENTERPRISE], skip_metric_queries: false },
      },
      { enabled: true, clusters: [OTHER, ENTERPRISE], skipMetricQueries: false },
    ],
    [
      "a listed ID discovery may find",
      {
        inventory: { discovery: { enabled: true } },
        native_export: { enabled: true, clusters: ["in01-found"] },
      },
      { enabled: true, clusters: ["in01-found"], skipMetricQueries: true },
    ],
    [
      "discovery alone learns the plans",
      {
        inventory: { enabled: false, discovery: { enabled: true } },
        native_export: { enabled: true },
      },
      { enabled: true, clusters: "auto", skipMetricQueries: true },
    ],
    [
      "disabled: its clusters are not checked",
      { native_export: { enabled: false, clusters: ["in01-anything"] } },
      { enabled: false, clusters: ["in01-anything"], skipMetricQueries: true },
    ],
  ])("reads %s", async (_name, raw, expected) => {
    const config = await buildConfig({ ...base, ...raw }, { env: {} });
    expect(config.nativeExport).toEqual(expected);
  });

  it("reports a repeated ID at its second place", async () => {
    await expectProblem(
      { clusters, native_export: { enabled: true, clusters: [ENTERPRISE, ENTERPRISE] } },
      "native_export.clusters[1]: duplicate of native_export.clusters[0]",
    );
  });
});
