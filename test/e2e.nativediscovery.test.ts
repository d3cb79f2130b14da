/**
 * End to end: a real Prometheus, given the shipped job config/prometheus/native-export.yml with
 * only its discovery URL and key file filled in, finds the simulator's Enterprise clusters
 * through the exporter's /sd/native-export and scrapes the service's own endpoint every 60 s,
 * and the endpoint refuses none of its scrapes. Prometheus starts a new target's first scrape
 * at a fixed phase of its interval (0 to 60 s away), so the two scrapes take 60 to 125 s.
 *
 * Needs the `prometheus` binary (skipped with a notice without it; CI fails instead).
 */
import { type ChildProcess, spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { TargetGroup } from "../src/polling/nativeExport.js";
import { type Harness, startHarness, TEST_API_KEY } from "./helpers/harness.js";
import { freePort, spawnPrometheus, stop, waitFor } from "./helpers/processes.js";
import { tempDir } from "./helpers/tempDir.js";
import { toolOrSkip, toolPath } from "./helpers/tools.js";

const ROOT = join(import.meta.dirname, "..");
const SHIPPED = join(ROOT, "config", "prometheus", "native-export.yml");
const NATIVE = "GET /v2/clusters/{id}/metrics/export";
const prometheusTool = toolOrSkip("prometheus");
const promtool = toolOrSkip("promtool");

interface ShippedJob {
  job_name: string;
  scrape_interval: string;
  scrape_timeout: string;
  honor_labels: boolean;
  authorization: { type: string; credentials_file: string };
  http_sd_configs: { url: string; refresh_interval?: string }[];
}

/** The shipped file, its key file filled in (promtool and Prometheus read it). */
function shippedWith(keyFile: string, sdUrl?: string): { scrape_configs: ShippedJob[] } {
  const shipped = parse(readFileSync(SHIPPED, "utf8")) as { scrape_configs: ShippedJob[] };
  const [job] = shipped.scrape_configs;
  const [sd] = job?.http_sd_configs ?? [];
  if (job === undefined || sd === undefined) throw new Error(`${SHIPPED}: no job with http_sd_configs`);
  job.authorization.credentials_file = keyFile;
  if (sdUrl !== undefined) sd.url = sdUrl;
  return shipped;
}

describe("the shipped native-export job", () => {
  it("is one job: the service's 60 s minimum, honor_labels, the key by file as a Bearer token, the exporter's discovery", () => {
    const shipped = parse(readFileSync(SHIPPED, "utf8")) as { scrape_configs: ShippedJob[] };
    expect(shipped.scrape_configs).toHaveLength(1);
    const [job] = shipped.scrape_configs;
    expect(job).toMatchObject({
      job_name: "vdbcloud-native",
      scrape_interval: "60s",
      scrape_timeout: "30s",
      honor_labels: true,
      authorization: { type: "Bearer", credentials_file: expect.any(String) },
    });
    expect(job?.http_sd_configs).toHaveLength(1);
    expect(new URL(job?.http_sd_configs[0]?.url ?? "").pathname).toBe("/sd/native-export");
  });

  it.skipIf(promtool.skip)("passes promtool check config once its key file exists", () => {
    const dir = tempDir("vdbcloud-native-job-");
    writeFileSync(join(dir, "key"), "k\n");
    writeFileSync(join(dir, "prometheus.yml"), stringify(shippedWith(join(dir, "key"))));
    const r = spawnSync(toolPath(promtool), ["check", "config", join(dir, "prometheus.yml")], {
      encoding: "utf8",
    });
    expect(`${r.stdout}${r.stderr}`).toContain("SUCCESS");
    expect(r.status).toBe(0);
  });
});

interface VectorSample {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

describe("the shipped native-export job in a real Prometheus", () => {
  let h: Harness | undefined;
  let prometheus: ChildProcess | undefined;
  let tmp = "";
  const logs: string[] = [];

  afterAll(async () => {
    await stop(prometheus);
    await h?.close();
    if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
  });

  it.skipIf(prometheusTool.skip)(
    "scrapes every Enterprise cluster through the discovery at 60 s, and none is refused",
    async () => {
      const started = Date.now();
      // When each native scrape arrived, per cluster.
      const scrapes = new Map<string, number[]>();
      h = await startHarness({
        // One Enterprise cluster (and a Standard one): each target waits for its own phase.
        sim: {
          clusters: 2,
          apiKeys: [TEST_API_KEY],
          onRequestDone: (done) => {
            if (done.template !== NATIVE || done.clusterId === undefined) return;
            scrapes.set(done.clusterId, [...(scrapes.get(done.clusterId) ?? []), Date.now()]);
          },
        },
        config: (raw) => {
          raw.native_export = { enabled: true };
          raw.import_jobs = { enabled: false };
          raw.spark_jobs = { jobs: [], discovery: { enabled: false } };
          raw.jobs = { ids: [] };
        },
      });
      const harness = h;
      const enterprise = harness.sim.clusters.filter((c) => c.plan === "Enterprise").map((c) => c.id);
      expect(enterprise.length).toBeGreaterThan(0);
      // Prometheus reads the discovery at start: wait until the plans are known.
      await waitFor("the discovery to list every Enterprise cluster", 20_000, async () => {
        const groups = (await (await fetch(`${harness.url}/sd/native-export`)).json()) as TargetGroup[];
        return groups.length === enterprise.length ? true : undefined;
      });

      // The shipped file, with exactly two fields filled in.
      tmp = tempDir("vdbcloud-native-e2e-");
      const keyFile = join(tmp, "api-key");
      writeFileSync(keyFile, `${TEST_API_KEY}\n`);
      const shipped = shippedWith(keyFile, `${harness.url}/sd/native-export`);
      const promPort = await freePort();
      const promUrl = `http://127.0.0.1:${promPort}`;
      prometheus = spawnPrometheus(
        ROOT,
        toolPath(prometheusTool),
        { dir: tmp, config: stringify(shipped), port: promPort },
        logs,
      );
      const query = async (q: string): Promise<VectorSample[]> => {
        const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(q)}`);
        const body = (await res.json()) as { status: string; data?: { result: VectorSample[] } };
        return body.status === "success" ? (body.data?.result ?? []) : [];
      };

      // Two scrapes of every cluster, the second 60 s after the first.
      await waitFor("two scrapes of every Enterprise cluster", 150_000, async () =>
        enterprise.every((id) => (scrapes.get(id)?.length ?? 0) >= 2) ? true : undefined,
      ).catch((err: unknown) => {
        throw new Error(`Prometheus did not scrape twice:\n${logs.join("").slice(-3000)}`, { cause: err });
      });
      for (const id of enterprise) {
        const [first = 0, second = 0] = scrapes.get(id) ?? [];
        expect(second - first, id).toBeGreaterThanOrEqual(59_000);
        expect(second - first, id).toBeLessThan(62_000);
      }
      expect(harness.sim.stats.nativeScrapesRefused).toEqual({});
      const served = harness.sim.stats.byEndpointCluster[NATIVE] ?? {};
      for (const id of enterprise) expect(served[id], id).toBeGreaterThanOrEqual(2);

      // Prometheus saw them up, with their series and the discovery's labels.
      await waitFor("the second scrape in Prometheus", 10_000, async () =>
        (await query('up{job="vdbcloud-native"} == 1')).length === enterprise.length ? true : undefined,
      );
      const up = await query('up{job="vdbcloud-native"}');
      expect(up.map((s) => s.metric.cluster_id).sort()).toEqual([...enterprise].sort());
      expect(up.every((s) => s.value[1] === "1")).toBe(true);
      const computation = await query("zilliz_cluster_computation");
      expect(computation.map((s) => s.metric.cluster_id).sort()).toEqual([...enterprise].sort());
      for (const s of computation) {
        const cluster = harness.sim.clusters.find((c) => c.id === s.metric.cluster_id);
        expect(s.metric).toMatchObject({
          job: "vdbcloud-native",
          cluster_name: cluster?.name,
          region_id: cluster?.regionId,
        });
      }
      const requests = await query("sum by (cluster_id) (zilliz_requests_total)");
      expect(requests.map((s) => s.metric.cluster_id).sort()).toEqual([...enterprise].sort());
      // honor_labels: the series' own cluster_id wins, no exported_ copy.
      expect(await query('{__name__=~"zilliz_.+", exported_cluster_id!=""}')).toEqual([]);
      process.stderr.write(
        `e2e.nativediscovery: two scrapes at 60 s took ${Math.round((Date.now() - started) / 1000)} s\n`,
      );
    },
    180_000,
  );
});
