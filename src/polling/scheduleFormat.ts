/** The polling schedule of `--check-config` as text (schedule.ts computes it). */
import { formatDuration } from "../shared/duration.js";
import type { Schedule } from "./schedule.js";

function formatRate(perSecond: number): string {
  return perSecond.toFixed(3).replace(/\.?0+$/, "");
}

/** Denied family names printed at most; the rest are counted. */
const DENIED_SHOWN = 30;

/** The family lists' part: what they deny, and the collectors that make no call for it. */
function familyLines(families: Schedule["families"]): string[] {
  if (families.denied.length === 0) return [];
  const denied = [...families.denied].sort();
  const more = denied.length - DENIED_SHOWN;
  const lines = [
    "",
    `Families (families.allow, families.deny): ${denied.length} of ${families.known} denied, never exposed`,
    `  ${denied.slice(0, DENIED_SHOWN).join(", ")}${more > 0 ? `, and ${more} more` : ""}`,
  ];
  if (families.silenced.length > 0) {
    lines.push("  Collectors that make no call, every family they write being denied:");
    for (const s of families.silenced) {
      const spared =
        s.tasks === 0
          ? "nothing to poll in this config anyway"
          : `${s.atLeast ? "at least " : ""}${s.callsPerCycle} ${s.callsPerCycle === 1 ? "call" : "calls"} per cycle spared`;
      lines.push(`    ${s.collector}: ${spared}`);
    }
  }
  return lines;
}

/** Renders the schedule for humans: targets, one line per endpoint and credential, notes, verdict. */
export function formatSchedule(schedule: Schedule): string {
  const lines: string[] = [];
  const shard =
    schedule.shard === undefined ? "" : ` (shard ${schedule.shard.index} of ${schedule.shard.total})`;
  const discovered = schedule.discoveredClusters > 0 ? ` + ${schedule.discoveredClusters} discovered` : "";
  lines.push(
    `Targets${shard}: ${[`${schedule.targets.length} configured clusters${discovered}`, ...schedule.listed.map((l) => `${l.items.length} ${l.list.title}`)].join(", ")}`,
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
  const native = new Set(schedule.native.clusters);
  for (const t of schedule.targets) {
    const details = [
      t.region === undefined ? undefined : `region=${t.region}`,
      t.projectId === undefined ? undefined : `project=${t.projectId}`,
      `credential=${t.credential}`,
    ].filter((d) => d !== undefined);
    const served = native.has(t.clusterId)
      ? schedule.native.saved.length > 0
        ? " native (the service's own endpoint, if Enterprise: metric calls saved)"
        : " native (the service's own endpoint, if Enterprise)"
      : "";
    targetLines.push(`  cluster ${t.clusterId} ${details.join(" ")} queries=${setOf(t.queries)}${served}`);
    t.scopes.forEach((scope, i) => {
      targetLines.push(`    scope ${scope} queries=${setOf(t.scopeQueries[i] ?? [])}`);
    });
  }
  lines.push(...targetLines);
  for (const { list, items } of schedule.listed) for (const item of items) lines.push(`  ${list.line(item)}`);
  if (querySets.size > 0) {
    lines.push("");
    lines.push("Metric queries sent per target:");
    for (const [list, name] of querySets) {
      lines.push(`  ${name} (${list.split(", ").length}): ${list}`);
    }
  }
  lines.push("");
  // Which share of each key's budget this replica spends, when replicas share a key.
  const shared =
    (schedule.shard?.total ?? 1) > 1 || schedule.budgets.some((b) => b.perSecond !== schedule.rateLimit);
  if (shared) {
    lines.push("Rate budget of this replica (requests/s per endpoint):");
    for (const b of schedule.budgets) {
      lines.push(`  ${b.credential}: ${formatRate(b.perSecond)} on ${b.endpoints}: ${b.why}`);
    }
    lines.push("");
  }
  lines.push(
    `API calls per cycle (budget: ${schedule.rateLimit} requests/s per endpoint per credential; usable ` +
      `${formatRate(schedule.usableRate)} req/s with the ${formatDuration(schedule.rateLimitMarginMs)} margin):`,
  );
  for (const r of schedule.rows) {
    const amount = `${r.atLeast ? "at least " : ""}${r.callsPerCycle} ${r.callsPerCycle === 1 ? "call" : "calls"}`;
    const rate = `${r.atLeast ? ">= " : ""}${formatRate(r.requestsPerSecond)} req/s`;
    let verdict = "fits";
    if (!r.fits) {
      verdict = `EXCEEDS the budget: needs an interval of at least ${formatDuration(r.minimumIntervalMs ?? 0)}`;
      if (r.suggestedIntervalMs !== r.minimumIntervalMs) {
        verdict += `, use ${formatDuration(r.suggestedIntervalMs ?? 0)} (whole granularity steps)`;
      }
    }
    const share =
      r.rateLimit === schedule.rateLimit
        ? ""
        : ` (this replica's share: ${formatRate(r.rateLimit)} req/s, usable ${formatRate((r.rateLimit * schedule.usableRate) / schedule.rateLimit)})`;
    lines.push(
      `  ${r.endpoint} [${r.credential}]: ${amount} every ${formatDuration(r.intervalMs)} = ${rate}${share}: ${verdict}`,
    );
  }
  if (schedule.rows.length === 0) lines.push("  (none)");
  if (schedule.native.saved.length > 0) {
    lines.push("");
    lines.push(
      "Calls saved by the service's own Prometheus endpoint (native_export, the clusters listed by ID):",
    );
    for (const r of schedule.native.saved) {
      lines.push(
        `  ${r.endpoint} [${r.credential}]: ${r.callsPerCycle} ${r.callsPerCycle === 1 ? "call" : "calls"} every ${formatDuration(r.intervalMs)} = ${formatRate(r.requestsPerSecond)} req/s not made`,
      );
    }
  }
  if (schedule.dataPlaneRows.length > 0) {
    lines.push("");
    lines.push(
      `Data-plane calls per cycle (budget: ${schedule.dataPlaneRateLimit} requests/s per cluster endpoint, shared by every collector that calls it):`,
    );
    for (const r of schedule.dataPlaneRows) {
      const amount = `${r.atLeast ? "at least " : ""}${r.callsPerCycle} ${r.callsPerCycle === 1 ? "call" : "calls"}`;
      const rate = `${r.atLeast ? ">= " : ""}${formatRate(r.requestsPerSecond)} req/s`;
      lines.push(
        `  cluster ${r.clusterId} data plane [${r.collectors.join(", ")}]: ${amount} every ${formatDuration(r.intervalMs)} = ${rate}: ${r.fits ? "fits" : "EXCEEDS the budget"}`,
      );
    }
  }
  lines.push(...familyLines(schedule.families));
  const notes = [...schedule.notes, ...schedule.native.notes];
  if (notes.length > 0) {
    lines.push("");
    lines.push("Notes:");
    for (const note of notes) lines.push(`  - ${note}`);
  }
  lines.push("");
  lines.push(schedule.fits ? "Result: fits the rate budget" : "Result: EXCEEDS the budget (see above)");
  return lines.join("\n");
}
