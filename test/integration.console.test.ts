/**
 * On-demand clusters and the console's alert rules against the simulator, as a user meets them:
 * status, CU size and auto-suspend of each on-demand cluster; every one of 112 rules of a
 * project (two pages) with enabled, threshold, window and targets; and not one webhook URL,
 * routing key, recipient or creator's address in /metrics, on the landing page or in the logs.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { WireAlertRule } from "../src/simulator/index.js";
import { expectNotPermittedOnce, startConsoleHarness } from "./helpers/consoleHarness.js";
import { type Harness, matching, parseSamples, sampleValue } from "./helpers/harness.js";

const RULES = "GET /v2/alertRules";
const ON_DEMAND = "GET /v2/clusters/onDemandClusters";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** An exporter polling only the console's listings (and the inventory), on a manual clock. */
async function start(opts: { sim?: Record<string, unknown>; shard?: { index: number; total: number } } = {}) {
  const started = await startConsoleHarness({
    sim: { alertRulesPerProject: 112, ...opts.sim },
    ...(opts.shard ? { shard: opts.shard } : {}),
  });
  h = started.harness;
  return started;
}

/** Every string a rule's actions carry that names a person or a secret: URLs, addresses, keys. */
function secretsOf(rules: readonly WireAlertRule[]): string[] {
  const out: string[] = [];
  const walk = (value: unknown, key: string): void => {
    if (typeof value === "string") {
      if (["url", "webhookUrl", "apiKey", "members"].includes(key)) out.push(value);
    } else if (Array.isArray(value)) for (const v of value) walk(v, key);
    else if (typeof value === "object" && value !== null) {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  for (const r of rules) walk(r.actions, "actions");
  return out;
}

describe("on-demand clusters against the simulator", () => {
  it("show each cluster's status, CU size and auto-suspend, one listing per project and region", async () => {
    const { harness } = await start();
    const text = await harness.metrics();
    const clusters = harness.sim.onDemandClusters;
    expect(clusters.length).toBeGreaterThan(1);
    for (const c of clusters) {
      const id = { cluster_id: c.clusterId };
      expect(
        sampleValue(text, "vdbcloud_on_demand_cluster_info", {
          ...id,
          cluster_name: c.clusterName,
          project_id: c.projectId,
          region_id: c.regionId,
        }),
      ).toBe(1);
      expect(
        sampleValue(text, "vdbcloud_on_demand_cluster_status", { ...id, status: c.status.toLowerCase() }),
      ).toBe(1);
      expect(sampleValue(text, "vdbcloud_on_demand_cluster_cu_size", id)).toBe(c.cuSize);
      expect(sampleValue(text, "vdbcloud_on_demand_cluster_auto_suspend_seconds", id)).toBe(c.autoSuspend);
    }
    // The demo's suspended one.
    expect(clusters.filter((c) => c.status === "SUSPENDED")).toHaveLength(1);
    // List Projects V2's regionIds: each project and region of the simulated clusters, once.
    const pairs = new Set(harness.sim.clusters.map((c) => `${c.projectId}/${c.regionId}`));
    expect(harness.sim.stats.byEndpoint[ON_DEMAND]).toBe(pairs.size);
    expect(sampleValue(text, "vdbcloud_collector_up", { collector: "inventory", target: "on_demand" })).toBe(
      1,
    );
  });

  it("follow a cluster that resumes at the next listing", async () => {
    const { harness, clock } = await start();
    const suspended = harness.sim.onDemandClusters.find((c) => c.status === "SUSPENDED");
    if (!suspended) throw new Error("no suspended on-demand cluster");
    harness.sim.state.setOnDemandClusterStatus(suspended.clusterId, "RESUMING");
    // The next slot is half an interval to an interval and a half after the start-up run.
    for (let i = 0; i < 4; i++) {
      await clock.advance(15_000);
      await harness.settle();
    }
    const text = await harness.metrics();
    const current = matching(parseSamples(text), "vdbcloud_on_demand_cluster_status", {
      cluster_id: suspended.clusterId,
    }).filter((s) => s.value === 1);
    expect(current.map((s) => s.labels.status)).toEqual(["resuming"]);
  });
});

describe("the console's alert rules against the simulator", () => {
  it("show all 112 rules of a project, read in two pages, with enabled, threshold, window and targets", async () => {
    const { harness } = await start();
    const [project] = harness.sim.projects;
    const rules = harness.sim.alertRules.get(project?.id ?? "") ?? [];
    expect(rules).toHaveLength(112);
    const text = await harness.metrics();
    const samples = parseSamples(text);
    expect(matching(samples, "vdbcloud_console_alert_rule_info", {})).toHaveLength(112);
    const sampleOf = (family: string, labels: Record<string, string>) =>
      matching(samples, family, labels)[0]?.value;
    for (const r of rules) {
      const id = { project_id: r.projectId, rule_id: r.id };
      const targets = (r.targetInstanceIds ?? r.targetClusterIds) as string[];
      expect(sampleOf("vdbcloud_console_alert_rule_enabled", id), r.id).toBe(r.enabled ? 1 : 0);
      expect(sampleOf("vdbcloud_console_alert_rule_threshold", id), r.id).toBe(Number(r.threshold));
      expect(sampleOf("vdbcloud_console_alert_rule_window_seconds", id), r.id).toBe(
        Number(r.windowSize) * 60,
      );
      expect(sampleOf("vdbcloud_console_alert_rule_clusters", id), r.id).toBe(targets.length);
      const info = matching(samples, "vdbcloud_console_alert_rule_info", id)[0]?.labels;
      expect(info?.level).toBe(String(r.level).toLowerCase());
      expect(info?.comparison).toBe(String(r.comparisonMethod ?? r.comparisonOperator).toLowerCase());
    }
    // Disabled rules are there to see (and to alert on).
    expect(
      matching(samples, "vdbcloud_console_alert_rule_enabled", {}).filter((s) => s.value === 0).length,
    ).toBe(rules.filter((r) => !r.enabled).length);
    // One project, 112 rules, pages of 100: two calls.
    expect(harness.sim.stats.byEndpoint[RULES]).toBe(2);
    expect(harness.sim.stats.mutatingCalls).toEqual([]);
  });

  it("never shows a webhook URL, routing key, recipient or creator: not in /metrics, on the landing page or in the logs", async () => {
    const { harness, logs } = await start();
    const secrets = [
      ...secretsOf([...harness.sim.alertRules.values()].flat()),
      ...harness.sim.onDemandClusters.map((c) => c.createdBy),
    ];
    // Every kind is there to be leaked: webhooks, Slack/WeCom URLs, PagerDuty and Opsgenie keys, addresses.
    expect(secrets.length).toBeGreaterThan(112 * 5);
    for (const needle of ["https://hooks.", "pd-routing-", "og-key-", "@example.com"]) {
      expect(
        secrets.some((s) => s.includes(needle)),
        needle,
      ).toBe(true);
    }
    const metrics = await harness.metrics();
    const landing = await (await fetch(`${harness.url}/`)).text();
    const landingJson = JSON.stringify(await harness.exporter.landing());
    const logText = logs.join("\n");
    expect(logText.length).toBeGreaterThan(0);
    for (const [where, text] of [
      ["/metrics", metrics],
      ["GET /", landing],
      ["landing info", landingJson],
      ["logs", logText],
    ] as const) {
      const leaked = secrets.filter((s) => text.includes(s));
      expect(leaked, where).toEqual([]);
      expect(text, where).not.toMatch(/@example\.com|pd-routing-|og-key-|hooks\.slack|secret=/);
    }
  });

  it("a key that is not project admin is not permitted: up, no rules, one warning", async () => {
    const { harness, clock, logs } = await start({ sim: { alertRulesPerProject: 3 } });
    harness.sim.faults.set("catalogue_refusal", { rate: 1, endpoints: [RULES], code: 96013 });
    for (let i = 0; i < 2; i++) {
      await clock.advance(60_000);
      await harness.settle();
    }
    await expectNotPermittedOnce(harness, logs, { collector: "alert_rules", target: "organization" });
  });

  it("runs on shard 0 only", async () => {
    const { harness } = await start({ shard: { index: 1, total: 2 } });
    const text = await harness.metrics();
    expect(matching(parseSamples(text), "vdbcloud_console_alert_rule_info", {})).toEqual([]);
    expect(matching(parseSamples(text), "vdbcloud_on_demand_cluster_info", {})).toEqual([]);
    expect(harness.sim.stats.byEndpoint[RULES] ?? 0).toBe(0);
    expect(harness.sim.stats.byEndpoint[ON_DEMAND] ?? 0).toBe(0);
  });
});
