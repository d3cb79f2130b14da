import { describe, expect, it } from "vitest";
import { BackfillArgsError, parseBackfillArgs, resolveWindow } from "./args.js";

const NOW = Date.parse("2025-03-10T12:34:56Z");
const METRICS = { granularityMs: 60_000, delayMs: 0 };
const BASE = ["--config", "c.yaml", "--output", "out.om"];

describe("parseBackfillArgs", () => {
  it.each([
    [["--output", "o", "--from", "P1D"], "--config: required"],
    [["--config", "c", "--output", "o"], "--from: required"],
    [["--config", "c", "--from", "P1D"], "--output: required"],
    [["--config", "c", "--from", "P1D", "--output", "o", "--bogus"], "--bogus"],
  ])("%j is refused naming the flag (%s)", (argv, message) => {
    expect(() => parseBackfillArgs(argv, {})).toThrow(BackfillArgsError);
    expect(() => parseBackfillArgs(argv, {})).toThrow(message);
  });

  it("reads every flag, and --config from VDBCLOUD_CONFIG", () => {
    expect(
      parseBackfillArgs(
        ["--from", "P7D", "--to", "2025-01-01", "--granularity", "PT30S", "--output", "-", "--quiet"],
        {
          VDBCLOUD_CONFIG: "/etc/c.yaml",
        },
      ),
    ).toEqual({
      help: false,
      configPath: "/etc/c.yaml",
      from: "P7D",
      to: "2025-01-01",
      granularity: "PT30S",
      output: "-",
      quiet: true,
    });
  });
});

describe("resolveWindow", () => {
  it.each([
    // from, to, granularity, delay -> [from, to]
    ["P1D", undefined, undefined, 0, ["2025-03-09T12:35:00Z", "2025-03-10T12:34:00Z"]],
    ["P1D", undefined, "PT30S", 0, ["2025-03-09T12:35:00Z", "2025-03-10T12:34:30Z"]],
    ["P1D", undefined, undefined, 120_000, ["2025-03-09T12:35:00Z", "2025-03-10T12:32:00Z"]],
    ["2025-03-01", "2025-03-02T00:00:00Z", undefined, 0, ["2025-03-01T00:00:00Z", "2025-03-02T00:00:00Z"]],
    [
      "2025-03-01T00:00:10Z",
      "2025-03-01T01:00:50+00:00",
      undefined,
      0,
      ["2025-03-01T00:01:00Z", "2025-03-01T01:00:00Z"],
    ],
    [
      "2025-03-01T02:00:00+02:00",
      "2025-03-01T01:00:00Z",
      undefined,
      0,
      ["2025-03-01T00:00:00Z", "2025-03-01T01:00:00Z"],
    ],
  ])("--from %s --to %s --granularity %s, delay %d ms", (from, to, granularity, delayMs, expected) => {
    const w = resolveWindow(
      { from, ...(to ? { to } : {}), ...(granularity ? { granularity } : {}) },
      { ...METRICS, delayMs },
      NOW,
    );
    expect([new Date(w.fromMs).toISOString(), new Date(w.toMs).toISOString()]).toEqual(
      expected.map((t) => new Date(t).toISOString()),
    );
    expect(w.granularityMs).toBe(granularity === "PT30S" ? 30_000 : 60_000);
  });

  it.each([
    [{ from: "2025-03-05", to: "2025-03-01" }, "--from: 2025-03-05T00:00:00Z is not before --to"],
    [{ from: "P1D", to: "2025-03-11" }, "--to: 2025-03-11T00:00:00Z is in the future"],
    [{ from: "2025-04-01" }, "--from: 2025-04-01T00:00:00Z is not in the past"],
    [{ from: "P1D", granularity: "PT10S" }, "--granularity: must be at least PT30S"],
    [{ from: "P1D", granularity: "PT30.5S" }, "--granularity: must be whole seconds"],
    [{ from: "P1D", granularity: "soon" }, "--granularity: is not an ISO 8601 duration"],
    [{ from: "yesterday" }, "--from: not an ISO 8601 UTC time"],
    [{ from: "2025-03-01T00:00:00" }, "--from: not an ISO 8601 UTC time"],
    [{ from: "P1D", to: "P1D" }, "--to: not an ISO 8601 UTC time"],
    [{ from: "P1M" }, '--from: "P1M" uses years or months'],
    [{ from: "2025-03-01T00:00:10Z", to: "2025-03-01T00:00:50Z" }, "--from: no whole bucket"],
  ])("%j is refused: %s", (args, message) => {
    expect(() => resolveWindow(args, METRICS, NOW)).toThrow(BackfillArgsError);
    expect(() => resolveWindow(args, METRICS, NOW)).toThrow(message);
  });

  it("keeps the base flags valid", () => {
    expect(parseBackfillArgs([...BASE, "--from", "P1D"], {}).output).toBe("out.om");
  });
});
