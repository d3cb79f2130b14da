/**
 * End to end, the error-budget rules as a user renders them: `vdbcloud-exporter slo-rules` on a
 * config whose windows are scaled down to seconds and minutes, loaded by a real Prometheus that
 * scrapes the demo (`--demo`: the canary probes two collections every 10 s, the first cluster's
 * degraded, one probe in five failing). An outage injected into the healthy target's data plane
 * (the simulator's /_sim/canary) is a fast burn: the page fires, and the ticket, whose windows
 * are longer, has not fired when the page does, nor after the outage ends. The degraded target
 * burns slowly, at twice its budget: once Prometheus holds a minute of its probes, it
 * never pages.
 *
 * The scaled windows keep the workbook's shape: objective 90% (a budget of 10%, so the canary's
 * few probes per window can tell), page at 9x over 80s and 20s, ticket at 7x over 400s and 200s
 * (eight probes, two, forty and twenty). The page needs every probe of its last 80 s failed (the
 * degraded target fails three in a row now and then: a window that can hold only three probes
 * would page on them); the ticket needs 70% of the probes since Prometheus started, which a
 * minute of healthy probes first keeps out of reach.
 *
 * Needs `npm run build` first and the `prometheus` binary.
 */
import type { ChildProcess } from "node:child_process";
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { exporterReady, freePort, spawnDemo, spawnPrometheus, stop, waitFor } from "./helpers/processes.js";
import { tempDir } from "./helpers/tempDir.js";
import { toolOrSkip, toolPath } from "./helpers/tools.js";

const ROOT = join(import.meta.dirname, "..");
const MAIN = join(ROOT, "dist", "main.js");
const ALERT = "VdbcloudCanaryAvailabilityBudgetBurn";

/** The slo section the rules are rendered from: the workbook's shape, windows of the demo's pace. */
const SLO_CONFIG = `slo:
  period: PT30M
  canary: { availability: 0.9 }
  windows:
    page: [{ burn_rate: 9, long: PT80S, short: PT20S }]
    ticket: [{ burn_rate: 7, long: PT400S, short: PT200S }]
`;

/** Healthy probes Prometheus must have seen before the outage: they keep the ticket quiet. */
const WARM_UP_PROBES = 6;

const prometheusTool = toolOrSkip("prometheus");

interface VectorSample {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

describe("error-budget alerts on the demo's canary, in a real Prometheus", () => {
  const children: ChildProcess[] = [];
  const logs: string[] = [];
  let tmp = "";

  afterAll(async () => {
    for (const child of children.reverse()) await stop(child);
    if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
  });

  it.skipIf(prometheusTool.skip)(
    "pages on an injected outage without a ticket, and never pages for the slow burn",
    async () => {
      if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
      tmp = tempDir("vdbcloud-e2e-slo-");

      // The rules, rendered by the command users run.
      writeFileSync(join(tmp, "slo.yaml"), SLO_CONFIG);
      const rendered = spawnSync(process.execPath, [MAIN, "slo-rules", "--config", join(tmp, "slo.yaml")], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "" },
      });
      expect(rendered.stderr).toBe("");
      expect(rendered.stdout).toContain("slo:canary_availability:error_ratio_rate20s > 0.9");
      writeFileSync(join(tmp, "slo.yml"), rendered.stdout);

      const [exporterPort, simPort, promPort] = [await freePort(), await freePort(), await freePort()];
      const sim = `http://127.0.0.1:${simPort}`;
      const prom = `http://127.0.0.1:${promPort}`;
      children.push(spawnDemo(ROOT, exporterPort, logs, ["--demo-simulator-listen", `127.0.0.1:${simPort}`]));
      children.push(
        spawnPrometheus(
          ROOT,
          toolPath(prometheusTool),
          {
            dir: tmp,
            port: promPort,
            config: stringify({
              global: { scrape_interval: "1s", evaluation_interval: "1s", scrape_timeout: "1s" },
              rule_files: [join(tmp, "slo.yml")],
              scrape_configs: [
                { job_name: "vdbcloud", static_configs: [{ targets: [`127.0.0.1:${exporterPort}`] }] },
              ],
            }),
          },
          logs,
        ),
      );
      await exporterReady(exporterPort, 30_000);

      const query = async (expr: string): Promise<VectorSample[]> => {
        const url = new URL("/api/v1/query", prom);
        url.searchParams.set("query", expr);
        const body = (await (await fetch(url)).json()) as { data?: { result?: VectorSample[] } };
        return body.data?.result ?? [];
      };
      const canary = async (profile: Record<string, unknown>, cluster: string): Promise<void> => {
        const res = await fetch(`${sim}/_sim/canary`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ cluster, profile }),
        });
        expect(res.status, await res.text()).toBe(200);
      };
      const alerts = (selector: string) =>
        query(`ALERTS{alertname="${ALERT}", alertstate="firing", ${selector}}`);

      // The degraded target is the first cluster's (the demo's canary part); the other is healthy.
      const world = (await (await fetch(`${sim}/_sim/world`)).json()) as { clusters: Array<{ id: string }> };
      const degraded = world.clusters[0]?.id ?? "";
      const first = await waitFor("both canary targets in Prometheus", 60_000, async () => {
        const up = await query(`sum by (cluster_id) (vdbcloud_canary_requests_total)`);
        return up.length === 2 ? up : undefined;
      });
      const healthy = first.find((s) => s.metric.cluster_id !== degraded);
      const target = healthy?.metric.cluster_id ?? "";
      expect(target).not.toBe("");
      const start = Number(healthy?.value[1]);
      await waitFor(`${WARM_UP_PROBES} healthy probes`, 4 * 60_000, async () => {
        const [now] = await query(`sum(vdbcloud_canary_requests_total{cluster_id="${target}"})`);
        return Number(now?.value[1]) >= start + WARM_UP_PROBES ? true : undefined;
      });
      expect(await alerts(`cluster_id="${target}"`)).toEqual([]);
      // From here every window is full: before, a window of one or two probes, one of them failed,
      // is a ratio of 50% or 100% (as after any start of Prometheus or of a canary target).
      const warmedAt = Date.now();

      // The outage: every search of the healthy target's data plane fails.
      await canary({ errorRate: 1 }, target);
      await waitFor("the page on the outage", 3 * 60_000, async () =>
        (await alerts(`cluster_id="${target}", severity="critical"`)).length > 0 ? true : undefined,
      );
      expect(await alerts(`cluster_id="${target}", severity="warning"`)).toEqual([]);

      // The outage ends; the page resolves and the ticket never fired.
      await canary({}, target);
      await waitFor("the page to resolve", 2 * 60_000, async () =>
        (await alerts(`cluster_id="${target}", severity="critical"`)).length === 0 ? true : undefined,
      );
      await sleep(10_000);
      const ever = (selector: string, since = "30m") =>
        query(`max_over_time(ALERTS{alertname="${ALERT}", alertstate="firing", ${selector}}[${since}])`);
      expect(await ever(`cluster_id="${target}", severity="warning"`)).toEqual([]);
      const sinceWarm = `${Math.ceil((Date.now() - warmedAt) / 1000)}s`;
      expect(await ever(`cluster_id="${degraded}", severity="critical"`, sinceWarm)).toEqual([]);
      // The degraded target's failures were seen: its slow burn is real, just under the page.
      const [burn] = await query(`slo:canary_availability:burn_rate{cluster_id="${degraded}", window="30m"}`);
      expect(Number(burn?.value[1])).toBeGreaterThan(0);

      // Every rule evaluated cleanly throughout.
      const url = new URL("/api/v1/rules", prom);
      const rules = (await (await fetch(url)).json()) as {
        data: { groups: Array<{ rules: Array<{ name: string; health: string; lastError?: string }> }> };
      };
      const unhealthy = rules.data.groups
        .flatMap((g) => g.rules)
        .filter((r) => r.health !== "ok" || (r.lastError ?? "") !== "");
      expect(unhealthy).toEqual([]);
    },
    10 * 60_000,
  );
});
