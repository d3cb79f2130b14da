import { describe, expect, it } from "vitest";
import { type LandingInfo, renderLanding } from "./landing.js";

const NOW = 1_750_000_000_000;

function page(target: Partial<LandingInfo["targets"][number]>): string {
  return renderLanding({
    version: "t",
    startedAtMs: NOW,
    nowMs: NOW,
    ready: true,
    series: 1,
    publishedAtMs: NOW,
    shard: { index: 0, total: 1 },
    targets: [
      {
        collector: "backups",
        target: "in01-a",
        up: true,
        lastSuccessMs: NOW,
        consecutiveFailures: 0,
        lastError: null,
        ...target,
      },
    ],
  });
}

describe("the landing page's note on a target", () => {
  it.each([
    {
      name: "a failure",
      row: { up: false, lastError: { code: "paging_error", message: "GET /v2/backups: repeated" } },
      want: "paging_error: GET /v2/backups: repeated",
    },
    {
      name: "a missing permission",
      row: { notPermitted: "default" },
      want: "not permitted: credential default lacks",
    },
    {
      name: "a plan refusal",
      row: { planRefusedAtMs: NOW - 60_000 },
      want: "refused for the cluster&#39;s plan 60s ago",
    },
    {
      name: "calls that failed in a complete poll",
      row: { partialError: { code: "timeout", message: "1 call(s) failed: no answer" } },
      want: "partly: timeout: 1 call(s) failed: no answer",
    },
    {
      name: "a poll that asked nothing on purpose",
      row: { skipped: "served by the service's own Prometheus endpoint" },
      want: "not asked: served by the service&#39;s own Prometheus endpoint",
    },
    { name: "nothing", row: {}, want: "<td>0</td><td></td></tr>" },
  ])("$name", ({ row, want }) => {
    expect(page(row)).toContain(want);
  });
});
