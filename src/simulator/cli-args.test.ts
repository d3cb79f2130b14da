import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./cli-args.js";
import { ALL_QUIRKS } from "./quirks.js";

describe("parseCliArgs", () => {
  it("maps flags to options", () => {
    expect(
      parseCliArgs([
        "--port",
        "8080",
        "--clusters",
        "20",
        "--time-scale",
        "10",
        "--list-clusters-shape",
        "array",
        "--rate-limit-mode",
        "token_bucket",
        "--api-key",
        "a",
        "--api-key",
        "b",
        "--billing-key",
        "bill",
        "--verbose",
      ]),
    ).toEqual({
      help: false,
      verbose: true,
      options: {
        port: 8080,
        clusters: 20,
        timeScale: 10,
        listClustersShape: "array",
        rateLimitMode: "token_bucket",
        apiKeys: ["a", "b"],
        billingKeys: ["bill"],
      },
    });
  });

  it.each([
    { argv: ["--retire-v1"], want: { retireV1: true } },
    { argv: ["--native-histogram-sum-count"], want: { nativeHistogramSumCount: true } },
    { argv: ["--remove-v2-import-list"], want: { removeV2ImportList: true } },
    { argv: ["--retire-v1", "--remove-v2-import-list"], want: { retireV1: true, removeV2ImportList: true } },
  ])("switches removed endpoints: $argv", ({ argv, want }) => {
    expect(parseCliArgs(argv)).toEqual({ help: false, verbose: false, options: want });
  });

  it("leaves defaults to the simulator", () => {
    expect(parseCliArgs([])).toEqual({ help: false, verbose: false, options: {} });
    expect(parseCliArgs(["--help"])).toEqual({ help: true });
  });

  it.each([
    [["--port", "eighty"], /--port must be a number/],
    [["--list-clusters-shape", "list"], /array or object/],
    [
      ["--rate-limit-mode", "leaky"],
      /--rate-limit-mode must be one of fixed, sliding, token_bucket, got leaky/,
    ],
    [["--bogus"], /bogus/],
    [["positional"], /positional/i],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION", message: expect.stringMatching(message) }),
    );
  });
});

describe("--quirks", () => {
  it.each<[raw: string, want: unknown]>([
    ["all", ALL_QUIRKS],
    ["openBucket", { openBucket: true }],
    ["statlessResults, countUnits", { statlessResults: true, countUnits: true }],
    ["importPageCap=7,oddSparkFields", { importPageCap: 7, oddSparkFields: true }],
  ])("%s", (raw, want) => {
    const args = parseCliArgs(["--quirks", raw]);
    expect(args.help === false && args.options.quirks).toEqual(want);
  });

  it.each(["nope", "openBucket=1", "importPageCap"])("rejects %s", (raw) => {
    expect(() => parseCliArgs(["--quirks", raw])).toThrow(/--quirks/);
  });
});
