/**
 * The key goes only where it belongs: a cluster whose Describe Cluster names a data-plane
 * address off the service's domains (and off api.data_plane_hosts) gets no data-plane request at
 * all, so no request carrying the key reaches that address; its collections target fails and
 * says why, and every other cluster's data plane is polled as before.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { MutableSimCluster } from "../src/simulator/world.js";
import { type Harness, matching, parseSamples, startHarness, TEST_API_KEY } from "./helpers/harness.js";

/** A server standing for a foreign host: it records what reaches it. */
async function foreignServer(): Promise<{ server: Server; port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: 0, data: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

let harness: Harness | undefined;
let foreign: Server | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await new Promise((r) => (foreign ? foreign.close(r) : r(undefined)));
  foreign = undefined;
});

/** Polls until `check` holds on the exporter's samples (each poll runs once at start). */
async function until(h: Harness, check: (text: string) => boolean): Promise<string> {
  let text = "";
  for (let i = 0; i < 200; i++) {
    await h.settle();
    text = await h.metrics();
    if (check(text)) return text;
    await new Promise((r) => setTimeout(r, 25));
  }
  return text;
}

function collectionsUp(text: string, clusterId: string): number | undefined {
  return matching(parseSamples(text), "vdbcloud_collector_up", {
    collector: "collections",
    target: clusterId,
  })[0]?.value;
}

describe("data-plane addresses from the upstream", () => {
  it.each([
    { name: "off every allowed host: refused, nothing sent", allowForeign: false },
    { name: "listed by the user (the control case): used", allowForeign: true },
  ])("$name", async ({ allowForeign }) => {
    const f = await foreignServer();
    foreign = f.server;
    const { startSimulator } = await import("../src/simulator/index.js");
    const sim = await startSimulator({ clusters: 2, collectionsPerCluster: 2 });
    const target = sim.clusters[1] as MutableSimCluster;
    // "localhost" is not the simulator's own host (127.0.0.1), which the demo config allows.
    target.connectAddress = `http://localhost:${f.port}/dp/${target.id}`;
    const logs: string[] = [];
    try {
      harness = await startHarness({
        simulator: sim,
        logs,
        config: (raw) => {
          raw.collections = { enabled: true, interval: "PT30S", indexes: false };
          if (allowForeign) {
            const api = raw.api as Record<string, unknown>;
            api.data_plane_hosts = [...(api.data_plane_hosts as string[]), "http://localhost"];
          }
        },
      });
      const h = harness;
      const other = sim.clusters[0]?.id as string;
      const text = await until(
        h,
        (t) => collectionsUp(t, target.id) !== undefined && collectionsUp(t, other) !== undefined,
      );
      // The other cluster's data plane (the simulator's, allowed by the demo config) answers.
      expect(collectionsUp(text, other)).toBe(1);
      if (allowForeign) {
        expect(f.seen.length).toBeGreaterThan(0);
        expect(f.seen.some((line) => line.includes(TEST_API_KEY))).toBe(true);
        return;
      }
      expect(f.seen).toEqual([]);
      expect(collectionsUp(text, target.id)).toBe(0);
      const refusals = logs.filter((l) => l.includes("foreign_endpoint"));
      expect(refusals.length).toBe(1);
      expect(refusals[0]).not.toContain(TEST_API_KEY);
    } finally {
      await harness?.close();
      harness = undefined;
      await sim.close();
    }
  });
});
