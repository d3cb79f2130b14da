/**
 * `npm run bench:hostile`: what a hostile or broken upstream can cost the exporter with answers
 * under the 16 MiB body cap. Each case runs the real entry point (src/main.ts, one process per
 * case, so its peak RSS is its own) against a fake upstream on loopback that serves the case's
 * answer for one endpoint; this process serves it, asks /healthz every 20 ms and measures:
 * - the exporter's peak RSS (VmHWM of /proc/<pid>/status, the kernel's high-water mark);
 * - the longest /healthz answer while the exporter reads the answer, polls again and backs off;
 * - how many times the hostile endpoint was asked (a paging error backs off).
 * Targets (issue "hostile answers"): RSS under 400 MB, /healthz within 2 s, every case.
 * Exit 0 when every case holds, 1 when one does not. The figures are in docs/operations.md.
 *
 * `npm run bench:hostile -- --case NAME` runs one case; `--seconds N` sets each case's length.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MIB = 1024 * 1024;
/** Just under the default api.max_response_bytes (16 MiB). */
const BODY_TARGET = 16 * MIB - 64 * 1024;
const RSS_LIMIT_MB = 400;
const STALL_LIMIT_MS = 2000;
const PROBE_EVERY_MS = 20;

/** One hostile answer: the endpoint it answers and its body (built once, before the exporter starts). */
interface HostileCase {
  readonly name: string;
  readonly what: string;
  /** "GET /v2/regions" or "GET /v2/clusters": which path serves `body`. */
  readonly path: "/v2/regions" | "/v2/clusters" | "/v2/projects";
  body(): Buffer;
}

/** `{"code":0,"data":<inner>}` where `inner` is `count` copies of `item` joined by commas, in brackets. */
function envelopeOfRepeated(item: string, count: number, wrap = (list: string) => list): Buffer {
  const list = `[${new Array(count).fill(item).join(",")}]`;
  return Buffer.from(`{"code":0,"data":${wrap(list)}}`);
}

function itemsFitting(itemBytes: number): number {
  return Math.floor((BODY_TARGET - 64) / (itemBytes + 1));
}

function cluster(i: number): string {
  const id = `in01-${i.toString(16).padStart(16, "0")}`;
  return JSON.stringify({
    clusterId: id,
    clusterName: `c${i}`,
    projectId: "proj-0123456789abcdef",
    regionId: "aws-us-west-2",
    plan: "Enterprise",
    cuType: "Performance-optimized",
    cuSize: 2,
    status: "RUNNING",
    connectAddress: `https://${id}.aws-us-west-2.vectordb.zillizcloud.com:19530`,
  });
}

const CASES: readonly HostileCase[] = [
  {
    name: "regions-empty-arrays",
    what: "List Regions: data holds 5.5 million empty arrays",
    path: "/v2/regions",
    body: () => envelopeOfRepeated("[]", itemsFitting(2)),
  },
  {
    name: "clusters-empty-arrays",
    what: "List Clusters: data holds 5.5 million empty arrays",
    path: "/v2/clusters",
    body: () => envelopeOfRepeated("[]", itemsFitting(2)),
  },
  {
    name: "regions-nested",
    what: "List Regions: one array nested 8 million levels deep",
    path: "/v2/regions",
    body: () => {
      const depth = Math.floor((BODY_TARGET - 64) / 2);
      return Buffer.from(`{"code":0,"data":${"[".repeat(depth)}${"]".repeat(depth)}}`);
    },
  },
  {
    name: "regions-numbers",
    what: "List Regions: data holds 8 million numbers",
    path: "/v2/regions",
    body: () => envelopeOfRepeated("0", itemsFitting(1)),
  },
  {
    name: "regions-bad-objects",
    what: "List Regions: 99,000 objects of the wrong shape (under every array cap)",
    path: "/v2/regions",
    body: () =>
      envelopeOfRepeated(
        '{"cloudId":1,"regionId":2,"domain":3,"x":"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"}',
        99_000,
      ),
  },
  {
    name: "clusters-long-page",
    what: "List Clusters: one valid page of about 50,000 clusters (16 MB), asked for 100",
    path: "/v2/clusters",
    body: () => {
      const items: string[] = [];
      let size = 128;
      for (let i = 0; size < BODY_TARGET; i++) {
        const item = cluster(i);
        size += item.length + 1;
        if (size < BODY_TARGET) items.push(item);
      }
      return Buffer.from(
        `{"code":0,"data":{"count":${items.length},"currentPage":1,"pageSize":100,"clusters":[${items.join(",")}]}}`,
      );
    },
  },
  {
    name: "projects-bad-region-ids",
    what: "List Projects: 30 projects of 99,999 booleans for region IDs each (3 million bad elements)",
    path: "/v2/projects",
    body: () => {
      const regionIds = `[${new Array(99_999).fill("true").join(",")}]`;
      const projects = Array.from(
        { length: 30 },
        (_, i) => `{"projectId":"proj-${i}","regionIds":${regionIds}}`,
      );
      return Buffer.from(`{"code":0,"data":[${projects.join(",")}]}`);
    },
  },
  {
    name: "clusters-count-1e12",
    what: "List Clusters: valid pages that report count 1e12",
    path: "/v2/clusters",
    body: () => {
      const items = Array.from({ length: 100 }, (_, i) => cluster(i)).join(",");
      return Buffer.from(
        `{"code":0,"data":{"count":1000000000000,"currentPage":1,"pageSize":100,"clusters":[${items}]}}`,
      );
    },
  },
];

/** A free loopback port (bound, then released). */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** The fake upstream: the case's body on its path, an empty success on the other listings, 404 else. */
async function startUpstream(
  c: HostileCase,
  body: Buffer,
): Promise<{ server: Server; url: string; asked: () => number }> {
  let asked = 0;
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    req.resume();
    if (path === c.path) {
      asked++;
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      res.end(body);
      return;
    }
    if (path === "/v2/regions" || path === "/v2/projects") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"code":0,"data":[]}');
      return;
    }
    if (path === "/v2/clusters") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"code":0,"data":{"count":0,"currentPage":1,"pageSize":100,"clusters":[]}}');
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"code":404,"message":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked: () => asked };
}

/** The exporter's config: inventory (regions) and discovery (List Clusters) only, polled every 5 s. */
function configFile(upstream: string, listen: number): string {
  const file = join(tmpdir(), `vdbcloud-hostile-${process.pid}-${listen}.json`);
  // JSON is YAML: no YAML writer needed.
  writeFileSync(
    file,
    JSON.stringify({
      api: { base_url: upstream, controller_url: `${upstream}/ctl/{region}`, api_key: "hostile-bench-key" },
      inventory: { interval: "PT5S", on_demand: false, discovery: { enabled: true } },
      families: {
        allow: [
          "vdbcloud_region_info",
          "vdbcloud_cluster_info",
          "vdbcloud_collector_.*|vdbcloud_config_last_reload_successful|vdbcloud_exporter_build_info",
        ],
      },
      server: { listen: `127.0.0.1:${listen}` },
    }),
  );
  return file;
}

/** The peak RSS of `pid` so far, in MB (VmHWM); NaN where /proc does not say. */
function peakRssMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Asks /healthz every PROBE_EVERY_MS (one at a time) until stopped; the slowest answer's time. */
function probeHealth(url: string): { stop: () => Promise<number> } {
  let stopped = false;
  let slowest = 0;
  const loop = (async () => {
    while (!stopped) {
      const start = performance.now();
      try {
        await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(30_000) });
      } catch {
        // A refused or timed-out probe counts for as long as it took.
      }
      slowest = Math.max(slowest, performance.now() - start);
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return slowest;
    },
  };
}

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`exporter exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("exporter never answered /healthz");
}

/** One case's figures. */
interface Result {
  readonly name: string;
  readonly what: string;
  readonly bodyMb: number;
  readonly peakRssMb: number;
  readonly slowestHealthzMs: number;
  readonly asked: number;
  readonly stopMs: number;
}

async function runCase(c: HostileCase, seconds: number): Promise<Result> {
  const body = c.body();
  const upstream = await startUpstream(c, body);
  const port = await freePort();
  const config = configFile(upstream.url, port);
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "src/main.ts",
      "--config",
      config,
      "--log-level",
      process.env.HOSTILE_LOG_LEVEL ?? "error",
    ],
    { stdio: ["ignore", process.env.HOSTILE_LOG_LEVEL ? "inherit" : "ignore", "inherit"] },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(url, child);
    const probe = probeHealth(url);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const slowest = await probe.stop();
    const peak = peakRssMb(child.pid as number);
    const stopStart = performance.now();
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
    return {
      name: c.name,
      what: c.what,
      bodyMb: body.length / 1e6,
      peakRssMb: peak,
      slowestHealthzMs: slowest,
      asked: upstream.asked(),
      stopMs: performance.now() - stopStart,
    };
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(config, { force: true });
    upstream.server.closeAllConnections();
    await new Promise((r) => upstream.server.close(r));
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const only = arg("--case");
  const seconds = Number(arg("--seconds") ?? 12);
  const cases = CASES.filter((c) => only === undefined || c.name === only);
  if (cases.length === 0) {
    process.stderr.write(`no case named ${only}; cases: ${CASES.map((c) => c.name).join(", ")}\n`);
    return 2;
  }
  const results: Result[] = [];
  for (const c of cases) {
    process.stderr.write(`${c.name}: ${c.what}\n`);
    results.push(await runCase(c, seconds));
  }
  const lines = [
    `vdbcloud-exporter hostile answers (${seconds} s per case, /healthz every ${PROBE_EVERY_MS} ms)`,
    "case                    body MB  peak RSS MB  slowest /healthz ms  asked  SIGTERM ms",
  ];
  let ok = true;
  for (const r of results) {
    const pass = r.peakRssMb < RSS_LIMIT_MB && r.slowestHealthzMs < STALL_LIMIT_MS;
    ok &&= pass;
    lines.push(
      `${r.name.padEnd(22)}  ${r.bodyMb.toFixed(1).padStart(7)}  ${r.peakRssMb.toFixed(0).padStart(11)}  ` +
        `${r.slowestHealthzMs.toFixed(0).padStart(19)}  ${String(r.asked).padStart(5)}  ` +
        `${r.stopMs.toFixed(0).padStart(10)}${pass ? "" : "  FAIL"}`,
    );
  }
  lines.push(
    `targets: peak RSS < ${RSS_LIMIT_MB} MB, slowest /healthz < ${STALL_LIMIT_MS} ms: ${ok ? "met" : "NOT met"}`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
  return ok ? 0 : 1;
}

process.exitCode = await main();
