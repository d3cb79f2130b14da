import { readdirSync, rmSync } from "node:fs";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers/tempDir.js";
import type { HistoryMapping, TimedSample } from "../collectors/cluster-metrics/history.js";
import type { FamilyDef } from "../metrics/sample.js";
import { writeOpenMetrics } from "./openmetrics.js";
import { ChunkSpool, formatTimestamp } from "./spool.js";

const CU: FamilyDef = {
  name: "vdbcloud_cu_computation_ratio",
  help: "CU (upstream CU_COMPUTATION).",
  type: "gauge",
};
const LAT: FamilyDef = { name: "vdbcloud_request_latency_seconds", help: "Latency.", type: "gauge" };

function sample(family: FamilyDef, labels: Record<string, string>, value: number, t: number): TimedSample {
  return { family: family.name, labels, value, timestampMs: t };
}

function mapping(samples: TimedSample[]): HistoryMapping {
  return { samples, families: [CU, LAT], dropped: {} };
}

async function text(
  spool: ChunkSpool,
  targets: string[][],
  exposes?: (family: string) => boolean,
): Promise<string> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on("data", (b: Buffer) => parts.push(b));
  await writeOpenMetrics(spool, targets, out, exposes);
  return Buffer.concat(parts).toString("utf8");
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function newSpool(): ChunkSpool {
  const dir = tempDir("spool-test-");
  dirs.push(dir);
  return new ChunkSpool(dir);
}

describe("formatTimestamp", () => {
  it.each([
    [1_700_000_000_000, "1700000000.000"],
    [1_700_000_000_005, "1700000000.005"],
    [1_700_000_030_120, "1700000030.120"],
    [0, "0.000"],
  ])("%d ms -> %s s", (ms, s) => expect(formatTimestamp(ms)).toBe(s));
});

describe("ChunkSpool and writeOpenMetrics", () => {
  it("writes each family once, each series contiguous and in time order, # EOF last", async () => {
    const spool = newSpool();
    const a = { cluster_id: "a" };
    const b = { cluster_id: "b" };
    const avg = { cluster_id: "a", request_type: "search", stat: "avg" };
    const p99 = { cluster_id: "a", request_type: "search", stat: "p99" };
    // Target a, two chunks (the later one written first); target b, one chunk.
    await spool.write(
      "a2",
      mapping([sample(CU, a, 0.3, 90_000), sample(LAT, p99, 0.2, 90_000), sample(LAT, avg, 0.05, 90_000)]),
    );
    await spool.write(
      "a1",
      mapping([
        sample(CU, a, 0.1, 30_000),
        sample(LAT, avg, 0.04, 30_000),
        sample(LAT, p99, 0.1, 30_000),
        sample(CU, a, 0.2, 60_000),
      ]),
    );
    await spool.write("b1", mapping([sample(CU, b, 0.5, 30_000)]));
    expect(spool.isDone("a1")).toBe(true);
    expect(spool.isDone("zz")).toBe(false);
    expect(await text(spool, [["a1", "a2", "missing"], ["b1"]])).toBe(
      [
        "# HELP vdbcloud_cu_computation_ratio CU (upstream CU_COMPUTATION).",
        "# TYPE vdbcloud_cu_computation_ratio gauge",
        'vdbcloud_cu_computation_ratio{cluster_id="a"} 0.1 30.000',
        'vdbcloud_cu_computation_ratio{cluster_id="a"} 0.2 60.000',
        'vdbcloud_cu_computation_ratio{cluster_id="a"} 0.3 90.000',
        'vdbcloud_cu_computation_ratio{cluster_id="b"} 0.5 30.000',
        "# HELP vdbcloud_request_latency_seconds Latency.",
        "# TYPE vdbcloud_request_latency_seconds gauge",
        'vdbcloud_request_latency_seconds{cluster_id="a",request_type="search",stat="avg"} 0.04 30.000',
        'vdbcloud_request_latency_seconds{cluster_id="a",request_type="search",stat="avg"} 0.05 90.000',
        'vdbcloud_request_latency_seconds{cluster_id="a",request_type="search",stat="p99"} 0.1 30.000',
        'vdbcloud_request_latency_seconds{cluster_id="a",request_type="search",stat="p99"} 0.2 90.000',
        "# EOF",
        "",
      ].join("\n"),
    );
  });

  it("marks a chunk done only once its index is in place, and an empty chunk is done too", async () => {
    const spool = newSpool();
    await spool.write("empty", mapping([]));
    expect(spool.isDone("empty")).toBe(true);
    expect(readdirSync(spool.dir).sort()).toEqual(["empty.json", "empty.om"]);
    expect(await text(spool, [["empty"]])).toBe("# EOF\n");
  });

  it("leaves out the families the config's family lists deny", async () => {
    const spool = newSpool();
    await spool.write(
      "x",
      mapping([sample(CU, { cluster_id: "a" }, 0.1, 30_000), sample(LAT, { cluster_id: "a" }, 0.2, 30_000)]),
    );
    const out = await text(spool, [["x"]], (family) => family !== CU.name);
    expect(out).not.toContain(CU.name);
    expect(out).toContain('vdbcloud_request_latency_seconds{cluster_id="a"} 0.2 30.000\n');
    expect(out.endsWith("# EOF\n")).toBe(true);
  });

  it("escapes label values as the live exposition does", async () => {
    const spool = newSpool();
    await spool.write("x", mapping([sample(CU, { cluster_id: 'q"\\\n' }, 1, 30_000)]));
    expect(await text(spool, [["x"]])).toContain(
      'vdbcloud_cu_computation_ratio{cluster_id="q\\"\\\\\\n"} 1 30.000\n',
    );
  });
});
