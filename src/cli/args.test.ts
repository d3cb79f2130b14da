import { describe, expect, it } from "vitest";
import { ArgsError, parseCli } from "./args.js";

describe("parseCli", () => {
  it.each([
    {
      argv: ["--config", "c.yaml"],
      want: { mode: "run", configPath: "c.yaml", logLevel: "info", shard: { index: 0, total: 1 } },
    },
    { argv: ["--config", "c.yaml", "--check-config"], want: { mode: "check", configPath: "c.yaml" } },
    { argv: ["--demo"], want: { mode: "demo" } },
    { argv: ["--demo", "--listen", "127.0.0.1:0"], want: { mode: "demo", listen: "127.0.0.1:0" } },
    {
      argv: ["--config", "c", "--shard", "2", "--total-shards", "3"],
      want: { shard: { index: 2, total: 3 } },
    },
    { argv: ["--config", "c", "--log-level", "debug"], want: { logLevel: "debug" } },
    { argv: ["--help"], want: { mode: "help" } },
    { argv: ["--version"], want: { mode: "version" } },
  ])("$argv", ({ argv, want }) => {
    expect(parseCli(argv)).toMatchObject(want);
  });

  it.each([
    { argv: [], message: "--config: required" },
    { argv: ["--config"], message: "argument missing" },
    { argv: ["--bogus"], message: "Unknown option '--bogus'" },
    { argv: ["--config", "c", "--shard", "3", "--total-shards", "3"], message: "--shard: must be below" },
    { argv: ["--config", "c", "--total-shards", "0"], message: "--total-shards: must be at least 1" },
    { argv: ["--config", "c", "--shard", "-1"], message: "--shard" },
    { argv: ["--config", "c", "--log-level", "loud"], message: "--log-level: must be one of" },
    { argv: ["--demo", "--check-config"], message: "--check-config: needs --config" },
    { argv: ["stray"], message: "positional" },
  ])("rejects $argv", ({ argv, message }) => {
    expect(() => parseCli(argv)).toThrow(ArgsError);
    expect(() => parseCli(argv)).toThrow(message);
  });
});
