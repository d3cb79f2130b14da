import { describe, expect, it } from "vitest";
import { DEFAULT_METRIC_QUERIES } from "./queries.js";
import { configSchema } from "./schema.js";

/** The validated file as a draft, relative paths resolved against `baseDir`. */
const normalize = (raw: unknown, baseDir: string) => configSchema(baseDir).parse(raw);
const parse = (raw: unknown) => raw;

describe("configSchema output", () => {
  it("renames to camelCase and locates secrets without reading them", () => {
    const draft = normalize(
      parse({
        api: { api_key_file: "keys/default" },
        clusters: [
          { id: "in01-a", project_id: "p", scopes: [{ db_name: "d" }], api_key: "team" },
          { id: "in01-b", region: "r" },
        ],
        server: { web_config_file: "web.yaml" },
      }),
      "/base",
    );
    expect(draft.apiKey).toEqual({ at: "api", file: "/base/keys/default" });
    expect(draft.clusterKeys).toEqual([{ at: "clusters[0]", value: "team" }, { at: "clusters[1]" }]);
    expect(draft.config.clusters).toEqual([
      { id: "in01-a", projectId: "p", scopes: [{ dbName: "d" }] },
      { id: "in01-b", region: "r", scopes: [] },
    ]);
    expect(draft.config.server.webConfigFile).toBe("/base/web.yaml");
    expect("apiKey" in draft.config.api).toBe(false);
  });

  it.each([
    [{}, 60_000, DEFAULT_METRIC_QUERIES],
    [{ metrics: { granularity: "PT30S" } }, 30_000, DEFAULT_METRIC_QUERIES],
    [
      { metrics: { granularity: "PT30S", interval: "PT2M", queries: [{ name: "A" }] } },
      120_000,
      [{ name: "A" }],
    ],
  ])("fills the metrics interval and queries from %j", (raw, intervalMs, queries) => {
    const { metrics } = normalize(parse(raw), "/").config;
    expect(metrics.intervalMs).toBe(intervalMs);
    expect(metrics.queries).toEqual(queries);
  });

  it("drops a null web config file", () => {
    expect(normalize(parse({ server: { web_config_file: null } }), "/").config.server).toEqual({
      host: "0.0.0.0",
      port: 9474,
    });
  });
});
