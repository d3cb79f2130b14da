import { ago, escapeHtml, seconds, table, tableRow } from "./html.js";
import { hrefOf, type LandingQuery } from "./landingQuery.js";
import {
  failingFirst,
  inState,
  note,
  STATE_WORDS,
  shortNote,
  TARGET_STATES,
  type TargetRow,
  type TargetState,
} from "./landingRows.js";

/** Rows of one page of the target table. */
export const PAGE_ROWS = 100;
/** Failing targets listed above the table; the table's filter shows every one of them. */
export const FAILING_ROWS = 20;
/** Error codes the failing section counts its targets by. */
const FAILING_CODES = 8;

/** What the summary says of one collector (or of all). */
export interface Tally {
  targets: number;
  /** Targets in each state (as `inState` has them). */
  readonly states: Record<TargetState, number>;
  /** Of the last poll of each target: the slowest, the sum, and how many had one. */
  slowest: number | null;
  sum: number;
  timed: number;
}

function emptyTally(): Tally {
  const states = { up: 0, failing: 0, not_permitted: 0, plan_refused: 0, partial: 0, pending: 0 };
  return { targets: 0, states, slowest: null, sum: 0, timed: 0 };
}

/** Counts `t` in: `inState` spelt out, as this runs for every target on every request. */
function count(tally: Tally, t: TargetRow): void {
  const states = tally.states;
  tally.targets++;
  if (t.up === false) states.failing++;
  else if (t.up === null) states.pending++;
  else {
    states.up++;
    if (t.notPermitted != null) states.not_permitted++;
    if (t.planRefusedAtMs != null) states.plan_refused++;
    if (t.partialError != null) states.partial++;
  }
  const took = t.lastPollSeconds;
  if (took != null) {
    tally.slowest = Math.max(tally.slowest ?? 0, took);
    tally.sum += took;
    tally.timed++;
  }
}

/** Adds `part` into `into`. */
function addTally(into: Tally, part: Tally): void {
  into.targets += part.targets;
  for (const s of TARGET_STATES) into.states[s] += part.states[s];
  if (part.slowest !== null) into.slowest = Math.max(into.slowest ?? 0, part.slowest);
  into.sum += part.sum;
  into.timed += part.timed;
}

/** Every collector's tally, by name, and the tally of all of them. */
export interface Tallies {
  readonly byCollector: ReadonlyMap<string, Tally>;
  readonly all: Tally;
}

/** The tallies of `rows`, collectors by name. */
export function tallies(rows: readonly TargetRow[]): Tallies {
  const byCollector = new Map<string, Tally>();
  for (const t of rows) {
    let tally = byCollector.get(t.collector);
    if (tally === undefined) {
      tally = emptyTally();
      byCollector.set(t.collector, tally);
    }
    count(tally, t);
  }
  const all = emptyTally();
  for (const tally of byCollector.values()) addTally(all, tally);
  return { byCollector: new Map([...byCollector].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), all };
}

/** A count, linked to the table filtered to it when there is anything to see. */
function countLink(n: number, query: Partial<LandingQuery>): string {
  return n === 0 ? "0" : `<a href="${hrefOf(query)}">${n}</a>`;
}

function summaryRow(name: string, collector: string | null, t: Tally, what?: string): string {
  const title = what === undefined ? "" : ` title="${escapeHtml(what)}"`;
  const cells = [
    collector === null ? name : `<a href="${hrefOf({ collector })}"${title}>${escapeHtml(name)}</a>`,
    countLink(t.targets, { collector }),
    ...TARGET_STATES.map((state) => countLink(t.states[state], { collector, state })),
    seconds(t.slowest),
    seconds(t.timed === 0 ? null : t.sum / t.timed),
  ];
  const attrs = collector === null ? ' class="total"' : t.states.failing > 0 ? ' class="failing"' : "";
  return tableRow(cells, attrs);
}

/**
 * The summary: one row per collector, then all of them; every count links to its targets, and
 * a collector's name says what it polls (`what`, by collector label) when hovered.
 */
export function renderSummary(
  { byCollector, all }: Tallies,
  what: ReadonlyMap<string, string> = new Map(),
): string {
  const body = [...byCollector].map(([name, t]) => summaryRow(name, name, t, what.get(name)));
  body.push(summaryRow("all collectors", null, all));
  const headers = [
    "collector",
    "targets",
    ...TARGET_STATES.map((s) => STATE_WORDS[s]),
    "last cycle: slowest poll",
    "last cycle: mean poll",
  ];
  return `<h2 id="summary">Collectors</h2>
${table("collectors", headers, body)}<p class="hint">Not permitted, refused for the plan and partly failed targets are up: their polls complete, with less data. A cycle is one poll of each target; one that nears its interval gets runs skipped (<code>vdbcloud_scheduler_skipped_runs_total</code>).</p>
`;
}

/** A target's row of the failing list or the table. */
function targetRow(t: TargetRow, nowMs: number): string {
  const state = t.up === null ? "pending" : t.up ? "up" : "failing";
  const cells = [
    escapeHtml(t.collector),
    escapeHtml(t.target),
    state,
    ago(nowMs, t.lastSuccessMs),
    seconds(t.lastPollSeconds ?? null),
    String(t.consecutiveFailures),
    escapeHtml(shortNote(t, nowMs)),
  ];
  return tableRow(cells, ` class="${state}"`);
}

const TARGET_HEADERS = [
  "collector",
  "target",
  "last poll",
  "last success",
  "last poll took",
  "failures in a row",
  "last error",
];

/** The failing targets (the first FAILING_ROWS), counted by error code, each code a link. */
export function renderFailing(rows: readonly TargetRow[], nowMs: number): string {
  const failing = failingFirst(rows.filter((t) => t.up === false));
  if (failing.length === 0) {
    return `<h2 id="failing">Failing targets (0)</h2>\n<p>None: no target's last poll failed.</p>\n`;
  }
  const codes = new Map<string, number>();
  for (const t of failing) {
    const code = t.lastError?.code ?? "unknown";
    codes.set(code, (codes.get(code) ?? 0) + 1);
  }
  const byCode = [...codes]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
    .slice(0, FAILING_CODES)
    .map(([code, n]) => `<a href="${hrefOf({ state: "failing", q: code })}">${escapeHtml(code)}</a> ${n}`);
  const more =
    failing.length > FAILING_ROWS
      ? `<p>The first ${FAILING_ROWS} of ${failing.length}: <a href="${hrefOf({ state: "failing" })}">every failing target</a>.</p>\n`
      : "";
  return `<h2 id="failing">Failing targets (${failing.length})</h2>
<p>By error: ${byCode.join(" &middot; ")}</p>
${table(
  "failing-targets",
  TARGET_HEADERS,
  failing.slice(0, FAILING_ROWS).map((t) => targetRow(t, nowMs)),
)}${more}`;
}

function matches(t: TargetRow, query: LandingQuery, needle: string, nowMs: number): boolean {
  if (query.collector !== null && t.collector !== query.collector) return false;
  if (query.state !== null && !inState(t, query.state)) return false;
  return (
    needle === "" || t.target.toLowerCase().includes(needle) || note(t, nowMs).toLowerCase().includes(needle)
  );
}

function option(value: string, words: string, selected: boolean): string {
  return `<option value="${escapeHtml(value)}"${selected ? " selected" : ""}>${escapeHtml(words)}</option>`;
}

/** The filter form: plain GET, so it works without scripts and its result is a link. */
function filterForm(query: LandingQuery, collectors: readonly string[]): string {
  const names =
    query.collector === null || collectors.includes(query.collector)
      ? collectors
      : [...collectors, query.collector];
  const collectorOptions = names.map((c) => option(c, c, c === query.collector));
  const stateOptions = TARGET_STATES.map((s) => option(s, STATE_WORDS[s], s === query.state));
  return `<form method="get" action="#targets">
<label>collector <select name="collector">${option("", "every collector", query.collector === null)}${collectorOptions.join("")}</select></label>
<label>state <select name="state">${option("", "any state", query.state === null)}${stateOptions.join("")}</select></label>
<label>target or error contains <input name="q" value="${escapeHtml(query.q)}" size="24"></label>
<button type="submit">Show</button> <a href="${hrefOf({})}">every target</a>
</form>
`;
}

function pager(query: LandingQuery, page: number, pages: number, matching: number): string {
  const link = (to: number, words: string) =>
    to === page || to < 1 || to > pages ? words : `<a href="${hrefOf({ ...query, page: to })}">${words}</a>`;
  const first = (page - 1) * PAGE_ROWS + 1;
  const last = Math.min(page * PAGE_ROWS, matching);
  return `<p class="pager">Rows ${first}&ndash;${last} of ${matching} &middot; ${link(1, "first")} &middot; ${link(page - 1, "previous")} &middot; page ${page} of ${pages} &middot; ${link(page + 1, "next")} &middot; ${link(pages, "last")}</p>\n`;
}

/** The target table: filtered by `query` and paged on the server, failing targets first. */
export function renderTargets(
  rows: readonly TargetRow[],
  query: LandingQuery,
  collectors: readonly string[],
  nowMs: number,
): string {
  const needle = query.q.toLowerCase();
  const matching = failingFirst(rows.filter((t) => matches(t, query, needle, nowMs)));
  const pages = Math.max(1, Math.ceil(matching.length / PAGE_ROWS));
  const page = Math.min(query.page, pages);
  const head = `<h2 id="targets">Targets (${rows.length})</h2>\n${filterForm(query, collectors)}`;
  if (matching.length === 0) return `${head}<p class="pager">No target matches.</p>\n`;
  const shown = matching.slice((page - 1) * PAGE_ROWS, page * PAGE_ROWS).map((t) => targetRow(t, nowMs));
  const nav = pager(query, page, pages, matching.length);
  return `${head}${nav}${table("target-table", TARGET_HEADERS, shown)}${nav}`;
}
