/** Text made safe for HTML content and for quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** How long ago `thenMs` was, in words: "never", "42s ago", "5m ago". */
export function ago(nowMs: number, thenMs: number | null): string {
  if (thenMs === null) return "never";
  const s = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  return s < 120 ? `${s}s ago` : `${Math.round(s / 60)}m ago`;
}

/** A duration for a table cell: "0.042 s", "1.25 s", "48 s"; "" when unknown. */
export function seconds(s: number | null): string {
  if (s === null) return "";
  return `${s < 0.1 ? s.toFixed(3) : s < 10 ? s.toFixed(2) : Math.round(s)} s`;
}

/** One table row of cells that are already HTML. */
export function tableRow(cells: readonly string[], attrs = ""): string {
  return `<tr${attrs}><td>${cells.join("</td><td>")}</td></tr>`;
}

/** A table of already-rendered rows under plain-text headers. */
export function table(id: string, headers: readonly string[], rows: readonly string[]): string {
  const head = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  return `<table id="${id}"><thead><tr>${head}</tr></thead>\n<tbody>\n${rows.join("\n")}\n</tbody></table>\n`;
}
