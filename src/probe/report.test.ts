import { describe, expect, it } from "vitest";
import {
  type CallResult,
  type ClusterProbe,
  formatProbe,
  PROBE_FAILED,
  PROBE_OK,
  type ProbeReport,
  probeExitCode,
} from "./report.js";

const OK: CallResult = { ok: true };
const NOT_FOUND: CallResult = {
  ok: false,
  code: "not_found",
  message: "upstream code 80020: Cluster not exist",
};
const TIMEOUT: CallResult = { ok: false, code: "timeout", message: "no complete answer within 10000 ms" };
const VCU_REFUSED = {
  accepted: [{ name: "CU_COMPUTATION", stat: "AVG" as const }],
  switched: [],
  refused: [{ query: { name: "READ_VCU" }, message: "invalid metric name: READ_VCU" }],
};

function cluster(over: Partial<ClusterProbe> = {}): ClusterProbe {
  return {
    clusterId: "in01-a",
    credential: "default",
    region: "aws-us-west-2",
    describe: OK,
    controller: OK,
    metrics: { accepted: [{ name: "CU_COMPUTATION", stat: "AVG" }], switched: [], refused: [] },
    sparkList: OK,
    ...over,
  };
}

function report(over: Partial<ProbeReport> = {}): ProbeReport {
  return {
    keys: [{ credential: "default", state: "accepted" }],
    clusters: [cluster()],
    sparkJobs: [],
    jobs: [],
    ...over,
  };
}

describe("probeExitCode", () => {
  it.each<[label: string, r: ProbeReport, code: number]>([
    ["everything answered", report(), PROBE_OK],
    [
      "a refused metric name is listed, not fatal",
      report({ clusters: [cluster({ metrics: VCU_REFUSED })] }),
      PROBE_OK,
    ],
    [
      "no region: the controller is skipped, not failed",
      report({ clusters: [cluster({ controller: { skipped: "no region" } })] }),
      PROBE_OK,
    ],
    [
      "the key refused",
      report({ keys: [{ credential: "default", state: "refused", message: "bad" }] }),
      PROBE_FAILED,
    ],
    ["the key not confirmed", report({ keys: [{ credential: "default", state: "unknown" }] }), PROBE_FAILED],
    ["an unknown cluster", report({ clusters: [cluster({ describe: NOT_FOUND })] }), PROBE_FAILED],
    [
      "a cluster skipped because its key was refused",
      report({ clusters: [cluster({ describe: { skipped: "key refused" } })] }),
      PROBE_FAILED,
    ],
    [
      "the regional controller unreachable",
      report({ clusters: [cluster({ controller: TIMEOUT })] }),
      PROBE_FAILED,
    ],
    [
      "the metrics call failed other than by refusal",
      report({ clusters: [cluster({ metrics: TIMEOUT })] }),
      PROBE_FAILED,
    ],
    [
      "a Spark job not found",
      report({ sparkJobs: [{ projectId: "p", jobId: "j", result: NOT_FOUND }] }),
      PROBE_FAILED,
    ],
    [
      "List Clusters failed",
      report({ clusters: [], clusterDiscovery: { result: TIMEOUT, seen: 0 } }),
      PROBE_FAILED,
    ],
    [
      "List Spark Jobs refused",
      report({ clusters: [cluster({ sparkList: { ok: false, code: "auth_error", message: "no" } })] }),
      PROBE_FAILED,
    ],
    [
      "Spark job discovery disabled: skipped, not failed",
      report({ clusters: [cluster({ sparkList: { skipped: "spark job discovery disabled" } })] }),
      PROBE_OK,
    ],
    ["a job by ID not found", report({ jobs: [{ jobId: "job-1", result: NOT_FOUND }] }), PROBE_FAILED],
    ["a job by ID answered", report({ jobs: [{ jobId: "job-1", result: OK }] }), PROBE_OK],
  ])("%s -> %d", (_label, r, code) => {
    expect(probeExitCode(r)).toBe(code);
  });
});

describe("formatProbe", () => {
  it("a refused key is one line", () => {
    const text = formatProbe(
      report({
        keys: [{ credential: "default", state: "refused", message: "upstream code 80001: Invalid token" }],
      }),
    );
    expect(text).toBe("API key default: refused by the service: upstream code 80001: Invalid token\n");
  });

  it("a table per cluster, refused queries with the service's message, failures with theirs", () => {
    const text = formatProbe(
      report({
        clusters: [
          cluster({ metrics: VCU_REFUSED }),
          cluster({
            clusterId: "in01-gone",
            describe: NOT_FOUND,
            controller: { skipped: "cluster not reachable" },
            sparkList: { skipped: "cluster not reachable" },
          }),
          cluster({ clusterId: "in01-noregion", controller: { skipped: "no region" } }),
        ],
        sparkJobs: [{ projectId: "p", jobId: "j", result: OK }],
        jobs: [
          { jobId: "job-1", result: OK },
          { jobId: "job-2", result: NOT_FOUND },
        ],
      }),
    );
    const lines = text.split("\n");
    expect(lines[0]).toBe("API key default: accepted");
    for (const line of [
      "CLUSTER        KEY      REACHABLE  REGIONAL CONTROLLER        SPARK JOB LIST             METRIC QUERIES",
      "in01-a         default  ok         ok (aws-us-west-2)         ok                         1 accepted, 1 refused",
      "in01-gone      default  not_found  - (cluster not reachable)  - (cluster not reachable)  1 accepted, 0 refused",
      "in01-noregion  default  ok         - (no region)              ok                         1 accepted, 0 refused",
    ]) {
      expect(lines).toContain(line);
    }
    for (const part of [
      "  Job job-2: upstream code 80020: Cluster not exist\n",
      "Jobs by ID (Describe Job): 1 of 2 answered",
      "Refused metric queries (listed, not fatal):\n  in01-a READ_VCU: invalid metric name: READ_VCU\n",
      "Failures:\n  in01-gone Describe Cluster: upstream code 80020: Cluster not exist\n",
      "Spark jobs: 1 of 1 answered",
      "Result: something was refused or unreachable",
    ]) {
      expect(text).toContain(part);
    }
  });

  it("names the form a query was accepted in when it was not the one configured", () => {
    const text = formatProbe(
      report({
        clusters: [
          cluster({
            metrics: {
              accepted: [{ name: "ENTITIES_INDEXED" }],
              switched: [
                { query: { name: "ENTITIES_INDEXED" }, as: { name: "ENTITIES_INDEXED", stat: "AVG" } },
              ],
              refused: [],
            },
          }),
        ],
      }),
    );
    expect(text).toContain("in01-a ENTITIES_INDEXED: accepted as ENTITIES_INDEXED stat=AVG");
    expect(text).toContain("Result: the key is accepted and everything answered");
  });
});
