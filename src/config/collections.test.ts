import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers/tempDir.js";
import { buildConfig } from "./load.js";
import { MINIMAL_RAW as base, expectProblem } from "./testkit.js";

describe("collections config", () => {
  it.each([
    [
      "interval under PT30S",
      { collections: { interval: "PT10S" } },
      "collections.interval: must be at least PT30S",
    ],
    [
      "a regex that does not compile",
      { collections: { include: ["(docs"] } },
      "collections.include[0]: is not a valid regular expression",
    ],
    ["max_per_cluster 0", { collections: { max_per_cluster: 0 } }, "collections.max_per_cluster"],
    ["an unknown key", { collections: { enable: true } }, "collections.enable"],
    [
      "a query without a per-collection form",
      { collections: { queries: [{ name: "REQ_SUCCESS_RATE", stat: "AVG" }] } },
      "collections.queries[0].name",
    ],
    [
      "a data plane endpoint that is not a URL",
      { clusters: [{ id: "in01-a", data_plane: { endpoint: "nope" } }] },
      "clusters[0].data_plane.endpoint",
    ],
    [
      "an unreadable token file",
      { clusters: [{ id: "in01-a", data_plane: { token_file: "/nonexistent/t" } }] },
      "clusters[0].data_plane.token_file: cannot read",
    ],
  ])("rejects %s", async (_name, raw, expected) => {
    await expectProblem(raw, expected);
  });

  it("reads the data plane's endpoint and token (trimmed), and expands per-collection queries", async () => {
    const dir = tempDir("vdbcloud-cfg-");
    writeFileSync(join(dir, "t"), "db_admin:secret\n");
    const config = await buildConfig(
      {
        ...base,
        clusters: [
          {
            id: "in01-a",
            data_plane: { endpoint: "https://in01-a.example.com:19530", token_file: join(dir, "t") },
          },
          { id: "in01-b" },
        ],
        collections: {
          enabled: true,
          exclude: ["^default/tmp_"],
          queries: [{ name: "REQ_SEARCH_LATENCY_P99" }],
        },
      },
      { env: {} },
    );
    expect(config.clusters[0]).toMatchObject({
      dataPlaneEndpoint: "https://in01-a.example.com:19530",
      dataPlaneToken: "db_admin:secret",
    });
    expect(config.clusters[1]?.dataPlaneToken).toBeUndefined();
    expect(config.collections).toMatchObject({
      enabled: true,
      intervalMs: 300_000,
      exclude: ["^default/tmp_"],
      maxPerCluster: 100,
      queries: [{ name: "REQ_SEARCH_LATENCY_P99" }],
      rateLimit: 10,
    });
  });
});
