import { describe, expect, it } from "vitest";
import { type Check, evaluateTargets, formatChecks, mb, ms, type TargetInputs, table } from "./report.js";
import type { Summary } from "./stats.js";

const s = (p50: number, p99: number): Summary => ({ count: 200, p50, p99, max: p99, mean: p50 });
const three = (f: (v: string) => Summary) => new Map(["text", "openmetrics+gzip"].map((v) => [v, f(v)]));

function inputs(over: Partial<TargetInputs> = {}): TargetInputs {
  return {
    latencies: {
      exporter: three(() => s(5, 20)),
      floor: three(() => s(2, 4)),
      promClient: three(() => s(200, 260)),
    },
    stalls: { cycle: stall(12), scrapes: stall(8) },
    maxRssBytes: 200 * 1024 * 1024,
    rateLimited: { scale: 0, "600 targets": 0 },
    perCycle: [
      {
        name: "scale",
        targets: 3,
        cycles: [{ cycle: 0, requests: 3, distinctTargets: 3, rateLimited: 0 }],
      },
      {
        name: "600 targets",
        targets: 600,
        cycles: [
          { cycle: 0, requests: 600, distinctTargets: 600, rateLimited: 0 },
          { cycle: 1, requests: 600, distinctTargets: 600, rateLimited: 0 },
        ],
      },
    ],
    ...over,
  };
}

const verdicts = (checks: Check[]) => checks.map((c) => c.pass);

/** A window's stalls: the longest `maxMs`, `waitMs` of it spent waiting for a CPU. */
function stall(maxMs: number, waitMs = 0) {
  return { maxMs, ownMaxMs: maxMs - waitMs, cpuWaitInMaxMs: waitMs };
}

describe("evaluateTargets", () => {
  it("passes every target when the figures are within limits", () => {
    const checks = evaluateTargets(inputs());
    expect(verdicts(checks)).toEqual([true, true, true, true, true, true, true]);
    expect(checks[0]?.detail).toBe("text 2.50x; openmetrics+gzip 2.50x");
    expect(checks[1]?.detail).toBe("text 40x; openmetrics+gzip 40x");
  });

  it("judges a stall on the exporter's own part, the wait for a CPU shown beside it", () => {
    const checks = evaluateTargets(inputs({ stalls: { cycle: stall(63.3, 28.1), scrapes: stall(8) } }));
    expect(checks[3]?.pass).toBe(true);
    expect(checks[3]?.detail).toBe(
      "cycle 35.2 ms (longest stall 63.3, 28.1 of it waiting for a CPU); scrapes 8.00 ms (longest stall 8.00, 0.00 of it waiting for a CPU)",
    );
  });

  it.each([
    {
      name: "slow against the floor",
      over: { latencies: { ...inputs().latencies, floor: three(() => s(1, 2)) } },
      index: 0,
    },
    {
      name: "not 10x faster than prom-client",
      over: {
        latencies: { ...inputs().latencies, promClient: three((v) => s(v === "text" ? 49 : 200, 300)) },
      },
      index: 1,
    },
    {
      name: "a p99 of 50 ms",
      over: { latencies: { ...inputs().latencies, exporter: three(() => s(5, 50)) } },
      index: 2,
    },
    {
      name: "a 51 ms stall of its own",
      over: { stalls: { cycle: stall(70, 19), scrapes: stall(1) } },
      index: 3,
    },
    {
      name: "a 51 ms stall where the wait for a CPU is unknown",
      over: { stalls: { cycle: { maxMs: 51, ownMaxMs: null, cpuWaitInMaxMs: null } } },
      index: 3,
    },
    { name: "300 MiB RSS", over: { maxRssBytes: 300 * 1024 * 1024 }, index: 4 },
    { name: "one 429", over: { rateLimited: { scale: 0, "600 targets": 1 } }, index: 5 },
    {
      name: "a cycle with 599 requests",
      over: {
        perCycle: [
          {
            name: "x",
            targets: 600,
            cycles: [{ cycle: 0, requests: 599, distinctTargets: 599, rateLimited: 0 }],
          },
        ],
      },
      index: 6,
    },
    {
      name: "a cycle with a repeated target",
      over: {
        perCycle: [
          {
            name: "x",
            targets: 600,
            cycles: [{ cycle: 0, requests: 600, distinctTargets: 599, rateLimited: 0 }],
          },
        ],
      },
      index: 6,
    },
    {
      name: "a scenario without a complete cycle",
      over: { perCycle: [{ name: "x", targets: 600, cycles: [] }] },
      index: 6,
    },
    { name: "no scenario counted", over: { perCycle: [] }, index: 6 },
  ])("fails only its target on $name", ({ over, index }) => {
    const got = verdicts(evaluateTargets(inputs(over)));
    expect(got.map((v, i) => (i === index ? !v : v))).toEqual(got.map(() => true));
  });
});

describe("formatting", () => {
  it("formats checks as PASS/FAIL lines", () => {
    expect(
      formatChecks([
        { name: "a", pass: true, detail: "1" },
        { name: "b", pass: false, detail: "2" },
      ]),
    ).toBe("  [PASS] a: 1\n  [FAIL] b: 2");
  });

  it("aligns table columns, text left and numbers right", () => {
    expect(
      table(
        [
          ["name", "p50"],
          ["exporter text", "1.5"],
        ],
        "",
      ),
    ).toBe("name           p50\nexporter text  1.5");
  });

  it.each([
    { v: 1.234, want: "1.23" },
    { v: 12.34, want: "12.3" },
    { v: Number.NaN, want: "-" },
  ])("ms($v) is $want", ({ v, want }) => {
    expect(ms(v)).toBe(want);
  });

  it("formats megabytes", () => {
    expect(mb(11_868_473)).toBe("11.9 MB");
  });
});
