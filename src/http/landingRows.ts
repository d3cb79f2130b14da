import { ago } from "./html.js";

/** One target of the landing page: its last poll as the exporter's health tracking has it. */
export interface TargetRow {
  readonly collector: string;
  readonly target: string;
  /** null until a poll of it ended. */
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
  /** Why its last poll asked the service nothing on purpose (its data comes from elsewhere), if so. */
  readonly skipped?: string | null;
  /** How long its last poll took, in seconds (retries and rate-limit waits included). */
  readonly lastPollSeconds?: number | null;
}

/**
 * The states the page counts and filters by, in the summary's order. A target is in one of up,
 * failing and pending; not permitted, refused for the plan and partly failed are kinds of up
 * (their polls complete, with less data).
 */
export const TARGET_STATES = [
  "up",
  "failing",
  "not_permitted",
  "plan_refused",
  "partial",
  "pending",
] as const;
export type TargetState = (typeof TARGET_STATES)[number];

/** Each state as a column heading and a filter choice says it. */
export const STATE_WORDS: Readonly<Record<TargetState, string>> = {
  up: "up",
  failing: "failing",
  not_permitted: "not permitted",
  plan_refused: "refused for the plan",
  partial: "partly failed",
  pending: "pending",
};

/** Whether `t` is in `state`. */
export function inState(t: TargetRow, state: TargetState): boolean {
  switch (state) {
    case "up":
      return t.up === true;
    case "failing":
      return t.up === false;
    case "pending":
      return t.up === null;
    case "not_permitted":
      return t.up === true && t.notPermitted != null;
    case "plan_refused":
      return t.up === true && t.planRefusedAtMs != null;
    case "partial":
      return t.up === true && t.partialError != null;
  }
}

/** What the "last error" column says of a target: its failure, else why it has less data. */
export function note(t: TargetRow, nowMs: number): string {
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

/** A note is cut here on the page (the log has it whole): it bounds the page's size. */
const NOTE_CHARS = 240;

/** `note`, cut to NOTE_CHARS. */
export function shortNote(t: TargetRow, nowMs: number): string {
  const text = note(t, nowMs);
  return text.length <= NOTE_CHARS ? text : `${text.slice(0, NOTE_CHARS - 1)}\u2026`;
}

function rank(up: boolean | null): number {
  return up === false ? 0 : up === null ? 1 : 2;
}

/**
 * By collector, then target: the order the exporter hands its targets in (sorted when it rebuilds the tasks,
 * so that no request sorts thousands of rows). Code units, not localeCompare: cheap and the same
 * everywhere.
 */
export function byTarget(
  a: { readonly collector: string; readonly target: string },
  b: { readonly collector: string; readonly target: string },
): number {
  return (
    (a.collector < b.collector ? -1 : a.collector > b.collector ? 1 : 0) ||
    (a.target < b.target ? -1 : a.target > b.target ? 1 : 0)
  );
}

/**
 * The page's order: failing targets first, then pending, then up; by collector and target
 * within each. Rows that come in `byTarget` order (checked) are only split by state, in one
 * pass; any other order is sorted.
 */
export function failingFirst(rows: readonly TargetRow[]): TargetRow[] {
  for (let i = 1; i < rows.length; i++) {
    if (byTarget(rows[i - 1] as TargetRow, rows[i] as TargetRow) > 0) {
      return [...rows].sort((a, b) => rank(a.up) - rank(b.up) || byTarget(a, b));
    }
  }
  const failing: TargetRow[] = [];
  const pending: TargetRow[] = [];
  const up: TargetRow[] = [];
  for (const t of rows) (t.up === false ? failing : t.up === null ? pending : up).push(t);
  return failing.concat(pending, up);
}
