/**
 * Listed IDs follow the ID rule of configured ones: List Clusters answers (through a proxy in
 * front of the simulator) with clusters whose IDs are "..", "." and "" beside the real ones. None
 * of them reaches a request path ("GET /v2/", "GET /v2/clusters/", "POST /v2/metrics/query" were
 * called before) or /sd/native-export; each is counted, and the real clusters are polled.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../src/simulator/index.js";
import { type Harness, matching, parseSamples, startHarness } from "./helpers/harness.js";

const BAD_IDS = ["..", ".", ""];

/** Forwards to the simulator, adding clusters with bad IDs to List Clusters; records every path. */
async function proxy(sim: Simulator): Promise<{ server: Server; url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = req.url ?? "/";
      paths.push(`${req.method} ${url.split("?")[0]}`);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === "string" && k !== "host") headers[k] = v;
      const answer = await fetch(`${sim.baseUrl}${url}`, {
        method: req.method ?? "GET",
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      let body = Buffer.from(await answer.arrayBuffer());
      if (req.method === "GET" && url.split("?")[0] === "/v2/clusters" && answer.ok) {
        const json = JSON.parse(body.toString("utf8"));
        const list = json.data.clusters as Record<string, unknown>[];
        const template = list[0] ?? {};
        // Ahead of the real ones, and counted in the total, as a server that lists them would.
        json.data.clusters = [
          ...BAD_IDS.map((id) => ({ ...template, clusterId: id, plan: "Enterprise" })),
          ...list,
        ];
        json.data.count = Number(json.data.count) + BAD_IDS.length;
        body = Buffer.from(JSON.stringify(json));
      }
      res.writeHead(answer.status, {
        "content-type": answer.headers.get("content-type") ?? "application/json",
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths };
}

let harness: Harness;
let sim: Simulator;
let front: Awaited<ReturnType<typeof proxy>>;

beforeAll(async () => {
  const { startSimulator } = await import("../src/simulator/index.js");
  sim = await startSimulator({ clusters: 3 });
  front = await proxy(sim);
  harness = await startHarness({
    simulator: sim,
    config: (raw) => {
      (raw.api as Record<string, unknown>).base_url = front.url;
      raw.clusters = [];
      raw.inventory = { interval: "PT30S", discovery: { enabled: true } };
      raw.native_export = { enabled: true };
    },
  });
  // Discovery runs first; the clusters it finds are then polled by every collector.
  for (let i = 0; i < 100; i++) {
    await harness.settle();
    const polled = front.paths.filter((p) => p.startsWith("POST /v2/clusters/in01-"));
    if (polled.length >= sim.clusters.length) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await harness.settle();
}, 60_000);

afterAll(async () => {
  await harness?.close();
  front?.server.close();
  await sim?.close();
});

describe("discovered cluster IDs outside the ID rule", () => {
  it("never reach a request path", () => {
    // The real clusters were polled: the test would see a bad path if one were built.
    expect(front.paths.filter((p) => p.startsWith("POST /v2/clusters/in01-")).length).toBeGreaterThanOrEqual(
      sim.clusters.length,
    );
    const bad = front.paths.filter((p) => {
      const path = p.split(" ")[1] ?? "";
      return (
        path === "/v2/" ||
        path === "/v2" ||
        path.endsWith("/") ||
        path.includes("/./") ||
        path.includes("/../") ||
        path.includes("//") ||
        /^\/v2\/(backups\/policy|metrics\/query|metrics\/export)$/.test(path)
      );
    });
    expect(bad).toEqual([]);
  });

  it("are counted, and /sd/native-export lists only real clusters", async () => {
    const samples = parseSamples(await harness.metrics());
    const counted = matching(samples, "vdbcloud_api_invalid_ids_total", { endpoint: "GET /v2/clusters" });
    expect(counted[0]?.value).toBeGreaterThanOrEqual(BAD_IDS.length);
    const groups = (await (await fetch(`${harness.url}/sd/native-export`)).json()) as {
      labels: Record<string, string>;
    }[];
    expect(groups.length).toBeGreaterThan(0);
    for (const group of groups) {
      expect(group.labels.__metrics_path__).toMatch(/\/v2\/clusters\/in01-[0-9a-f]+\/metrics\/export$/);
      expect(group.labels.cluster_id).toMatch(/^in01-[0-9a-f]+$/);
    }
    // Every up series of a cluster target names a real cluster.
    const targets = samples
      .filter((s) => s.name === "vdbcloud_collector_up")
      .map((s) => s.labels.target as string)
      .filter((t) => !/^(global|discovery|organization)$/.test(t));
    for (const t of targets) expect(BAD_IDS).not.toContain(t);
  });
});
