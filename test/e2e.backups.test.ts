/**
 * VdbcloudBackupOverdue in a real Prometheus: the exporter polls the simulator's backups and
 * policies, Prometheus scrapes it every second and evaluates the project's alerting rules, with
 * the alert's `for` set to 0s (thresholds.yml rendered as `npm run rules` would) so the test takes
 * seconds. The simulator's first dedicated cluster took no automatic backup for 3 days under a
 * daily policy; every other cluster is within its own policy's gap. Only the first must fire.
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { ALERTS_FILE, renderAlerts, THRESHOLDS_FILE } from "../scripts/rules.js";
import { type Harness, startHarness } from "./helpers/harness.js";
import { freePort, spawnLogged, stop, waitFor } from "./helpers/processes.js";
import { sectionsOff } from "./helpers/sectionsOff.js";
import { tempDir } from "./helpers/tempDir.js";
import { toolOrSkip, toolPath } from "./helpers/tools.js";

const ROOT = join(import.meta.dirname, "..");
const prometheusTool = toolOrSkip("prometheus");

interface VectorSample {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

describe("VdbcloudBackupOverdue in a real Prometheus", () => {
  let h: Harness | undefined;
  let prometheus: ChildProcess | undefined;
  let tmp = "";
  let promUrl = "";
  const logs: string[] = [];

  async function query(q: string): Promise<VectorSample[]> {
    const url = new URL("/api/v1/query", promUrl);
    url.searchParams.set("query", q);
    const body = (await (await fetch(url)).json()) as { data: { result: VectorSample[] } };
    return body.data.result;
  }

  beforeAll(async () => {
    if (prometheusTool.skip) return;
    h = await startHarness({
      sim: { clusters: 6 },
      config: (raw) => {
        raw.metrics = { enabled: false };
        Object.assign(raw, sectionsOff("backups"));
        raw.spark_jobs = { jobs: [] };
        raw.backups = { interval: "PT30S", policy_interval: "PT30S" };
      },
    });
    await h.exporter.scheduler.firstCycle();
    tmp = tempDir("vdbcloud-e2e-backups-");
    const thresholds = readFileSync(join(ROOT, THRESHOLDS_FILE), "utf8").replace(
      /^(\s*VdbcloudBackupOverdue: \{ threshold: \d+, for: )\w+( \})$/m,
      (_all, head: string, tail: string) => `${head}0s${tail}`,
    );
    expect(thresholds).toMatch(/VdbcloudBackupOverdue: \{ threshold: 21600, for: 0s \}/);
    const rules = join(tmp, "alerts.yml");
    writeFileSync(rules, renderAlerts(readFileSync(join(ROOT, ALERTS_FILE), "utf8"), thresholds));
    const promPort = await freePort();
    promUrl = `http://127.0.0.1:${promPort}`;
    const config = {
      global: { scrape_interval: "1s", evaluation_interval: "1s", scrape_timeout: "1s" },
      rule_files: [rules],
      scrape_configs: [{ job_name: "vdbcloud", static_configs: [{ targets: [new URL(h.url).host] }] }],
    };
    writeFileSync(join(tmp, "prometheus.yml"), stringify(config));
    mkdirSync(join(tmp, "data"));
    prometheus = spawnLogged(
      ROOT,
      toolPath(prometheusTool),
      [
        `--config.file=${join(tmp, "prometheus.yml")}`,
        `--storage.tsdb.path=${join(tmp, "data")}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
        "--log.level=warn",
      ],
      logs,
    );
    await waitFor("Prometheus to be ready", 20_000, async () => {
      const res = await fetch(`${promUrl}/-/ready`).catch(() => undefined);
      return res?.status === 200 ? true : undefined;
    });
  }, 60_000);

  afterAll(async () => {
    await stop(prometheus);
    await h?.close();
    if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
  });

  it.skipIf(prometheusTool.skip)(
    "fires for the overdue cluster only, each cluster judged by its own policy",
    async () => {
      const sim = h?.sim;
      if (!sim) throw new Error("no harness");
      const overdue = sim.dataProtection.dedicated[0]?.id as string;
      const firing = await waitFor("the overdue alert to fire", 30_000, async () => {
        const r = await query('ALERTS{alertname="VdbcloudBackupOverdue", alertstate="firing"}');
        return r.length > 0 ? r : undefined;
      });
      // Every enabled policy's cluster was judged: its gap and its newest backup are there.
      const gaps = await query("vdbcloud_backup_policy_max_gap_seconds");
      const ages = await query(
        'time() - vdbcloud_backup_last_success_timestamp_seconds{creation_method="auto"}',
      );
      expect(gaps.length).toBeGreaterThanOrEqual(3);
      expect(new Set(ages.map((s) => s.metric.cluster_id)).size).toBeGreaterThanOrEqual(3);
      expect(firing.map((s) => s.metric.cluster_id)).toEqual([overdue]);
      expect(firing[0]?.metric).toMatchObject({ severity: "warning", job: "vdbcloud" });
    },
    40_000,
  );
});
