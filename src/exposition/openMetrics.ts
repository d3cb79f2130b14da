/**
 * Converts Prometheus text format 0.0.4 (as prom-client renders it) to OpenMetrics 1.0 without
 * the trailing `# EOF`. prom-client can render OpenMetrics itself, but doing so renames its
 * counter objects in place, which corrupts a text rendering of the same registry afterwards.
 *
 * Rules applied: blank lines are removed (not allowed in OpenMetrics); a counter family's HELP
 * and TYPE lines name it without its `_total` suffix. Sample lines are identical in both formats.
 */
export function textToOpenMetrics(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let pendingHelp: string | undefined;
  for (const line of lines) {
    if (line === "") continue;
    if (line.startsWith("# HELP ")) {
      if (pendingHelp !== undefined) out.push(pendingHelp);
      pendingHelp = line;
      continue;
    }
    if (line.startsWith("# TYPE ")) {
      const [, , name = "", type = ""] = line.split(" ");
      if (type === "counter" && name.endsWith("_total")) {
        const base = name.slice(0, -"_total".length);
        if (pendingHelp?.startsWith(`# HELP ${name} `)) {
          pendingHelp = `# HELP ${base} ${pendingHelp.slice(`# HELP ${name} `.length)}`;
        }
        if (pendingHelp !== undefined) out.push(pendingHelp);
        out.push(`# TYPE ${base} counter`);
      } else {
        if (pendingHelp !== undefined) out.push(pendingHelp);
        out.push(line);
      }
      pendingHelp = undefined;
      continue;
    }
    if (pendingHelp !== undefined) {
      out.push(pendingHelp);
      pendingHelp = undefined;
    }
    out.push(line);
  }
  if (pendingHelp !== undefined) out.push(pendingHelp);
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}
