/**
 * `--probe`'s canary: one probe per target of a configured cluster, as a run makes it, its lines
 * in the report, and a failing probe's exit code.
 */
import { describe, expect, it } from "vitest";
import { buildConfig } from "../config/load.js";
import { probedPlane } from "../upstream/canaryTestkit.js";
import { CloudError } from "../upstream/errors.js";
import { blankCluster } from "../upstream/testkit.js";
import type { DataPlaneFactory } from "./dataPlane.js";
import { probeCanary } from "./dataPlane.js";
import { formatProbe, PROBE_FAILED, PROBE_OK, type ProbeReport, probeExitCode } from "./report.js";

const A = "in01-0123456789abcdef";
const QUERY_E = "POST /v2/vectordb/entities/query" as const;

function plane(calls: string[], queryFails = false): DataPlaneFactory {
  const api = probedPlane({
    describeCollection: async (r) => {
      calls.push(`describe ${r.collectionName}`);
      return { vectorFields: [{ name: "vector", type: "FloatVector", dim: 4 }] };
    },
    search: async (r) => {
      calls.push(`search ${r.collectionName} ${JSON.stringify(r.vector)}`);
      return { value: { cost: 2, hits: 1 }, seconds: 0.0123 };
    },
    query: async (r) => {
      calls.push(`query ${r.collectionName}`);
      if (queryFails)
        throw new CloudError("timeout", `${QUERY_E}: no complete answer within 5000 ms`, {
          endpoint: QUERY_E,
        });
      return { value: { cost: null, hits: 0 }, seconds: 0.004 };
    },
  });
  return (endpoint) => {
    calls.push(`plane ${endpoint}`);
    return api;
  };
}

async function configOf(targets: unknown[]) {
  return buildConfig(
    {
      api: { api_key: "k" },
      clusters: [{ id: A, data_plane: { endpoint: "https://dp.example.test" } }],
      canary: { targets },
    },
    { env: {} },
  );
}

const TARGETS = [
  { cluster_id: A, collection_name: "docs" },
  { cluster_id: A, db_name: "analytics", collection_name: "events", operation: "query" },
];

describe("--probe's canary", () => {
  it("probes each target of the cluster once, as a run does", async () => {
    const calls: string[] = [];
    const config = await configOf(TARGETS);
    const cluster = config.clusters[0];
    if (cluster === undefined) throw new Error("no cluster");
    const probes = await probeCanary(config, cluster, blankCluster(A), plane(calls));
    expect(calls).toEqual([
      "plane https://dp.example.test",
      "describe docs",
      "search docs [1,0,0,0]",
      "query events",
    ]);
    expect(probes).toEqual([
      {
        clusterId: A,
        collection: "default/docs",
        operation: "search",
        outcome: "success",
        seconds: 0.0123,
        cost: 2,
      },
      {
        clusterId: A,
        collection: "analytics/events",
        operation: "query",
        outcome: "success",
        seconds: 0.004,
      },
    ]);
  });

  it("asks nothing of a cluster without targets", async () => {
    const calls: string[] = [];
    const config = await configOf([]);
    const cluster = config.clusters[0];
    if (cluster === undefined) throw new Error("no cluster");
    expect(await probeCanary(config, cluster, blankCluster(A), plane(calls))).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("prints a line per target and exits 1 when one failed", async () => {
    const calls: string[] = [];
    const config = await configOf(TARGETS);
    const cluster = config.clusters[0];
    if (cluster === undefined) throw new Error("no cluster");
    const canary = await probeCanary(config, cluster, blankCluster(A), plane(calls, true));
    const report: ProbeReport = {
      keys: [{ credential: "default", state: "accepted" }],
      clusters: [
        {
          clusterId: A,
          credential: "default",
          describe: { ok: true },
          controller: { skipped: "import jobs disabled" },
          metrics: { skipped: "metrics disabled" },
          sparkList: { skipped: "spark job discovery disabled" },
          canary,
        },
      ],
      sparkJobs: [],
      jobs: [],
    };
    const text = formatProbe(report);
    expect(text).toContain(`  ${A} default/docs search: ok in 12 ms, cost 2 vCU\n`);
    expect(text).toContain(
      `  ${A} analytics/events query: timeout (timeout): ${QUERY_E}: no complete answer within 5000 ms\n`,
    );
    expect(probeExitCode(report)).toBe(PROBE_FAILED);
    const healthy = {
      ...report,
      clusters: [{ ...report.clusters[0], canary: canary.slice(0, 1) }],
    } as ProbeReport;
    expect(probeExitCode(healthy)).toBe(PROBE_OK);
  });
});
