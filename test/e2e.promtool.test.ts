/**
 * End to end against `promtool check metrics`: the built exporter as `--demo
 * --demo-metric-catalog permissive` runs it (every collector on, every family present) names
 * its families as Prometheus expects: base units (seconds, bytes) and `_total` for counters
 * only. promtool exits 0 on the whole output, process metrics included (prom-client's three
 * nodejs_active_*_total gauges are dropped).
 *
 * Needs `npm run build` first (`npm test` does it) and the `promtool` binary.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSamples } from "./helpers/harness.js";
import { exporterReady, freePort, spawnDemo, stop } from "./helpers/processes.js";
import { exporterLint, promtoolExitCode, promtoolLint } from "./helpers/promtoolLint.js";
import { toolOrSkip, toolPath } from "./helpers/tools.js";

const ROOT = join(import.meta.dirname, "..");
const MAIN = join(ROOT, "dist", "main.js");
const DAY_SECONDS = 86_400;

const promtool = toolOrSkip("promtool");

describe("the permissive demo under promtool check metrics", () => {
  let exporter: ChildProcess | undefined;
  const logs: string[] = [];

  afterAll(async () => {
    await stop(exporter);
  });

  // Skipped only where promtool is missing outside CI (toolOrSkip printed why); CI fails instead.
  it.skipIf(promtool.skip)(
    "exits 0 with no finding; the policy's retention is in seconds and the invoice's total is vdbcloud_invoice_amount",
    async () => {
      if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
      const port = await freePort();
      exporter = spawnDemo(ROOT, port, logs, ["--demo-metric-catalog", "permissive"]);
      // Ready once the first collection cycle is published: every collector has run once.
      await exporterReady(port, 60_000);
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();

      // No finding but those on prom-client's process metrics: none on a vdbcloud_ family, and no
      // parse error (which would name no family).
      const findings = exporterLint(toolPath(promtool), text);
      expect(findings.filter((l) => l.startsWith("vdbcloud_"))).toEqual([]);
      expect(findings, logs.join("")).toEqual([]);
      // Nothing left to excuse: the process metrics pass too, and promtool exits 0.
      expect(promtoolLint(toolPath(promtool), text)).toEqual([]);
      expect(promtoolExitCode(toolPath(promtool), text)).toBe(0);
      for (const name of ["nodejs_active_handles", "nodejs_active_requests", "nodejs_active_resources"]) {
        expect(text).toContain(`\n# TYPE ${name} gauge\n`);
        expect(text).not.toContain(`\n# TYPE ${name}_total `);
      }

      // The two families promtool used to flag are present under their new names, and no other
      // family of the policy's retention or of the invoices is.
      const samples = parseSamples(text).filter((s) => s.name.startsWith("vdbcloud_"));
      const names = new Set(samples.map((s) => s.name));
      const namesStarting = (prefix: string) => [...names].filter((n) => n.startsWith(prefix)).sort();
      expect(namesStarting("vdbcloud_backup_policy_retention")).toEqual([
        "vdbcloud_backup_policy_retention_seconds",
      ]);
      expect(namesStarting("vdbcloud_invoice_")).toEqual([
        "vdbcloud_invoice_amount",
        "vdbcloud_invoice_amount_due",
        "vdbcloud_invoice_due_timestamp_seconds",
        "vdbcloud_invoice_period_start_timestamp_seconds",
        "vdbcloud_invoice_status",
      ]);
      expect(text).toContain("\n# TYPE vdbcloud_backup_policy_retention_seconds gauge\n");
      expect(text).toContain("\n# TYPE vdbcloud_invoice_amount gauge\n");
      // The demo's policies keep backups 30 or 14 days (0 when disabled): whole days, in seconds.
      const retention = samples.filter((s) => s.name === "vdbcloud_backup_policy_retention_seconds");
      expect(new Set(retention.map((s) => s.value))).toEqual(
        new Set([0, 14 * DAY_SECONDS, 30 * DAY_SECONDS]),
      );
    },
    120_000,
  );
});
