/**
 * What `--check-config` says of the canary beside its rows: what its probes cost (a search
 * consumes read capacity, billed in vCU on free and serverless clusters), how its Describe
 * Collection calls are counted, and which targets this replica leaves to another one.
 */
import type { Config } from "../../config/types.js";
import type { ScheduleView } from "../../polling/model.js";
import { DAY, formatDuration, MINUTE } from "../../shared/duration.js";

/**
 * The `for` of VdbcloudCanaryFailing as shipped (config/prometheus/rules/alerts.yml): a probe
 * interval this long holds one failure in vdbcloud_canary_up for all of it.
 */
const FAILING_FOR_MS = 5 * MINUTE;

/** "1 search" / "3 searches". */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The canary's notes for `config` on the replica that polls `view.clusters`. */
export function canaryNotes(config: Config, view: ScheduleView): string[] {
  const { targets, intervalMs, timeoutMs } = config.canary;
  if (targets.length === 0) return [];
  const polled = new Set(view.clusters.map((c) => c.id));
  const listed = new Set(config.clusters.map((c) => c.id));
  const mine = targets.filter((t) => polled.has(t.clusterId));
  const searches = mine.filter((t) => t.operation === "search").length;
  const queries = mine.length - searches;
  const perDay = Math.round(DAY / intervalMs);
  const notes = [
    `canary: ${count(searches, "search", "searches")} and ${count(queries, "query", "queries")} every ${formatDuration(intervalMs)} (${(mine.length * perDay).toLocaleString("en-US")} a day, each within ${formatDuration(timeoutMs)}); each consumes read capacity of its cluster, and is billed in vCU on free and serverless clusters (vdbcloud_canary_vcu_total adds up the cost the service reports)`,
    "canary: a search target's Describe Collection is counted every run, and made hourly (and after a refused search); the probes share each cluster's data-plane budget (collections.rate_limit) behind the other data-plane calls",
  ];
  if (intervalMs >= FAILING_FOR_MS)
    notes.push(
      `canary: probed every ${formatDuration(intervalMs)}, one failed probe keeps vdbcloud_canary_up at 0 for ${formatDuration(FAILING_FOR_MS)} or more, which is VdbcloudCanaryFailing's \`for\` as shipped: it fires on a single failure; a shorter canary.interval has it wait for the next probe`,
    );
  const elsewhere = targets.filter((t) => listed.has(t.clusterId) && !polled.has(t.clusterId)).length;
  if (elsewhere > 0)
    notes.push(
      `canary: ${count(elsewhere, "target is", "targets are")} probed by the replicas that poll their clusters`,
    );
  const waiting = targets.filter((t) => !listed.has(t.clusterId)).length;
  if (waiting > 0)
    notes.push(
      `canary: ${count(waiting, "target names a cluster", "targets name clusters")} not listed: probed once cluster discovery finds it`,
    );
  return notes;
}
