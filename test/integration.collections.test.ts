import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadStateValue } from "../src/collectors/collections/mapping.js";
import { withDataPlaneTokens } from "./helpers/dataPlaneTokens.js";
import { type Harness, parseSamples, startHarness, TEST_API_KEY } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";
import { tempDir } from "./helpers/tempDir.js";

const INTERVAL_MS = 30_000;
let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Raw = Record<string, unknown>;

function baseConfig(raw: Raw, collections: Raw): void {
  raw.metrics = { granularity: "PT30S", interval: "PT30S", lookback: "PT5M" };
  raw.import_jobs = { enabled: false };
  raw.inventory = { enabled: false };
  raw.spark_jobs = { jobs: [] };
  raw.collections = { enabled: true, interval: "PT30S", row_count: true, ...collections };
}

async function start(
  collections: Raw,
  opts: { logs?: string[]; tokens?: Record<string, string>; edit?: (raw: Raw) => void } = {},
): Promise<{ harness: Harness; clock: ManualClock }> {
  const clock = new ManualClock(Math.floor(Date.now() / INTERVAL_MS) * INTERVAL_MS);
  const { startSimulator } = await import("../src/simulator/index.js");
  // The simulator keeps real time, as the client's limiter does: its rate limit must see the
  // requests as spaced as they really are (a manual step would squeeze them into one instant).
  const sim = await startSimulator({ clusters: 4, collectionsPerCluster: 6 });
  const harness = await startHarness({
    simulator: sim,
    clock,
    ...(opts.logs ? { logs: opts.logs } : {}),
    config: (raw) => {
      baseConfig(raw, collections);
      withDataPlaneTokens(sim, raw, opts.tokens);
      opts.edit?.(raw);
    },
  });
  const close = harness.close;
  h = {
    ...harness,
    close: async () => {
      await close();
      await sim.close();
    },
  };
  await cycle(h, clock, 0);
  return { harness: h, clock };
}

/** Lets every due task run (and task rebuilds settle): advance, then wait for polls in flight. */
async function cycle(harness: Harness, clock: ManualClock, ms: number): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await clock.advance(i === 0 ? ms : 0);
    await harness.settle();
  }
  await clock.advance(INTERVAL_MS);
  await harness.settle();
}

const key = (labels: Record<string, string>) =>
  `${labels.cluster_id}|${labels.db_name}/${labels.collection_name}`;

async function samples(harness: Harness) {
  return parseSamples(await harness.metrics());
}

describe("collections discovery against the simulator", () => {
  it("lists every collection minus the excluded ones, with exact counts, load states and rows", async () => {
    const { harness } = await start({ exclude: ["^analytics/users$"] });
    const sim = harness.sim;
    const all = await samples(harness);
    const info = new Set(all.filter((s) => s.name === "vdbcloud_collection_info").map((s) => key(s.labels)));
    const expected = new Set<string>();
    for (const c of sim.clusters) {
      const cols = sim.state.dataCollections(c.id);
      for (const col of cols) {
        if (`${col.dbName}/${col.collectionName}` !== "analytics/users")
          expected.add(`${c.id}|${col.dbName}/${col.collectionName}`);
      }
      // Counts per database are before include/exclude.
      for (const db of new Set(cols.map((x) => x.dbName))) {
        const count = all.find(
          (s) => s.name === "vdbcloud_collections" && s.labels.cluster_id === c.id && s.labels.db_name === db,
        );
        expect(count?.value, `${c.id} ${db}`).toBe(cols.filter((x) => x.dbName === db).length);
      }
      for (const col of cols) {
        const k = `${c.id}|${col.dbName}/${col.collectionName}`;
        if (!expected.has(k)) continue;
        const states = all.filter((s) => s.name === "vdbcloud_collection_load_state" && key(s.labels) === k);
        expect(
          states.filter((s) => s.value === 1).map((s) => s.labels.state),
          k,
        ).toEqual([loadStateValue(col.loadState)]);
        expect(states.map((s) => s.labels.state).sort()).toEqual([
          "loaded",
          "loading",
          "not_exist",
          "not_loaded",
        ]);
        const rows = all.find((s) => s.name === "vdbcloud_collection_rows" && key(s.labels) === k);
        expect(rows?.value, k).toBe(col.rows);
        const progress = all.find(
          (s) => s.name === "vdbcloud_collection_load_progress_ratio" && key(s.labels) === k,
        );
        if (col.loadState === "LoadStateLoading")
          expect(progress?.value).toBeCloseTo(col.loadProgress / 100, 9);
        else expect(progress).toBeUndefined();
      }
    }
    expect(info).toEqual(expected);
    // Every load state of the simulator is represented.
    const current = all.filter((s) => s.name === "vdbcloud_collection_load_state" && s.value === 1);
    expect(new Set(current.map((s) => s.labels.state))).toEqual(new Set(["loaded", "loading", "not_loaded"]));
    // Every cluster's collections collector is up: the user-credential cluster (which refuses
    // the API key) used its token, the others (which refuse user credentials) the API key, and
    // the V1-only cluster was listed through the fallback.
    const up = all.filter((s) => s.name === "vdbcloud_collector_up" && s.labels.collector === "collections");
    expect(up.map((s) => s.labels.target).sort()).toEqual(sim.clusters.map((c) => c.id).sort());
    expect(up.every((s) => s.value === 1)).toBe(true);
    expect(sim.clusters.some((c) => sim.state.dataPlaneCredential(c.id) !== undefined)).toBe(true);
    expect(sim.stats.byEndpoint["GET /v1/vector/collections"]).toBeGreaterThan(0);
    expect(sim.stats.mutatingCalls).toEqual([]);
    expect(sim.stats.rateLimitedByEndpoint).toEqual({});
    expect(sim.stats.rateLimited).toBe(0);
  });

  it("makes each polled collection a metrics scope with the configured scopes' families, without duplicates", async () => {
    const PLAN_DEPENDENT = new Set([
      "vdbcloud_slow_queries_per_second",
      "vdbcloud_flushes_per_second",
      "vdbcloud_loaded_entities",
    ]);
    const { harness } = await start({ exclude: ["^analytics/users$"] });
    const sim = harness.sim;
    const targets = harness.exporter.scheduler
      .status()
      .filter((t) => t.collector === "cluster_metrics")
      .map((t) => t.key);
    expect(new Set(targets).size).toBe(targets.length);
    const first = sim.clusters[0]?.id as string;
    for (const c of sim.clusters) {
      for (const col of sim.state.dataCollections(c.id)) {
        const target = `cluster_metrics/${c.id}/${col.dbName}/${col.collectionName}`;
        if (`${col.dbName}/${col.collectionName}` === "analytics/users")
          expect(targets).not.toContain(target);
        else expect(targets).toContain(target);
      }
    }
    const all = await samples(harness);
    const familiesOf = (clusterId: string, collection: string) =>
      new Set(
        all
          .filter((s) => s.labels.cluster_id === clusterId && s.labels.collection_name === collection)
          .filter(
            (s) =>
              !s.name.startsWith("vdbcloud_collection") &&
              s.name !== "vdbcloud_metrics_newest_bucket_timestamp_seconds" &&
              // Asked only where the cluster's plan offers them (upstream/catalog.ts), and the two
              // clusters' plans may differ.
              !PLAN_DEPENDENT.has(s.name),
          )
          .map((s) => s.name),
      );
    // "docs" of the first cluster is a configured scope (demo config); "docs" elsewhere is discovered.
    const configured = familiesOf(first, "docs");
    expect(configured.size).toBeGreaterThan(3);
    expect(familiesOf(sim.clusters[1]?.id as string, "docs")).toEqual(configured);
    // No series of a scope twice (a duplicate scope would write the same series twice).
    const keys = all.map((s) => `${s.name}${JSON.stringify(s.labels)}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(sim.stats.rateLimited).toBe(0);
  });

  it("forgets a vanished collection and picks up a new one, each within two intervals", async () => {
    const { harness, clock } = await start({});
    const sim = harness.sim;
    // A RUNNING cluster (the last one is stopped: no metrics).
    const id = sim.clusters[1]?.id as string;
    const faq = sim.state.dataCollections(id).find((c) => c.collectionName === "faq");
    expect(faq).toBeDefined();
    const of = async (collection: string) =>
      (await samples(harness)).filter(
        (s) => s.labels.cluster_id === id && s.labels.collection_name === collection,
      );
    const scopeTarget = `cluster_metrics/${id}/default/faq`;
    expect((await of("faq")).some((s) => s.name === "vdbcloud_entities")).toBe(true);

    sim.state.dropCollection(id, "default", "faq");
    await cycle(harness, clock, INTERVAL_MS);
    expect(await of("faq")).toEqual([]);
    expect(harness.exporter.scheduler.status().map((t) => t.key)).not.toContain(scopeTarget);

    sim.state.addCollection(id, { dbName: "default", collectionName: "faq", rows: 77 });
    await cycle(harness, clock, INTERVAL_MS);
    const back = await of("faq");
    expect(back.find((s) => s.name === "vdbcloud_collection_rows")?.value).toBe(77);
    expect(back.some((s) => s.name === "vdbcloud_entities")).toBe(true);
    expect(harness.exporter.scheduler.status().map((t) => t.key)).toContain(scopeTarget);
  });

  it("honours max_per_cluster with a stable sorted subset, a gauge and one log line", async () => {
    const logs: string[] = [];
    const { harness, clock } = await start({ max_per_cluster: 2 }, { logs });
    await cycle(harness, clock, INTERVAL_MS);
    const sim = harness.sim;
    const all = await samples(harness);
    for (const c of sim.clusters) {
      const paths = sim.state
        .dataCollections(c.id)
        .map((x) => `${x.dbName}/${x.collectionName}`)
        .sort();
      const polled = all
        .filter((s) => s.name === "vdbcloud_collection_rows" && s.labels.cluster_id === c.id)
        .map((s) => `${s.labels.db_name}/${s.labels.collection_name}`)
        .sort();
      expect(polled).toEqual(paths.slice(0, 2));
      const notPolled = all.find(
        (s) => s.name === "vdbcloud_collections_not_polled" && s.labels.cluster_id === c.id,
      );
      expect(notPolled?.value).toBe(paths.length - 2);
      expect(
        all.filter((s) => s.name === "vdbcloud_collection_info" && s.labels.cluster_id === c.id),
      ).toHaveLength(paths.length);
      const lines = logs.filter((l) => l.includes("max_per_cluster") && l.includes(c.id));
      expect(lines, c.id).toHaveLength(1);
    }
  });

  it("a refused credential or an unreachable data plane sets only that cluster's collections collector down", async () => {
    const logs: string[] = [];
    const wrong = "db_admin:not-the-password-42";
    let refused = "";
    let unreachable = "";
    const { harness } = await start(
      {},
      {
        logs,
        edit: (raw) => {
          const clusters = raw.clusters as Raw[];
          refused = clusters[1]?.id as string;
          unreachable = clusters[3]?.id as string;
          clusters[3] = { ...clusters[3], data_plane: { endpoint: "http://127.0.0.1:1" } };
          const dir = tempDir("vdbcloud-wrong-");
          writeFileSync(join(dir, "t"), wrong);
          clusters[1] = { ...clusters[1], data_plane: { token_file: join(dir, "t") } };
        },
      },
    );
    const text = await harness.metrics();
    const up = parseSamples(text).filter((s) => s.name === "vdbcloud_collector_up");
    for (const s of up) {
      const down =
        s.labels.collector === "collections" && [refused, unreachable].includes(s.labels.target as string);
      expect(s.value, `${s.labels.collector} ${s.labels.target}`).toBe(down ? 0 : 1);
    }
    const joined = logs.join("\n");
    expect(joined).toContain("auth_error");
    for (const secret of [wrong, "not-the-password-42", TEST_API_KEY]) {
      expect(joined).not.toContain(secret);
      expect(text).not.toContain(secret);
    }
  });
});
