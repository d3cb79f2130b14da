/** One row of the landing page's target table. */
interface TargetRow {
  readonly collector: string;
  readonly target: string;
  readonly up: boolean | null;
  readonly lastSuccessMs: number | null;
  readonly consecutiveFailures: number;
  readonly lastError: { readonly code: string; readonly message: string } | null;
  /** The credential label refused the collector's permission, if so (see HealthTracker). */
  readonly notPermitted?: string | null;
  /** When the service last refused the collector for the cluster's plan, if it did. */
  readonly planRefusedAtMs?: number | null;
  /** Calls of the last complete poll that failed without failing it, if any. */
  readonly partialError?: { readonly code: string; readonly message: string } | null;
  /** Why the last poll asked the service nothing on purpose, if it did not ask. */
  readonly skipped?: string | null;
}

/** What the "last error" column says of a target: its failure, else why it has less data. */
function note(t: TargetRow, nowMs: number): string {
  if (t.lastError) return `${t.lastError.code}: ${t.lastError.message}`;
  if (t.notPermitted)
    return `not permitted: credential ${t.notPermitted} lacks the permission this collector needs`;
  if (t.planRefusedAtMs != null) {
    return `refused for the cluster's plan ${ago(nowMs, t.planRefusedAtMs)}: asked again after an hour, or when its plan changes`;
  }
  if (t.partialError) return `partly: ${t.partialError.code}: ${t.partialError.message}`;
  if (t.skipped) return `not asked: ${t.skipped}`;
  return "";
}

/** Everything the landing page shows. Nothing here may contain a secret. */
export interface LandingInfo {
  readonly version: string;
  readonly startedAtMs: number;
  readonly nowMs: number;
  readonly ready: boolean;
  readonly series: number;
  readonly publishedAtMs: number;
  readonly shard: { readonly index: number; readonly total: number };
  readonly targets: readonly TargetRow[];
  /** The node flags and environment variables this process runs with, worded by the caller. */
  readonly runtime?: LandingRuntime;
}

/** The runtime settings the landing page shows, in words: the page lays them out, nothing more. */
interface LandingRuntime {
  /** What chose them: "built-in", "VDBCLOUD_RUNTIME=off", or the replacing variables. */
  readonly control: string;
  /** Whether the launcher started this process. */
  readonly relaunched: boolean;
  readonly settings: readonly { readonly kind: string; readonly setting: string; readonly from: string }[];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function ago(nowMs: number, thenMs: number | null): string {
  if (thenMs === null) return "never";
  const s = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  return s < 120 ? `${s}s ago` : `${Math.round(s / 60)}m ago`;
}

function rank(up: boolean | null): number {
  return up === false ? 0 : up === null ? 1 : 2;
}

/** The runtime settings in force, and where each comes from. */
function renderRuntime(runtime: LandingRuntime | undefined): string {
  if (runtime === undefined) return "";
  const rows = runtime.settings
    .map(
      (s) =>
        `<tr><td>${escapeHtml(s.kind)}</td><td><code>${escapeHtml(s.setting)}</code></td><td>${escapeHtml(s.from)}</td></tr>`,
    )
    .join("\n");
  const how = runtime.relaunched
    ? "applied by the launcher, which started this process"
    : "as this process was started";
  return `<h2>Runtime settings</h2>
<p>${escapeHtml(runtime.control)} &middot; ${how}</p>
<table id="runtime"><thead><tr><th>kind</th><th>setting</th><th>from</th></tr></thead>
<tbody>
${rows}
</tbody></table>
`;
}

/** Renders the landing page: links, readiness, and a table of targets with their last poll. */
export function renderLanding(info: LandingInfo): string {
  const rows = [...info.targets]
    // Failing targets first: with hundreds of targets, those are the rows an operator looks for.
    .sort(
      (a, b) =>
        rank(a.up) - rank(b.up) || a.collector.localeCompare(b.collector) || a.target.localeCompare(b.target),
    )
    .map((t) => {
      const state = t.up === null ? "pending" : t.up ? "up" : "down";
      const err = note(t, info.nowMs);
      return `<tr class="${state}"><td>${escapeHtml(t.collector)}</td><td>${escapeHtml(t.target)}</td><td>${state}</td><td>${ago(info.nowMs, t.lastSuccessMs)}</td><td>${t.consecutiveFailures}</td><td>${escapeHtml(err)}</td></tr>`;
    })
    .join("\n");
  const down = info.targets.filter((t) => t.up === false).length;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>vdbcloud-exporter</title>
<style>body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}tr.down td{background:#fdd}tr.pending td{color:#888}</style>
</head><body>
<h1>vdbcloud-exporter</h1>
<p>Version ${escapeHtml(info.version)} &middot; ${info.ready ? "ready" : "starting (first cycle not complete)"} &middot; ${info.series} series &middot; snapshot published ${ago(info.nowMs, info.publishedAtMs)} &middot; shard ${info.shard.index + 1} of ${info.shard.total}</p>
<ul><li><a href="metrics">/metrics</a></li><li><a href="healthz">/healthz</a></li><li><a href="readyz">/readyz</a></li><li><a href="-/healthy">/-/healthy</a></li><li><a href="-/ready">/-/ready</a></li><li><a href="sd/native-export">/sd/native-export</a> (the clusters the service's own Prometheus endpoint serves)</li></ul>
<h2>Targets (${info.targets.length}, ${down} failing)</h2>
<table><thead><tr><th>collector</th><th>target</th><th>last poll</th><th>last success</th><th>failures in a row</th><th>last error</th></tr></thead>
<tbody>
${rows}
</tbody></table>
${renderRuntime(info.runtime)}</body></html>
`;
}
