import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RefusalWarnings, WARNING_COALESCE_MS } from "./warnings.js";

/** A real pino logger whose lines land in `lines`, parsed. */
function captured(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const READ_VCU = { name: "READ_VCU", stat: "AVG" as const };
const MESSAGE = "invalid metric name: READ_VCU";

afterEach(() => {
  vi.useRealTimers();
});

describe("RefusalWarnings: one warning per refused name", () => {
  it("gathers the targets that found the same refusal into one line with their count and the message", () => {
    vi.useFakeTimers();
    const { logger, lines } = captured();
    const w = new RefusalWarnings();
    for (const t of ["in01-c", "in01-a", "in01-b"]) w.refused(logger, t, READ_VCU, MESSAGE);
    expect(lines).toHaveLength(0);
    vi.advanceTimersByTime(WARNING_COALESCE_MS);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      metric: "READ_VCU",
      stats: ["AVG"],
      targets: 3,
      examples: ["in01-a", "in01-b", "in01-c"],
      upstream: MESSAGE,
    });
  });

  it("says nothing more while the set of targets stays the same; again when it changes", () => {
    vi.useFakeTimers();
    const { logger, lines } = captured();
    const w = new RefusalWarnings();
    w.refused(logger, "a", READ_VCU, MESSAGE);
    w.refused(logger, "b", READ_VCU, MESSAGE);
    vi.advanceTimersByTime(WARNING_COALESCE_MS);
    // The same targets refusing again (a retrial after the quarantine) is no news.
    w.refused(logger, "a", READ_VCU, MESSAGE);
    vi.advanceTimersByTime(WARNING_COALESCE_MS);
    expect(lines).toHaveLength(1);
    w.refused(logger, "c", READ_VCU, MESSAGE);
    vi.advanceTimersByTime(WARNING_COALESCE_MS);
    expect(lines.map((l) => l.targets)).toEqual([2, 3]);
    w.answered(logger, "c", READ_VCU);
    vi.advanceTimersByTime(WARNING_COALESCE_MS);
    expect(lines.map((l) => l.targets)).toEqual([2, 3, 2]);
    w.answered(logger, "a", READ_VCU);
    w.answered(logger, "b", READ_VCU);
    vi.advanceTimersByTime(WARNING_COALESCE_MS);
    expect(lines.at(-1)).toMatchObject({
      level: 30,
      metric: "READ_VCU",
      msg: "metric accepted again by the service",
    });
    expect(lines).toHaveLength(4);
  });

  it("one line per name, each with its own targets and statistics", () => {
    const { logger, lines } = captured();
    const w = new RefusalWarnings(60_000);
    w.refused(logger, "a", READ_VCU, MESSAGE);
    w.refused(logger, "a", { name: "FLUSH_COUNT" }, "invalid metric name: FLUSH_COUNT");
    w.refused(logger, "b", { name: "FLUSH_COUNT", stat: "AVG" }, "invalid metric name: FLUSH_COUNT");
    w.flush();
    expect(lines.map((l) => [l.metric, l.targets, l.stats])).toEqual([
      ["FLUSH_COUNT", 2, ["", "AVG"]],
      ["READ_VCU", 1, ["AVG"]],
    ]);
  });

  it("forgets removed targets silently; a later change counts from what is left", () => {
    const { logger, lines } = captured();
    const w = new RefusalWarnings(60_000);
    w.refused(logger, "a", READ_VCU, MESSAGE);
    w.refused(logger, "b", READ_VCU, MESSAGE);
    w.flush();
    w.retain(new Set(["a"]));
    w.flush();
    expect(lines.map((l) => l.targets)).toEqual([2]);
    w.refused(logger, "c", READ_VCU, MESSAGE);
    w.flush();
    expect(lines.map((l) => [l.targets, l.examples])).toEqual([
      [2, ["a", "b"]],
      [2, ["a", "c"]],
    ]);
  });
});
