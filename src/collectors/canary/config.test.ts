import { describe, expect, it } from "vitest";
import { buildConfig } from "../../config/load.js";
import { MINIMAL_RAW as base, expectProblem } from "../../config/testkit.js";

const CLUSTER = "in01-0123456789abcdef";
const clusters = [{ id: CLUSTER }];
const target = (over: Record<string, unknown> = {}) => ({
  cluster_id: CLUSTER,
  collection_name: "docs",
  ...over,
});

describe("the canary section", () => {
  it("is off by default: no target", async () => {
    const config = await buildConfig(base, { env: {} });
    expect(config.canary).toEqual({ intervalMs: 60_000, timeoutMs: 5_000, targets: [] });
  });

  it("reads targets with their defaults: database default, operation search", async () => {
    const config = await buildConfig(
      {
        ...base,
        clusters,
        canary: {
          interval: "PT30S",
          timeout: "PT2S",
          targets: [target(), target({ db_name: "analytics", operation: "query", filter: "id >= 0" })],
        },
      },
      { env: {} },
    );
    expect(config.canary).toEqual({
      intervalMs: 30_000,
      timeoutMs: 2_000,
      targets: [
        { clusterId: CLUSTER, dbName: "default", collectionName: "docs", operation: "search" },
        {
          clusterId: CLUSTER,
          dbName: "analytics",
          collectionName: "docs",
          operation: "query",
          filter: "id >= 0",
        },
      ],
    });
  });

  it.each([
    [
      "a filter on a search",
      { targets: [target({ filter: "id > 0" })] },
      "canary.targets[0].filter: is for operation query only",
    ],
    [
      "an unknown operation",
      { targets: [target({ operation: "insert" })] },
      "canary.targets[0].operation: must be search or query",
    ],
    [
      "no collection",
      { targets: [{ cluster_id: CLUSTER }] },
      "canary.targets[0].collection_name: is required",
    ],
    [
      "a bad cluster ID",
      { targets: [target({ cluster_id: "in01/x" })] },
      "canary.targets[0].cluster_id: must be a cluster ID",
    ],
    [
      "the same target twice",
      { targets: [target(), target({ db_name: "default" })] },
      "canary.targets[1]: duplicate of targets[0]",
    ],
    [
      "a timeout as long as the interval",
      { interval: "PT10S", timeout: "PT10S" },
      "canary.timeout: must be shorter than interval (PT10S)",
    ],
    ["an interval under PT10S", { interval: "PT5S" }, "canary.interval: must be at least PT10S"],
    ["an unknown key", { enabled: true }, "canary.enabled"],
  ])("rejects %s", async (_case, canary, expected) => {
    await expectProblem({ clusters, canary }, expected);
  });

  it("refuses a target of a cluster the exporter does not poll, unless cluster discovery may find it", async () => {
    const canary = { targets: [target({ cluster_id: "in01-fedcba9876543210" })] };
    await expectProblem(
      { clusters, canary },
      "canary.targets[0].cluster_id: in01-fedcba9876543210 is not a polled cluster: list it under clusters, or enable inventory.discovery",
    );
    const config = await buildConfig(
      { ...base, clusters, canary, inventory: { discovery: { enabled: true } } },
      { env: {} },
    );
    expect(config.canary.targets).toHaveLength(1);
  });
});
