import { escapeHtml } from "./html.js";
import { TARGET_STATES, type TargetState } from "./landingRows.js";

/**
 * Which rows the landing page's target table shows: `?collector=&state=&q=&page=`. Whatever a
 * request sends parses to one: an unknown state is no filter, a bad page is the first, text is
 * cut to a bounded length (it is echoed in the form and links).
 */
export interface LandingQuery {
  /** Only this collector's targets; null: every collector. */
  readonly collector: string | null;
  readonly state: TargetState | null;
  /** Case-insensitive text to find in the target or its last error; "" finds every row. */
  readonly q: string;
  /** 1-based; a page past the last shows the last. */
  readonly page: number;
}

export const NO_FILTER: LandingQuery = { collector: null, state: null, q: "", page: 1 };

/** Longest collector name and search text taken from a request. */
const MAX_TEXT = 128;

/** The query of a request URL (between `?` and any `#`; a URL without one is NO_FILTER). */
export function parseLandingQuery(url: string): LandingQuery {
  const at = url.indexOf("?");
  if (at < 0) return NO_FILTER;
  const end = url.indexOf("#", at);
  const params = new URLSearchParams(url.slice(at + 1, end < 0 ? undefined : end));
  const text = (name: string) => (params.get(name) ?? "").trim().slice(0, MAX_TEXT);
  const state = params.get("state");
  const page = Number(params.get("page") ?? "1");
  return {
    collector: text("collector") || null,
    state: TARGET_STATES.find((s) => s === state) ?? null,
    q: text("q"),
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/**
 * A link to the target table with `query`, as an attribute value (escaped): relative, so that
 * the page works under any path prefix a proxy gives it.
 */
export function hrefOf(query: Partial<LandingQuery>): string {
  const params = new URLSearchParams();
  if (query.collector) params.set("collector", query.collector);
  if (query.state) params.set("state", query.state);
  if (query.q) params.set("q", query.q);
  if (query.page !== undefined && query.page > 1) params.set("page", String(query.page));
  return escapeHtml(`?${params.toString()}#targets`);
}
