import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { FamilyDef, Sample } from "../metrics/sample.js";
import { gzipWithTail } from "./gzipJoin.js";
import { SampleStore } from "./store.js";

const up: FamilyDef = {
  name: "vdbcloud_cu_computation_ratio",
  help: "CU (upstream CU_COMPUTATION).",
  type: "gauge",
};
const st: FamilyDef = { name: "vdbcloud_storage_bytes", help: "Storage.", type: "gauge" };
const ctr: FamilyDef = { name: "vdbcloud_things_total", help: "Things.", type: "counter" };

function s(family: string, cluster: string, value: number): Sample {
  return { family, labels: { cluster_id: cluster }, value };
}

function key(target: string, slot = "data") {
  return { collector: "cluster_metrics", target, slot };
}

describe("SampleStore", () => {
  it("groups every target's samples under one HELP/TYPE per family, sorted by family", async () => {
    const store = new SampleStore();
    store.put(key("a"), [up, st], [s(up.name, "a", 0.5), s(st.name, "a", 10)], null);
    store.put(key("b"), [up, st], [s(up.name, "b", 0.25), s(st.name, "b", 20)], null);
    const text = (await store.publishNow()).text.toString();
    expect(text).toBe(
      [
        "# HELP vdbcloud_cu_computation_ratio CU (upstream CU_COMPUTATION).",
        "# TYPE vdbcloud_cu_computation_ratio gauge",
        'vdbcloud_cu_computation_ratio{cluster_id="a"} 0.5',
        'vdbcloud_cu_computation_ratio{cluster_id="b"} 0.25',
        "# HELP vdbcloud_storage_bytes Storage.",
        "# TYPE vdbcloud_storage_bytes gauge",
        'vdbcloud_storage_bytes{cluster_id="a"} 10',
        'vdbcloud_storage_bytes{cluster_id="b"} 20',
        "",
      ].join("\n"),
    );
    store.close();
  });

  it("replaces a slice atomically: series missing from the new poll disappear", async () => {
    const store = new SampleStore();
    store.put(key("a"), [up, st], [s(up.name, "a", 0.5), s(st.name, "a", 10)], null);
    store.put(key("a"), [up], [s(up.name, "a", 0.75)], null);
    const text = (await store.publishNow()).text.toString();
    expect(text).toContain('vdbcloud_cu_computation_ratio{cluster_id="a"} 0.75');
    expect(text).not.toContain("storage");
    expect(store.seriesCount()).toBe(1);
    store.close();
  });

  it("expires slices with a TTL on sweep, keeps those without", async () => {
    let now = 1_000;
    const store = new SampleStore({ now: () => now });
    store.put(key("a"), [up], [s(up.name, "a", 1)], 5_000);
    store.put(key("a", "health"), [st], [s(st.name, "a", 1)], null);
    now = 5_999;
    expect(store.sweep()).toBe(0);
    now = 6_000;
    expect(store.sweep()).toBe(1);
    const text = (await store.publishNow()).text.toString();
    expect(text).not.toContain("cu_computation");
    expect(text).toContain("storage_bytes");
    store.close();
  });

  it("publishes OpenMetrics headers for counters and deflate heads that decompress to the same text", async () => {
    const store = new SampleStore();
    store.put(key("a"), [ctr], [{ family: ctr.name, labels: {}, value: 3 }], null);
    const p = await store.publishNow();
    expect(p.openMetrics.toString()).toBe(
      "# HELP vdbcloud_things Things.\n# TYPE vdbcloud_things counter\nvdbcloud_things_total 3\n",
    );
    const end = Buffer.from("# EOF\n");
    expect(
      gunzipSync(Buffer.concat(gzipWithTail(p.textGzip, end))).equals(Buffer.concat([p.text, end])),
    ).toBe(true);
    expect(
      gunzipSync(Buffer.concat(gzipWithTail(p.openMetricsGzip, end))).equals(
        Buffer.concat([p.openMetrics, end]),
      ),
    ).toBe(true);
    store.close();
  });

  it("does not publish until asked or the delay passes, and latest() never blocks", async () => {
    const store = new SampleStore({ publishDelayMs: 60_000 });
    store.put(key("a"), [up], [s(up.name, "a", 1)], null);
    expect(store.latest().text.length).toBe(0);
    const p = await store.publishNow();
    expect(p.series).toBe(1);
    expect(store.latest()).toBe(p);
    store.close();
  });

  it("publishes in the background after the coalescing delay", async () => {
    const store = new SampleStore({ publishDelayMs: 5 });
    store.put(key("a"), [up], [s(up.name, "a", 1)], null);
    store.put(key("b"), [up], [s(up.name, "b", 2)], null);
    await new Promise((r) => setTimeout(r, 100));
    expect(store.latest().text.toString()).toContain('cluster_id="b"');
    expect(store.latest().series).toBe(2);
    store.close();
  });

  it("deletes one target's slots and lists targets per collector", async () => {
    const store = new SampleStore();
    store.put(key("a"), [up], [s(up.name, "a", 1)], null);
    store.put(key("a", "health"), [st], [s(st.name, "a", 1)], null);
    store.put(key("b"), [up], [s(up.name, "b", 1)], null);
    expect(store.targets("cluster_metrics").sort()).toEqual(["a", "b"]);
    store.deleteTarget("cluster_metrics", "a");
    expect(store.targets("cluster_metrics")).toEqual(["b"]);
    expect((await store.publishNow()).text.toString()).not.toContain('cluster_id="a"');
    store.close();
  });

  it("escapes hostile label values so the output stays parseable", async () => {
    const store = new SampleStore();
    store.put(
      key("x"),
      [up],
      [{ family: up.name, labels: { collection_name: 'a"b\\c\nd' }, value: 1 }],
      null,
    );
    expect((await store.publishNow()).text.toString()).toContain('{collection_name="a\\"b\\\\c\\nd"} 1\n');
    store.close();
  });
});
