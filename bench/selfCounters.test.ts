import { describe, expect, it } from "vitest";
import { parseExposition } from "./exposition.js";
import { delta, readSelfCounters, total } from "./selfCounters.js";

const M = "POST /v2/clusters/{id}/metrics/query";
const scrape = (metricsOk: number, retries: number, polls: number) =>
  parseExposition(
    [
      `vdbcloud_api_requests_total{endpoint="${M}",outcome="success"} ${metricsOk}`,
      `vdbcloud_api_requests_total{endpoint="${M}",outcome="timeout"} 2`,
      `vdbcloud_api_requests_total{endpoint="GET /v2/regions",outcome="success"} 1`,
      `vdbcloud_api_retries_total{endpoint="${M}"} ${retries}`,
      `vdbcloud_api_rate_limited_total{endpoint="${M}"} 0`,
      `vdbcloud_collector_duration_seconds_count{collector="cluster_metrics"} ${polls}`,
      `vdbcloud_collector_duration_seconds_bucket{collector="cluster_metrics",le="1"} ${polls}`,
      'vdbcloud_scheduler_skipped_runs_total{collector="cluster_metrics"} 1',
      "vdbcloud_exporter_series 1234",
    ].join("\n"),
  ).samples;

describe("readSelfCounters", () => {
  it("sums requests over outcomes and reads polls from the histogram count only", () => {
    const c = readSelfCounters(scrape(10, 3, 9));
    expect(c.requests.get(M)).toBe(12);
    expect(c.requests.get("GET /v2/regions")).toBe(1);
    expect(c.retries.get(M)).toBe(3);
    expect(c.rateLimited.get(M)).toBe(0);
    expect(c.polls.get("cluster_metrics")).toBe(9);
    expect(c.skipped.get("cluster_metrics")).toBe(1);
    expect(c.storeSeries).toBe(1234);
  });

  it("is NaN for a missing series gauge", () => {
    expect(readSelfCounters([]).storeSeries).toBeNaN();
  });
});

describe("delta and total", () => {
  it("subtract per key and sum", () => {
    const d = delta(
      readSelfCounters(scrape(110, 3, 109)).requests,
      readSelfCounters(scrape(10, 0, 9)).requests,
    );
    expect(d.get(M)).toBe(100);
    expect(d.get("GET /v2/regions")).toBe(0);
    expect(total(d)).toBe(100);
    expect(delta(new Map([["a", 5]]), new Map()).get("a")).toBe(5);
  });
});
