import { describe, expect, it } from "vitest";
import { PROCESS_RENDER_TTL_MS, SelfMetrics } from "./selfMetrics.js";

function sampleValue(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  if (!line) throw new Error(`no ${series} in rendering`);
  return Number(line.slice(series.length + 1));
}

describe("SelfMetrics.render", () => {
  it.each([
    { openMetrics: false, counterType: "# TYPE vdbcloud_api_requests_total counter" },
    { openMetrics: true, counterType: "# TYPE vdbcloud_api_requests counter" },
  ])("renders own and process families (openMetrics=$openMetrics)", async ({ openMetrics, counterType }) => {
    const m = new SelfMetrics({ version: "1.2.3" });
    const out = await m.render(openMetrics);
    expect(out).toContain(counterType);
    expect(out).toContain("process_cpu_user_seconds_total");
    expect(out).toContain('vdbcloud_exporter_build_info{version="1.2.3"');
    // Well-formed for a concatenation: no blank lines in OpenMetrics, a final newline in both.
    expect(out.endsWith("\n")).toBe(true);
    if (openMetrics) expect(out).not.toMatch(/\n\n/);
    // Each family's TYPE line appears once: the two registries do not overlap.
    const types = out.split("\n").filter((l) => l.startsWith("# TYPE "));
    expect(new Set(types).size).toBe(types.length);
  });

  it("counts our own events at every scrape but reuses the process rendering for the TTL", async () => {
    let now = 0;
    const m = new SelfMetrics({ version: "x", now: () => now });
    const series = 'vdbcloud_api_requests_total{endpoint="GET /v2/clusters",outcome="success"}';
    const cpu = "process_cpu_user_seconds_total";
    // Burns CPU so that a fresh process rendering differs from the previous one.
    const burn = () => {
      const until = performance.now() + 30;
      while (performance.now() < until) {}
    };
    const first = await m.render(false);
    m.attempt("GET /v2/clusters", "success", 0.01);
    burn();
    now = PROCESS_RENDER_TTL_MS - 1;
    const second = await m.render(false);
    expect(sampleValue(first, series)).toBe(0);
    expect(sampleValue(second, series)).toBe(1);
    expect(sampleValue(second, cpu)).toBe(sampleValue(first, cpu));
    burn();
    now = PROCESS_RENDER_TTL_MS;
    const third = await m.render(false);
    expect(sampleValue(third, cpu)).toBeGreaterThan(sampleValue(first, cpu));
    expect(PROCESS_RENDER_TTL_MS).toBeLessThanOrEqual(1000);
  });

  it("omits process metrics when they are disabled", async () => {
    const out = await new SelfMetrics({ version: "x", defaultMetrics: false }).render(false);
    expect(out).not.toContain("process_cpu");
    expect(out).toContain("vdbcloud_api_requests_total");
  });
});
