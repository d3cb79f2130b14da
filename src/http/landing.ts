import { ago, escapeHtml, table, tableRow } from "./html.js";
import { type LandingQuery, NO_FILTER } from "./landingQuery.js";
import type { TargetRow } from "./landingRows.js";
import { renderFailing, renderSummary, renderTargets, tallies } from "./landingSections.js";

/** Everything the landing page shows. Nothing here may contain a secret. */
export interface LandingInfo {
  readonly version: string;
  readonly startedAtMs: number;
  readonly nowMs: number;
  readonly ready: boolean;
  readonly series: number;
  readonly publishedAtMs: number;
  readonly shard: { readonly index: number; readonly total: number };
  /** Every scheduled target (those no poll has ended for yet pending), in any order. */
  readonly targets: readonly TargetRow[];
  /** What each collector polls, in a line, by its `collector` label (as each collector declares it). */
  readonly collectors?: ReadonlyMap<string, string>;
  /** The node flags and environment variables this process runs with, worded by the caller. */
  readonly runtime?: LandingRuntime;
  /** The request rate each credential's calls keep to, and why that rate; absent when unknown. */
  readonly budgets?: readonly {
    readonly credential: string;
    readonly endpoints: string;
    readonly perSecond: number;
    readonly why: string;
  }[];
}

/** The runtime settings the landing page shows, in words: the page lays them out, nothing more. */
interface LandingRuntime {
  /** What chose them: "built-in", "VDBCLOUD_RUNTIME=off", or the replacing variables. */
  readonly control: string;
  /** Whether the launcher started this process. */
  readonly relaunched: boolean;
  readonly settings: readonly { readonly kind: string; readonly setting: string; readonly from: string }[];
}

/** The runtime settings in force, and where each comes from. */
function renderRuntime(runtime: LandingRuntime | undefined): string {
  if (runtime === undefined) return "";
  const rows = runtime.settings.map((s) =>
    tableRow([escapeHtml(s.kind), `<code>${escapeHtml(s.setting)}</code>`, escapeHtml(s.from)]),
  );
  const how = runtime.relaunched
    ? "applied by the launcher, which started this process"
    : "as this process was started";
  return `<h2>Runtime settings</h2>
<p>${escapeHtml(runtime.control)} &middot; ${how}</p>
${table("runtime", ["kind", "setting", "from"], rows)}`;
}

/** The request rate each credential keeps to, and why. */
function renderBudgets(budgets: LandingInfo["budgets"]): string {
  if (budgets === undefined || budgets.length === 0) return "";
  const rows = budgets.map((b) =>
    tableRow([
      escapeHtml(b.credential),
      escapeHtml(b.endpoints),
      String(Math.round(b.perSecond * 100) / 100),
      escapeHtml(b.why),
    ]),
  );
  return `<h2 id="budgets">Rate budget</h2>
${table("budget", ["credential", "endpoints", "requests per second, per endpoint", "why"], rows)}`;
}

/**
 * Renders the landing page: status and links, a summary per collector, the failing targets,
 * then the target table as `query` filters and pages it. Its size is bounded whatever the
 * number of targets: one page of the table, the first failing targets, notes cut short.
 */
export function renderLanding(info: LandingInfo, query: LandingQuery = NO_FILTER): string {
  const counted = tallies(info.targets);
  const collectors = [...counted.byCollector.keys()];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>vdbcloud-exporter</title>
<style>body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}tr.failing td{background:#fdd}td:nth-child(2){white-space:nowrap}tr.pending td{color:#888}tr.total td{font-weight:bold}.hint{color:#555}form label{margin-right:1em}</style>
</head><body>
<h1>vdbcloud-exporter</h1>
<p>Version ${escapeHtml(info.version)} &middot; ${info.ready ? "ready" : "starting (first cycle not complete)"} &middot; ${info.series} series &middot; snapshot published ${ago(info.nowMs, info.publishedAtMs)} &middot; shard ${info.shard.index + 1} of ${info.shard.total}</p>
<ul><li><a href="metrics">/metrics</a></li><li><a href="healthz">/healthz</a></li><li><a href="readyz">/readyz</a></li><li><a href="-/healthy">/-/healthy</a></li><li><a href="-/ready">/-/ready</a></li><li><a href="sd/native-export">/sd/native-export</a> (the clusters the service&#39;s own Prometheus endpoint serves)</li></ul>
${renderSummary(counted, info.collectors)}${renderFailing(info.targets, info.nowMs)}${renderTargets(info.targets, query, collectors, info.nowMs)}${renderBudgets(info.budgets)}${renderRuntime(info.runtime)}</body></html>
`;
}
