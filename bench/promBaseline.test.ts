import { describe, expect, it } from "vitest";
import { parseExposition } from "./exposition.js";
import { buildRegistries } from "./promBaseline.js";

const TEXT = [
  "# HELP vdbcloud_entities Number of entities (upstream ENTITIES_COUNT).",
  "# TYPE vdbcloud_entities gauge",
  'vdbcloud_entities{cluster_id="a"} 10',
  'vdbcloud_entities{cluster_id="b"} 20',
  "# HELP vdbcloud_api_request_duration_seconds Duration.",
  "# TYPE vdbcloud_api_request_duration_seconds histogram",
  'vdbcloud_api_request_duration_seconds_bucket{le="0.1",endpoint="e"} 3',
  'vdbcloud_api_request_duration_seconds_count{endpoint="e"} 3',
  "vdbcloud_exporter_series 2",
].join("\n");

describe("buildRegistries", () => {
  const reg = buildRegistries(parseExposition(TEXT));

  it("holds every sample with its labels and value", async () => {
    const out = parseExposition(await reg.text.metrics());
    expect(out.samples.map((s) => `${s.id} ${s.value}`).sort()).toEqual(
      [
        'vdbcloud_api_request_duration_seconds_bucket{le="0.1",endpoint="e"} 3',
        'vdbcloud_api_request_duration_seconds_count{endpoint="e"} 3',
        'vdbcloud_entities{cluster_id="a"} 10',
        'vdbcloud_entities{cluster_id="b"} 20',
        "vdbcloud_exporter_series 2",
      ].sort(),
    );
    expect(reg.series).toBe(5);
  });

  it("keeps HELP, falling back to the family of a histogram part", async () => {
    const out = parseExposition(await reg.text.metrics());
    expect(out.families.get("vdbcloud_entities")?.help).toBe("Number of entities (upstream ENTITIES_COUNT).");
    expect(out.families.get("vdbcloud_api_request_duration_seconds_count")?.help).toBe("Duration.");
  });

  it("renders OpenMetrics from the second registry", async () => {
    const om = await reg.openMetrics.metrics();
    expect(om.trimEnd().endsWith("# EOF")).toBe(true);
    expect(om).toContain('vdbcloud_entities{cluster_id="b"} 20');
  });
});
