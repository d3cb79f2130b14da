import { describe, expect, it } from "vitest";
import { collectorUpSamples, newestBucketSamples } from "./selfFamilies.js";

describe("collectorUpSamples", () => {
  it.each<[up: boolean, last: number | null, expected: [string, number][]]>([
    [
      true,
      1_700_000_000,
      [
        ["vdbcloud_collector_up", 1],
        ["vdbcloud_collector_last_success_timestamp_seconds", 1_700_000_000],
      ],
    ],
    [
      false,
      1_700_000_000,
      [
        ["vdbcloud_collector_up", 0],
        ["vdbcloud_collector_last_success_timestamp_seconds", 1_700_000_000],
      ],
    ],
    [false, null, [["vdbcloud_collector_up", 0]]],
  ])("up %s, last success %s", (up, last, expected) => {
    const r = collectorUpSamples("import_jobs", "in01-a", up, last);
    expect(r.samples.map((s) => [s.family, s.value])).toEqual(expected);
    for (const s of r.samples) expect(s.labels).toEqual({ collector: "import_jobs", target: "in01-a" });
    expect(r.families.map((f) => f.name)).toEqual(expected.map(([f]) => f));
  });
});

describe("newestBucketSamples", () => {
  it("exposes the newest bucket in seconds with the target's labels", () => {
    const r = newestBucketSamples("in01-a", { dbName: "default", collectionName: "docs" }, 1_700_000_060_000);
    expect(r.samples).toEqual([
      {
        family: "vdbcloud_metrics_newest_bucket_timestamp_seconds",
        labels: { cluster_id: "in01-a", db_name: "default", collection_name: "docs" },
        value: 1_700_000_060,
      },
    ]);
  });

  it("gives no sample without a non-null bucket", () => {
    expect(newestBucketSamples("in01-a", undefined, null).samples).toEqual([]);
  });
});
