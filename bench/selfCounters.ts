/**
 * The exporter's own counters read from a /metrics answer: requests, retries and rate-limit
 * answers per endpoint, polls and skipped runs per collector. The benchmark compares two
 * readings to know what happened in between, as the exporter itself saw it.
 */
import { type ParsedSample, parseExposition } from "./exposition.js";
import { fetchText } from "./scrape.js";

export interface SelfCounters {
  /** vdbcloud_api_requests_total summed over outcomes, by endpoint. */
  readonly requests: ReadonlyMap<string, number>;
  readonly retries: ReadonlyMap<string, number>;
  readonly rateLimited: ReadonlyMap<string, number>;
  /** vdbcloud_collector_duration_seconds_count: completed polls, by collector. */
  readonly polls: ReadonlyMap<string, number>;
  readonly skipped: ReadonlyMap<string, number>;
  /** vdbcloud_exporter_series, or NaN when absent. */
  readonly storeSeries: number;
}

function sumBy(samples: readonly ParsedSample[], name: string, label: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    if (s.name !== name) continue;
    const key = s.labels[label] ?? "";
    out.set(key, (out.get(key) ?? 0) + s.value);
  }
  return out;
}

/** Reads the counters from parsed samples of one scrape. */
export function readSelfCounters(samples: readonly ParsedSample[]): SelfCounters {
  return {
    requests: sumBy(samples, "vdbcloud_api_requests_total", "endpoint"),
    retries: sumBy(samples, "vdbcloud_api_retries_total", "endpoint"),
    rateLimited: sumBy(samples, "vdbcloud_api_rate_limited_total", "endpoint"),
    polls: sumBy(samples, "vdbcloud_collector_duration_seconds_count", "collector"),
    skipped: sumBy(samples, "vdbcloud_scheduler_skipped_runs_total", "collector"),
    storeSeries: samples.find((s) => s.name === "vdbcloud_exporter_series")?.value ?? Number.NaN,
  };
}

/** `after - before` per key (keys of `after`). */
export function delta(
  after: ReadonlyMap<string, number>,
  before: ReadonlyMap<string, number>,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of after) out.set(k, v - (before.get(k) ?? 0));
  return out;
}

/** Sum of a map's values. */
export function total(m: ReadonlyMap<string, number>): number {
  let n = 0;
  for (const v of m.values()) n += v;
  return n;
}

/** Scrapes `origin`/metrics once and reads the counters. */
export async function scrapeSelfCounters(origin: string): Promise<SelfCounters> {
  return readSelfCounters(parseExposition(await fetchText(`${origin}/metrics`)).samples);
}
