import { describe, expect, it } from "vitest";
import { STATIC_FAMILIES } from "../collectors/registry.js";
import { SelfMetrics } from "../exposition/selfMetrics.js";
import { CLUSTER_FAMILIES } from "./families.js";

/** Every exposed family with its HELP: the declared families', and the self-metric histograms' as rendered. */
async function allHelp(): Promise<Array<{ name: string; help: string }>> {
  const rendered = await new SelfMetrics({ version: "test", defaultMetrics: false })
    .render(false)
    .then((b) => b.toString("utf8"));
  const fromSelf = [...rendered.matchAll(/^# HELP (vdbcloud_\S+) (.*)$/gm)].map((m) => ({
    name: m[1] as string,
    help: m[2] as string,
  }));
  const byName = new Map(STATIC_FAMILIES.map((f) => [f.name, { name: f.name, help: f.help }]));
  for (const f of fromSelf) if (!byName.has(f.name)) byName.set(f.name, f);
  return [...byName.values()];
}

const families = await allHelp();
const clusterNames = new Set(Object.values(CLUSTER_FAMILIES).map((f) => f.name));

/** What HELP must say, by the family's name: the unit and the period a reader would ask about. */
const RULES: ReadonlyArray<{ readonly when: RegExp; readonly says: readonly RegExp[] }> = [
  { when: /_ratio$/, says: [/0 to 1/, /percent \/ 100/] },
  {
    when: /_per_second$/,
    says: [/per second/, /averaged over|over the newest closed bucket/, /per minute \/ 60/],
  },
  { when: /_bytes$/, says: [/in bytes/] },
  { when: /_timestamp_seconds$/, says: [/Unix time in seconds/] },
  { when: /(?<!timestamp)_seconds$/, says: [/in seconds/] },
  // Counters: no other family ends in _total.
  { when: /_total$/, says: [/since the exporter started/] },
  { when: /_info$/, says: [/always 1|1 when/] },
];

describe("HELP texts", () => {
  it("cover every family the exporter exposes", () => {
    expect(families.length).toBeGreaterThan(50);
    expect(families.map((f) => f.name)).toEqual(
      expect.arrayContaining(["vdbcloud_vcu", "vdbcloud_api_request_duration_seconds"]),
    );
  });

  it.each(families.map((f) => [f.name, f.help] as const))(
    "%s names its upstream metric or source",
    (name, help) => {
      expect(help).toMatch(/\((upstream [^)]+|[^)]*source: [^)]+)\)\.?$/);
      if (clusterNames.has(name)) {
        // The upstream metric name, and the period the value covers.
        expect(help).toMatch(/upstream [A-Z][A-Z_{}]+/);
        expect(help).toMatch(/newest closed bucket/);
      }
    },
  );

  it.each(families.map((f) => [f.name, f.help] as const))("%s gives its unit and period", (name, help) => {
    for (const rule of RULES.filter((r) => r.when.test(name))) {
      for (const says of rule.says) expect(help).toMatch(says);
    }
  });

  it.each([
    // The questions users asked of these two.
    { name: "vdbcloud_vcu", says: [/during the newest closed bucket/, /metrics\.granularity/, /not a rate/] },
    { name: "vdbcloud_vector_requests_per_second", says: [/^Vectors per second/, /VECTOR_REQ_\{T\}_COUNT/] },
    { name: "vdbcloud_requests_per_second", says: [/^Requests \(calls/] },
  ])("$name says what it counts", ({ name, says }) => {
    const help = families.find((f) => f.name === name)?.help ?? "";
    for (const s of says) expect(help).toMatch(s);
  });
});
