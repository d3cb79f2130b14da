import { describe, expect, it } from "vitest";
import { DROPPED_PROCESS_METRICS, PROCESS_RENDER_TTL_MS, SelfMetrics } from "./selfMetrics.js";

/** The endpoint the API counters below are labelled with. */
const EP = "GET /v2/clusters";
/** The series of API counter `vdbcloud_api_<family>_total` for EP (and `more` labels). */
const apiSeries = (family: string, more = "") => `vdbcloud_api_${family}_total{endpoint="${EP}"${more}}`;

/** Every change a SelfMetrics takes, each with the series whose rendering it must change. */
/** `i` (1, 2, ...) makes each call a new value, so that a gauge changes every time. */
const CHANGES: { name: string; change: (m: SelfMetrics, i: number) => void; series: string }[] = [
  {
    name: "attempt",
    change: (m) => m.attempt(EP, "success", 0.01),
    series: apiSeries("requests", ',outcome="success"'),
  },
  { name: "retry", change: (m) => m.retry(EP), series: apiSeries("retries") },
  { name: "rateLimited", change: (m) => m.rateLimited(EP), series: apiSeries("rate_limited") },
  { name: "schemaError", change: (m) => m.schemaError(EP), series: apiSeries("schema_errors") },
  {
    name: "dropped",
    change: (m) => m.dropped({ non_finite_value: 2 }),
    series: 'vdbcloud_samples_dropped_total{reason="non_finite_value"}',
  },
  {
    name: "collectorRun",
    change: (m) => m.collectorRun("cluster_metrics", 0.2),
    series: 'vdbcloud_collector_duration_seconds_count{collector="cluster_metrics"}',
  },
  {
    name: "internalError",
    change: (m) => m.internalError("publish"),
    series: 'vdbcloud_internal_errors_total{where="publish"}',
  },
  {
    name: "skipped",
    change: (m) => m.skipped("cluster_metrics"),
    series: 'vdbcloud_scheduler_skipped_runs_total{collector="cluster_metrics"}',
  },
  {
    name: "configLoaded",
    change: (m, i) => m.configLoaded(true, 5000 * i),
    series: "vdbcloud_config_last_reload_success_timestamp_seconds",
  },
  { name: "shard", change: (m, i) => m.shard(i, 3), series: "vdbcloud_shard_ordinal" },
  { name: "series", change: (m, i) => m.series(40 + i), series: "vdbcloud_exporter_series" },
];

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
    const out = (await m.render(openMetrics)).toString("utf8");
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
    const series = apiSeries("requests", ',outcome="success"');
    const cpu = "process_cpu_user_seconds_total";
    // Burns CPU so that a fresh process rendering differs from the previous one.
    const burn = () => {
      const until = performance.now() + 30;
      while (performance.now() < until) {}
    };
    const render = async () => (await m.render(false)).toString("utf8");
    const first = await render();
    m.attempt(EP, "success", 0.01);
    burn();
    now = PROCESS_RENDER_TTL_MS - 1;
    const second = await render();
    expect(sampleValue(first, series)).toBe(0);
    expect(sampleValue(second, series)).toBe(1);
    expect(sampleValue(second, cpu)).toBe(sampleValue(first, cpu));
    burn();
    now = PROCESS_RENDER_TTL_MS;
    const third = await render();
    expect(sampleValue(third, cpu)).toBeGreaterThan(sampleValue(first, cpu));
    expect(PROCESS_RENDER_TTL_MS).toBeLessThanOrEqual(1000);
  });

  it.each(CHANGES)("renders again after $name, and not while nothing changed", async ({ change, series }) => {
    const m = new SelfMetrics({ version: "x", collectors: ["cluster_metrics"], defaultMetrics: false });
    const line = (b: Buffer) =>
      b
        .toString("utf8")
        .split("\n")
        .find((l) => l.startsWith(`${series} `));
    for (const [i, om] of [false, true].entries()) {
      const before = await m.render(om);
      // Unchanged: the very same bytes, so what a response derives from them is reused.
      expect(await m.render(om)).toBe(before);
      change(m, i + 1);
      const after = await m.render(om);
      expect(after).not.toBe(before);
      expect(line(after), series).toBeDefined();
      expect(line(after)).not.toBe(line(before));
    }
  });

  it("a gauge set to the value it holds is no change", async () => {
    const m = new SelfMetrics({ version: "x", defaultMetrics: false });
    m.series(7);
    const before = await m.render(false);
    m.series(7);
    expect(await m.render(false)).toBe(before);
  });

  it("a change made while a rendering is under way shows in the next one", async () => {
    const m = new SelfMetrics({ version: "x", defaultMetrics: false });
    const series = apiSeries("retries");
    const pending = m.render(false);
    m.retry(EP);
    await pending;
    expect(sampleValue((await m.render(false)).toString("utf8"), series)).toBe(1);
  });

  it("omits process metrics when they are disabled", async () => {
    const out = (await new SelfMetrics({ version: "x", defaultMetrics: false }).render(false)).toString(
      "utf8",
    );
    expect(out).not.toContain("process_cpu");
    expect(out).toContain("vdbcloud_api_requests_total");
  });
});

describe("SelfMetrics family selection", () => {
  const families = (text: string) =>
    new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1] as string));

  it("renders no denied family, its own or the process's, and renders it again once admitted", async () => {
    const m = new SelfMetrics({ version: "test", collectors: ["jobs"], defaultMetrics: true });
    m.attempt(EP, "success", 0.01);
    const all = families((await m.render(false)).toString());
    expect(all.has("vdbcloud_api_requests_total")).toBe(true);
    expect(all.has("vdbcloud_api_request_duration_seconds")).toBe(true);
    expect(all.has("nodejs_heap_size_used_bytes")).toBe(true);
    // What familyNames() lists is what it can render.
    expect(new Set(m.familyNames())).toEqual(all);

    const denied = ["vdbcloud_api_requests_total", "vdbcloud_api_request_duration_seconds"];
    m.setFamilySelection({ exposes: (name) => !denied.includes(name) && !name.startsWith("nodejs_") });
    const text = (await m.render(false)).toString();
    const left = families(text);
    for (const name of denied) expect(left.has(name)).toBe(false);
    expect([...left].filter((name) => name.startsWith("nodejs_"))).toEqual([]);
    expect(text).not.toContain("vdbcloud_api_request_duration_seconds_bucket");
    expect(left.has("vdbcloud_api_retries_total")).toBe(true);
    expect(left.has("process_cpu_seconds_total")).toBe(true);
    expect((await m.render(true)).toString()).not.toContain("vdbcloud_api_requests");

    // Denied, it kept counting: admitted again, it shows every attempt.
    m.attempt(EP, "success", 0.01);
    m.setFamilySelection({ exposes: () => true });
    const again = (await m.render(false)).toString();
    expect(families(again)).toEqual(all);
    expect(sampleValue(again, apiSeries("requests", ',outcome="success"'))).toBe(2);
  });
});

describe("process metrics", () => {
  it("leaves out prom-client's gauges named like counters, and keeps their per-type families", () => {
    const names = new SelfMetrics({ version: "x" }).familyNames();
    for (const dropped of DROPPED_PROCESS_METRICS) expect(names).not.toContain(dropped);
    expect(names).toEqual(
      expect.arrayContaining(["nodejs_active_handles", "nodejs_active_requests", "nodejs_active_resources"]),
    );
  });
});
