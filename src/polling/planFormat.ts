/** The plan of `--check-config` as text (plan.ts computes it). */
import { formatDuration } from "../shared/duration.js";
import type { Plan } from "./plan.js";

function formatRate(perSecond: number): string {
  return perSecond.toFixed(3).replace(/\.?0+$/, "");
}

/** Renders the plan for humans: targets, one line per endpoint and credential, notes, verdict. */
export function formatPlan(plan: Plan): string {
  const lines: string[] = [];
  const shard = plan.shard === undefined ? "" : ` (shard ${plan.shard.index} of ${plan.shard.total})`;
  const discovered = plan.discoveredClusters > 0 ? ` + ${plan.discoveredClusters} discovered` : "";
  lines.push(
    `Targets${shard}: ${plan.targets.length} configured clusters${discovered}, ${plan.sparkJobs.length} Spark jobs`,
  );
  // Targets usually share a few query lists: each distinct list is printed once, named, and
  // every target says which one it sends.
  const querySets = new Map<string, string>();
  const setOf = (queries: readonly string[]): string => {
    if (queries.length === 0) return "none";
    const key = queries.join(", ");
    let name = querySets.get(key);
    if (name === undefined) {
      name = `Q${querySets.size + 1}`;
      querySets.set(key, name);
    }
    return name;
  };
  const targetLines: string[] = [];
  const native = new Set(plan.native.clusters);
  for (const t of plan.targets) {
    const details = [
      t.region === undefined ? undefined : `region=${t.region}`,
      t.projectId === undefined ? undefined : `project=${t.projectId}`,
      `credential=${t.credential}`,
    ].filter((d) => d !== undefined);
    const served = native.has(t.clusterId)
      ? plan.native.saved.length > 0
        ? " native (the service's own endpoint, if Enterprise: metric calls saved)"
        : " native (the service's own endpoint, if Enterprise)"
      : "";
    targetLines.push(`  cluster ${t.clusterId} ${details.join(" ")} queries=${setOf(t.queries)}${served}`);
    t.scopes.forEach((scope, i) => {
      targetLines.push(`    scope ${scope} queries=${setOf(t.scopeQueries[i] ?? [])}`);
    });
  }
  lines.push(...targetLines);
  for (const j of plan.sparkJobs) lines.push(`  spark job ${j.projectId}/${j.jobId}`);
  for (const id of plan.jobIds) lines.push(`  job ${id}`);
  if (querySets.size > 0) {
    lines.push("");
    lines.push("Metric queries sent per target:");
    for (const [list, name] of querySets) {
      lines.push(`  ${name} (${list.split(", ").length}): ${list}`);
    }
  }
  lines.push("");
  lines.push(
    `API calls per cycle (budget: ${plan.rateLimit} requests/s per endpoint per credential; usable ` +
      `${formatRate(plan.usableRate)} req/s with the ${formatDuration(plan.rateLimitMarginMs)} margin):`,
  );
  for (const r of plan.rows) {
    const amount = `${r.atLeast ? "at least " : ""}${r.callsPerCycle} ${r.callsPerCycle === 1 ? "call" : "calls"}`;
    const rate = `${r.atLeast ? ">= " : ""}${formatRate(r.requestsPerSecond)} req/s`;
    let verdict = "fits";
    if (!r.fits) {
      verdict = `EXCEEDS the budget: needs an interval of at least ${formatDuration(r.minimumIntervalMs ?? 0)}`;
      if (r.suggestedIntervalMs !== r.minimumIntervalMs) {
        verdict += `, use ${formatDuration(r.suggestedIntervalMs ?? 0)} (whole granularity steps)`;
      }
    }
    lines.push(
      `  ${r.endpoint} [${r.credential}]: ${amount} every ${formatDuration(r.intervalMs)} = ${rate}: ${verdict}`,
    );
  }
  if (plan.rows.length === 0) lines.push("  (none)");
  if (plan.native.saved.length > 0) {
    lines.push("");
    lines.push(
      "Calls saved by the service's own Prometheus endpoint (native_export, the clusters listed by ID):",
    );
    for (const r of plan.native.saved) {
      lines.push(
        `  ${r.endpoint} [${r.credential}]: ${r.callsPerCycle} ${r.callsPerCycle === 1 ? "call" : "calls"} every ${formatDuration(r.intervalMs)} = ${formatRate(r.requestsPerSecond)} req/s not made`,
      );
    }
  }
  if (plan.dataPlaneRows.length > 0) {
    lines.push("");
    lines.push(
      `Data-plane calls per collections cycle (budget: ${plan.dataPlaneRateLimit} requests/s per cluster endpoint):`,
    );
    for (const r of plan.dataPlaneRows) {
      const amount = `${r.atLeast ? "at least " : ""}${r.callsPerCycle} ${r.callsPerCycle === 1 ? "call" : "calls"}`;
      const rate = `${r.atLeast ? ">= " : ""}${formatRate(r.requestsPerSecond)} req/s`;
      lines.push(
        `  cluster ${r.clusterId} data plane: ${amount} every ${formatDuration(r.intervalMs)} = ${rate}: ${r.fits ? "fits" : "EXCEEDS the budget"}`,
      );
    }
  }
  const notes = [...plan.notes, ...plan.native.notes];
  if (notes.length > 0) {
    lines.push("");
    lines.push("Notes:");
    for (const note of notes) lines.push(`  - ${note}`);
  }
  lines.push("");
  lines.push(plan.fits ? "Result: fits the rate budget" : "Result: EXCEEDS the budget (see above)");
  return lines.join("\n");
}
