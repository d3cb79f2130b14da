/**
 * Alert delivery end to end: the built exporter in demo mode, a real Prometheus loading the
 * shipped rules (with a one-second `for` set through thresholds.yml, the documented way), a real
 * Alertmanager running config/alertmanager/alertmanager.yml (only its receivers' URLs and
 * group waits changed), and a webhook receiver in this test. The demo's hot cluster must arrive
 * at the ticket receiver with severity, cluster_id, summary, description and runbook_url. Also:
 * amtool accepts the example and routes each severity to its receiver, and the exporter-down
 * alert inhibits that exporter's other alerts.
 *
 * Needs `npm run build` first (`npm test` does it), `prometheus`, `prometheus-alertmanager` and
 * `amtool` (Debian's prometheus and prometheus-alertmanager packages).
 */
import { type ChildProcess, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { ALERTS_FILE, RECORDING_FILE, renderAlerts, THRESHOLDS_FILE } from "../scripts/rules.js";
import { freePort, spawnDemo, spawnLogged, stop, waitFor } from "./helpers/processes.js";
import { tempDir } from "./helpers/tempDir.js";
import { toolOrSkip, toolPath } from "./helpers/tools.js";

const ROOT = join(import.meta.dirname, "..");
const MAIN = join(ROOT, "dist", "main.js");
const AM_CONFIG = join(ROOT, "config", "alertmanager", "alertmanager.yml");

const amtool = toolOrSkip("amtool");
const alertmanagerTool = toolOrSkip("prometheus-alertmanager");
const prometheusTool = toolOrSkip("prometheus");
const skipDelivery = alertmanagerTool.skip || prometheusTool.skip;

function runAmtool(...args: string[]): { status: number | null; output: string } {
  const r = spawnSync(toolPath(amtool), args, { cwd: ROOT, encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe("config/alertmanager/alertmanager.yml (amtool)", () => {
  it.skipIf(amtool.skip)("amtool check-config accepts it", () => {
    const { status, output } = runAmtool("check-config", AM_CONFIG);
    expect(output).toContain("SUCCESS");
    expect(output).toContain("2 inhibit rules");
    expect(status, output).toBe(0);
  });

  it.skipIf(amtool.skip).each([
    { labels: ["alertname=VdbcloudClusterAbnormal", "severity=critical"], receiver: "vdbcloud-pager" },
    { labels: ["alertname=VdbcloudExporterDown", "severity=critical"], receiver: "vdbcloud-pager" },
    { labels: ["alertname=VdbcloudCuComputationHigh", "severity=warning"], receiver: "vdbcloud-ticket" },
    { labels: ["alertname=VdbcloudSamplesDropped", "severity=info"], receiver: "vdbcloud-digest" },
    {
      labels: ["alertname=VdbcloudCanaryAvailabilityBudgetBurn", "severity=critical"],
      receiver: "vdbcloud-pager",
    },
    {
      labels: ["alertname=VdbcloudServiceAvailabilityBudgetBurn", "severity=warning"],
      receiver: "vdbcloud-ticket",
    },
    { labels: ["alertname=SomethingElse", "severity=critical"], receiver: "default" },
  ])("routes $labels to $receiver", ({ labels, receiver }) => {
    const { status, output } = runAmtool("config", "routes", "test", `--config.file=${AM_CONFIG}`, ...labels);
    // The last line is the receiver; amtool warns about --alertmanager.url on stderr.
    expect(output.split("\n").map((l) => l.trim())).toContain(receiver);
    expect(status, output).toBe(0);
  });
});

interface WebhookAlert {
  readonly status: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
}
interface Delivery {
  readonly receiver: string;
  readonly alerts: readonly WebhookAlert[];
}

/** The shipped Alertmanager config with every webhook pointed at `hook` and short waits. */
function testAlertmanagerConfig(hook: string): string {
  type Route = { group_wait?: string; group_interval?: string; routes?: Route[] };
  const config = parse(readFileSync(AM_CONFIG, "utf8")) as {
    route: Route;
    receivers: Array<{ name: string; webhook_configs?: Array<{ url: string }> }>;
  };
  for (const r of config.receivers) for (const w of r.webhook_configs ?? []) w.url = `${hook}/${r.name}`;
  const shorten = (route: Route) => {
    route.group_wait = "1s";
    route.group_interval = "1s";
    for (const child of route.routes ?? []) shorten(child);
  };
  shorten(config.route);
  return stringify(config);
}

/** The shipped alerts with thresholds.yml's `for` of VdbcloudCuComputationHigh set to 1s. */
function testAlerts(): string {
  const thresholds = parse(readFileSync(join(ROOT, THRESHOLDS_FILE), "utf8")) as {
    alerts: Record<string, { for: string }>;
  };
  const cu = thresholds.alerts.VdbcloudCuComputationHigh;
  if (!cu) throw new Error("thresholds.yml no longer lists VdbcloudCuComputationHigh");
  cu.for = "1s";
  return renderAlerts(readFileSync(join(ROOT, ALERTS_FILE), "utf8"), stringify(thresholds));
}

describe("an alert from the shipped rules through a real Alertmanager to a webhook", () => {
  const deliveries: Delivery[] = [];
  const logs: string[] = [];
  let webhook: Server | undefined;
  let exporter: ChildProcess | undefined;
  let prometheus: ChildProcess | undefined;
  let alertmanager: ChildProcess | undefined;
  let amUrl = "";
  let tmp = "";

  beforeAll(async () => {
    if (skipDelivery) return;
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
    tmp = tempDir("vdbcloud-am-");
    webhook = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString("utf8");
      });
      req.on("end", () => {
        deliveries.push({ ...(JSON.parse(body) as Delivery), receiver: (req.url ?? "").slice(1) });
        res.end();
      });
    });
    await new Promise<void>((r) => webhook?.listen(0, "127.0.0.1", r));
    const hook = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}`;

    const [exporterPort, promPort, amPort] = [await freePort(), await freePort(), await freePort()];
    amUrl = `http://127.0.0.1:${amPort}`;
    exporter = spawnDemo(ROOT, exporterPort, logs);

    writeFileSync(join(tmp, "alertmanager.yml"), testAlertmanagerConfig(hook));
    mkdirSync(join(tmp, "am"));
    alertmanager = spawnLogged(
      ROOT,
      toolPath(alertmanagerTool),
      [
        `--config.file=${join(tmp, "alertmanager.yml")}`,
        `--storage.path=${join(tmp, "am")}`,
        `--web.listen-address=127.0.0.1:${amPort}`,
        "--cluster.listen-address=", // no gossip: a single instance
        "--log.level=warn",
      ],
      logs,
    );

    writeFileSync(join(tmp, "alerts.yml"), testAlerts());
    const promConfig = {
      global: { scrape_interval: "1s", evaluation_interval: "1s", scrape_timeout: "1s" },
      rule_files: [join(tmp, "alerts.yml"), join(ROOT, RECORDING_FILE)],
      alerting: { alertmanagers: [{ static_configs: [{ targets: [`127.0.0.1:${amPort}`] }] }] },
      scrape_configs: [
        { job_name: "vdbcloud", static_configs: [{ targets: [`127.0.0.1:${exporterPort}`] }] },
      ],
    };
    writeFileSync(join(tmp, "prometheus.yml"), stringify(promConfig));
    mkdirSync(join(tmp, "prom"));
    prometheus = spawnLogged(
      ROOT,
      toolPath(prometheusTool),
      [
        `--config.file=${join(tmp, "prometheus.yml")}`,
        `--storage.tsdb.path=${join(tmp, "prom")}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
        "--log.level=warn",
      ],
      logs,
    );
    await waitFor("Alertmanager to be ready", 20_000, async () =>
      (await fetch(`${amUrl}/-/ready`)).status === 200 ? true : undefined,
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.all([stop(prometheus), stop(alertmanager), stop(exporter)]);
    await new Promise((r) => (webhook ? webhook.close(r) : r(undefined)));
    if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
  });

  it.skipIf(skipDelivery)(
    "the demo's hot cluster reaches the ticket receiver with every label and annotation a responder needs",
    async () => {
      // The wait ends at the first delivery; its bound is for a machine busy with other test files.
      const alert = await waitFor("VdbcloudCuComputationHigh at the webhook", 90_000, async () =>
        deliveries
          .flatMap((d) => d.alerts.map((a) => ({ receiver: d.receiver, alert: a })))
          .find((d) => d.alert.labels.alertname === "VdbcloudCuComputationHigh"),
      ).catch((error: unknown) => {
        throw new Error(`no alert delivered; logs:\n${logs.join("").slice(-3000)}`, { cause: error });
      });
      const base = (parse(readFileSync(join(ROOT, THRESHOLDS_FILE), "utf8")) as { runbook_base_url: string })
        .runbook_base_url;
      expect(alert.receiver).toBe("vdbcloud-ticket");
      expect(alert.alert.status).toBe("firing");
      expect(alert.alert.labels).toMatchObject({ severity: "warning", job: "vdbcloud" });
      const cluster = alert.alert.labels.cluster_id ?? "";
      expect(cluster).toMatch(/^in\d+-/);
      expect(alert.alert.annotations.summary).toMatch(
        new RegExp(`^Cluster ${cluster} CU computation at \\d+(\\.\\d+)?%$`),
      );
      expect(alert.alert.annotations.description).toContain(
        `Cluster ${cluster} has used more than 70% of its compute`,
      );
      expect(alert.alert.annotations.runbook_url).toBe(`${base}#vdbcloudcucomputationhigh`);
    },
    120_000,
  );

  it.skipIf(skipDelivery)(
    "VdbcloudExporterDown inhibits the other alerts of the same exporter only",
    async () => {
      const alert = (alertname: string, severity: string, instance: string) => ({
        labels: { alertname, severity, instance, job: "vdbcloud", collector: "inventory", target: "global" },
        annotations: { summary: alertname },
      });
      const posted = await fetch(`${amUrl}/api/v2/alerts`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify([
          alert("VdbcloudExporterDown", "critical", "down:9474"),
          alert("VdbcloudCollectorTargetFailing", "warning", "down:9474"),
          alert("VdbcloudCollectorTargetFailing", "warning", "up:9474"),
        ]),
      });
      expect(posted.status).toBe(200);
      type AmAlert = { labels: Record<string, string>; status: { state: string; inhibitedBy: string[] } };
      const states = await waitFor("the posted alerts in Alertmanager", 10_000, async () => {
        const all = (await (await fetch(`${amUrl}/api/v2/alerts`)).json()) as AmAlert[];
        const mine = all.filter((a) => a.labels.instance === "down:9474" || a.labels.instance === "up:9474");
        return mine.length === 3 ? mine : undefined;
      });
      const state = (name: string, instance: string) =>
        states.find((a) => a.labels.alertname === name && a.labels.instance === instance)?.status;
      expect(state("VdbcloudCollectorTargetFailing", "down:9474")?.state).toBe("suppressed");
      expect(state("VdbcloudCollectorTargetFailing", "down:9474")?.inhibitedBy.length).toBe(1);
      expect(state("VdbcloudCollectorTargetFailing", "up:9474")?.state).toBe("active");
      expect(state("VdbcloudExporterDown", "down:9474")?.state).toBe("active");
      // And the webhooks: the pager hears of the exporter, the ticket only of the other exporter.
      await waitFor("the exporter-down page", 10_000, async () =>
        deliveries.some(
          (d) => d.receiver === "vdbcloud-pager" && d.alerts.some((a) => a.labels.instance === "down:9474"),
        )
          ? true
          : undefined,
      );
      await waitFor("the other exporter's ticket", 10_000, async () =>
        deliveries.some(
          (d) => d.receiver === "vdbcloud-ticket" && d.alerts.some((a) => a.labels.instance === "up:9474"),
        )
          ? true
          : undefined,
      );
      const ticketed = deliveries.filter((d) => d.receiver === "vdbcloud-ticket").flatMap((d) => d.alerts);
      expect(ticketed.filter((a) => a.labels.instance === "down:9474")).toEqual([]);
    },
    40_000,
  );
});
