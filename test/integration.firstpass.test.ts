/**
 * Time to ready at scale, as a user meets it: 600 clusters, every default collector on (default
 * intervals), a third of the clusters importing (five unfinished imports each), against the
 * simulator's rate limit of 20 requests per second per endpoint and key, counted over a sliding
 * second. Every target of every collector must have succeeded once within 1.25 times the
 * budget-bound minimum (the busiest endpoint's calls divided by 20 per second, as the simulator
 * counted them, each distinct request once) plus 5 s, without one rate-limit answer, while /healthz and /metrics answer
 * within a second throughout. One test: about 35 s of polling (the minimum is about 30 s).
 */
import { get } from "node:http";
import { afterEach, expect, it } from "vitest";
import { type Harness, parseSamples, startHarness } from "./helpers/harness.js";
import { userConfig } from "./helpers/simConfig.js";

const CLUSTERS = 600;
const RATE = 20;
/** The goal: first pass within 1.25 x the budget-bound minimum + 5 s. */
const FACTOR = 1.25;
const SLACK_MS = 5_000;
const PROBE_LIMIT_MS = 1_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The last success of every scheduled target, in schedule order (null: none yet). */
function lastSuccesses(harness: Harness): (number | null)[] {
  const byTarget = new Map(
    harness.exporter.health.list().map((r) => [`${r.collector}/${r.target}`, r.lastSuccessMs]),
  );
  return harness.exporter
    .scheduledTasks()
    .map((t) => byTarget.get(`${t.id.collector}/${t.id.target}`) ?? null);
}

/**
 * Time to the last byte of GET `url`, in ms; rejects on a non-200 answer. A bare node:http read
 * that drops the bytes: the client shares the exporter's process, and fetch's streams would
 * spend more of it than the answer does.
 */
function timed(url: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      res.on("data", () => {});
      res.on("end", () =>
        res.statusCode === 200
          ? resolve(performance.now() - t0)
          : reject(new Error(`${url}: HTTP ${res.statusCode}`)),
      );
      res.on("error", reject);
    }).on("error", reject);
  });
}

it("600 clusters, every default collector, a third importing: every target polled once within 1.25x the budget-bound minimum + 5 s, no rate-limit answer, probes answered within 1 s", async () => {
  h = await startHarness({
    sim: {
      clusters: CLUSTERS,
      rateLimitPerSecond: RATE,
      rateLimitMode: "sliding",
      unfinishedImports: { every: 3, perCluster: 5 },
    },
    // A user's config: the clusters and the key; every collector and interval at its default.
    config: userConfig,
  });
  const harness = h;
  const startedAt = harness.exporter.landing().startedAtMs;
  const probes = { healthz: [] as number[], metrics: [] as number[] };
  let doneAt: number | undefined;
  let calls: Record<string, number> = {};
  let lastMetricsProbe = 0;
  const deadline = startedAt + 85_000;
  while (doneAt === undefined && Date.now() < deadline) {
    probes.healthz.push(await timed(`${harness.url}/healthz`));
    if (Date.now() - lastMetricsProbe >= 1_000) {
      lastMetricsProbe = Date.now();
      probes.metrics.push(await timed(`${harness.url}/metrics`));
    }
    const times = lastSuccesses(harness);
    if (times.every((t) => t !== null)) {
      doneAt = Math.max(...(times as number[]));
      calls = { ...harness.sim.stats.byEndpoint };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const targets = harness.exporter.scheduledTasks().map((t) => `${t.id.collector}/${t.id.target}`);
  const times = lastSuccesses(harness);
  const pending = targets.filter((_, i) => times[i] === null);
  // Why each never succeeded (its last error, or never attempted), for whoever reads a failure.
  const why = harness.exporter.health
    .list()
    .filter((r) => pending.includes(`${r.collector}/${r.target}`))
    .map(
      (r) =>
        `${r.collector}/${r.target}: ${r.lastError?.message ?? (r.lastAttemptMs === null ? "never attempted" : "no error")}`,
    );
  expect(
    pending.slice(0, 10),
    `${pending.length} targets never succeeded: ${why.slice(0, 10).join("; ")}`,
  ).toEqual([]);
  expect(doneAt).toBeDefined();

  // The budget-bound minimum, from the simulator's own count of the calls the first pass made per
  // endpoint (one key; distinct requests: re-polls of targets whose slot came meanwhile, and
  // retries, left out).
  const [busiest, most] = Object.entries(calls).sort((a, b) => b[1] - a[1])[0] ?? ["none", 0];
  const minimumMs = (most / RATE) * 1_000;
  const tookMs = (doneAt as number) - startedAt;
  const summary =
    `first pass ${(tookMs / 1_000).toFixed(1)} s against a budget-bound minimum of ${(minimumMs / 1_000).toFixed(1)} s ` +
    `(${busiest}: ${most} distinct calls at ${RATE}/s) = ${(tookMs / minimumMs).toFixed(2)}x; ${targets.length} targets; ` +
    `rate-limit answers ${harness.sim.stats.rateLimited} ${JSON.stringify(harness.sim.stats.rateLimitedByEndpoint)}; slowest /healthz ${Math.max(...probes.healthz).toFixed(0)} ms ` +
    `(${probes.healthz.length} probes), slowest /metrics ${Math.max(...probes.metrics).toFixed(0)} ms (${probes.metrics.length})`;
  console.info(summary);

  expect(tookMs, summary).toBeLessThanOrEqual(FACTOR * minimumMs + SLACK_MS);
  expect(harness.sim.stats.rateLimited, summary).toBe(0);
  expect(Math.max(...probes.healthz), summary).toBeLessThan(PROBE_LIMIT_MS);
  expect(Math.max(...probes.metrics), summary).toBeLessThan(PROBE_LIMIT_MS);
  // A last success for every collector_up series: each target is on /metrics as polled once.
  const samples = parseSamples(await harness.metrics());
  const up = samples.filter((s) => s.name === "vdbcloud_collector_up");
  const succeeded = new Set(
    samples
      .filter((s) => s.name === "vdbcloud_collector_last_success_timestamp_seconds" && s.value > 0)
      .map((s) => `${s.labels.collector}/${s.labels.target}`),
  );
  expect(up.length).toBeGreaterThanOrEqual(CLUSTERS * 4);
  expect(up.filter((s) => !succeeded.has(`${s.labels.collector}/${s.labels.target}`))).toEqual([]);
}, 100_000);
