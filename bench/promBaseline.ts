/**
 * The "straightforward implementation" the exporter is compared with: a prom-client Registry
 * of Gauges holding the same samples, rendered by `registry.metrics()` on every scrape.
 */
import { Gauge, type OpenMetricsContentType, Registry } from "prom-client";
import type { ParsedExposition } from "./exposition.js";

/** The same gauges registered in a text-format and an OpenMetrics registry. */
export interface BaselineRegistries {
  readonly text: Registry;
  readonly openMetrics: Registry<OpenMetricsContentType>;
  readonly series: number;
}

function helpFor(parsed: ParsedExposition, name: string): string {
  for (const suffix of ["", "_bucket", "_sum", "_count", "_total"]) {
    if (suffix === "" || name.endsWith(suffix)) {
      const meta = parsed.families.get(suffix === "" ? name : name.slice(0, -suffix.length));
      if (meta?.help) return meta.help;
    }
  }
  return name;
}

/**
 * One Gauge per sample name (histogram parts and counters become gauges too: the cost under
 * test is rendering, not type semantics), with the union of the label names it is seen with.
 */
export function buildRegistries(parsed: ParsedExposition): BaselineRegistries {
  const text = new Registry();
  const openMetrics = new Registry<OpenMetricsContentType>();
  openMetrics.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  const byName = new Map<string, ParsedExposition["samples"]>();
  for (const s of parsed.samples) {
    const list = byName.get(s.name);
    if (list) list.push(s);
    else byName.set(s.name, [s]);
  }
  for (const [name, samples] of byName) {
    const labelNames = [...new Set(samples.flatMap((s) => Object.keys(s.labels)))];
    const gauge = new Gauge({
      name,
      help: helpFor(parsed, name),
      labelNames,
      registers: [text, openMetrics],
    });
    for (const s of samples) gauge.set(s.labels, s.value);
  }
  return { text, openMetrics, series: parsed.samples.length };
}
