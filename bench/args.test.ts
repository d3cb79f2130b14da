import { describe, expect, it } from "vitest";
import { parseBenchArgs, parseSoakArgs } from "./args.js";
import { DEPLOYED_RUNTIME, NODE_DEFAULTS } from "./runtime.js";

describe("parseBenchArgs", () => {
  it("has the documented defaults", () => {
    expect(parseBenchArgs([])).toEqual({
      help: false,
      clusters: 1000,
      fitClusters: true,
      scrapes: 200,
      baselineScrapes: 100,
      series: 100_000,
      metricsOnly: false,
      budget: [],
      modes: ["fixed", "sliding", "token_bucket"],
      cycles: 3,
      startupStall: false,
      runtime: DEPLOYED_RUNTIME,
      steady: false,
    });
  });

  it.each([
    { argv: ["--clusters", "50"], want: { clusters: 50, fitClusters: false } },
    { argv: ["--clusters", "1000"], want: { clusters: 1000, fitClusters: false } },
    { argv: ["--scrapes", "20"], want: { scrapes: 20, baselineScrapes: 100 } },
    { argv: ["--scrapes", "300", "--baseline-scrapes", "50"], want: { scrapes: 300, baselineScrapes: 50 } },
    { argv: ["--series", "5000", "--metrics-only"], want: { series: 5000, metricsOnly: true } },
    { argv: ["--steady", "--scrapes", "100"], want: { steady: true, scrapes: 100 } },
    { argv: ["--steady", "--keys", "3"], want: { steady: true, keys: 3 } },
    { argv: ["--help"], want: { help: true } },
    { argv: ["--budget", "90,95, 100,110"], want: { budget: [90, 95, 100, 110] } },
    {
      argv: ["--budget", "95", "--rate-limit-mode", "sliding,fixed,sliding", "--cycles", "2"],
      want: { budget: [95], modes: ["sliding", "fixed"], cycles: 2 },
    },
    { argv: ["--startup-stall"], want: { startupStall: true, budget: [] } },
    { argv: ["--runtime", "node-defaults"], want: { runtime: NODE_DEFAULTS } },
  ])("reads $argv", ({ argv, want }) => {
    expect(parseBenchArgs(argv)).toMatchObject(want);
  });

  it.each([
    { argv: ["--clusters", "0"], message: "--clusters must be a number from 1" },
    { argv: ["--clusters", "1.5"], message: "--clusters must be a whole number" },
    { argv: ["--scrapes", "many"], message: "--scrapes must be a number" },
    { argv: ["--scrapes="], message: "--scrapes must be a number" },
    { argv: ["--unknown"], message: "Unknown option" },
    { argv: ["positional"], message: "positional" },
    { argv: ["--budget", "90,,95"], message: "--budget must be a comma-separated list" },
    { argv: ["--budget", "0"], message: "--budget must be a number from 1 to 300, got 0" },
    { argv: ["--rate-limit-mode", "leaky"], message: "--rate-limit-mode takes fixed, sliding, token_bucket" },
    { argv: ["--cycles", "0"], message: "--cycles must be a number from 1" },
    { argv: ["--keys", "0"], message: "--keys must be a number from 1 to 100" },
    { argv: ["--budget", "90", "--startup-stall"], message: "separate runs" },
    { argv: ["--runtime", "tuned"], message: "--runtime takes deployed, node-defaults, got tuned" },
  ])("rejects $argv", ({ argv, message }) => {
    expect(() => parseBenchArgs(argv)).toThrow(expect.objectContaining({ code: "bad_arguments" }));
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });
});

describe("parseSoakArgs", () => {
  it.each([
    { argv: [], want: { help: false, minutes: 3, clusters: 20 } },
    { argv: ["--minutes", "2.5", "--clusters", "5"], want: { help: false, minutes: 2.5, clusters: 5 } },
  ])("reads $argv", ({ argv, want }) => {
    expect(parseSoakArgs(argv)).toEqual({
      ...want,
      series: 0,
      reloadMinutes: 2,
      runtime: DEPLOYED_RUNTIME,
    });
  });

  it("reads the scale, reload and runtime flags", () => {
    expect(
      parseSoakArgs(["--series", "100000", "--reload-every", "0", "--runtime", "node-defaults"]),
    ).toMatchObject({ series: 100_000, reloadMinutes: 0, runtime: NODE_DEFAULTS });
  });

  it.each([
    { argv: ["--minutes", "1"] },
    { argv: ["--clusters", "-1"] },
    { argv: ["--series", "-5"] },
    { argv: ["--reload-every", "soon"] },
  ])("rejects $argv", ({ argv }) => {
    expect(() => parseSoakArgs(argv)).toThrow(expect.objectContaining({ code: "bad_arguments" }));
  });
});
