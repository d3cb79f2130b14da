import { pino } from "pino";
import { buildConfig } from "../../src/config/load.js";
import { Exporter } from "../../src/exporter.js";
import { startSimulator } from "../../src/simulator/index.js";
const N = Number(process.argv[2] ?? 1000);
const t0 = Date.now();
const sim = await startSimulator({ clusters: N, rateLimitPerSecond: 0, seed: 1 });
const raw: Record<string, unknown> = {
  api: { base_url: sim.baseUrl, controller_url: sim.controllerUrlTemplate, api_key: "k", max_in_flight: 64 },
  clusters: sim.clusters.map((c, i) => ({ id: c.id, region: c.regionId, project_id: c.projectId,
    scopes: i < 100 ? [{ db_name: c.collections[0]!.dbName, collection_name: c.collections[0]!.collectionName }] : [] })),
  metrics: { granularity: "PT30S", interval: "PT1M", lookback: "PT5M" },
  import_jobs: { interval: "PT1M" },
  spark_jobs: { interval: "PT1M", jobs: sim.state.sparkJobRefs.map((j) => ({ project_id: j.projectId, job_id: j.jobId })) },
  inventory: { interval: "PT1M" },
  server: { listen: "127.0.0.1:0" },
};
const config = await buildConfig(raw);
const ex = new Exporter({ config, logger: pino({ level: "silent" }), version: "x", defaultMetrics: false, publishDelayMs: 10 });
await ex.start();
while (!ex.ready()) await new Promise((r) => setTimeout(r, 100));
const pub = await ex.store.publishNow();
const text = pub.text.toString();
const byFam = new Map<string, number>();
let scope = 0;
for (const line of text.split("\n")) {
  if (!line || line.startsWith("#")) continue;
  const f = line.split(/[{ ]/)[0]!;
  byFam.set(f, (byFam.get(f) ?? 0) + 1);
  if (line.includes('collection_name="') || /target="[^"]*\//.test(line)) scope++;
}
console.log({ N, series: pub.series, bytes: pub.text.length, gz: pub.textGzip.deflated.length, scope, ms: Date.now() - t0, buildMs: pub.buildMs });
console.log([...byFam].sort((a, b) => b[1] - a[1]));
console.log(sim.stats.byEndpoint);
await ex.stop(); await sim.close();
