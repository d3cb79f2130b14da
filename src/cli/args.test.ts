import { describe, expect, it } from "vitest";
import { ArgsError, parseCli } from "./args.js";

describe("parseCli", () => {
  it.each([
    {
      argv: ["--config", "c.yaml"],
      want: { mode: "run", configPath: "c.yaml", logLevel: "info", shard: { index: 0, total: 1 } },
    },
    { argv: ["--config", "c.yaml", "--check-config"], want: { mode: "check", configPath: "c.yaml" } },
    { argv: ["--config", "c.yaml", "--probe"], want: { mode: "probe", configPath: "c.yaml" } },
    {
      argv: ["--demo", "--demo-metric-catalog", "permissive"],
      want: { mode: "demo", demoMetricCatalog: "permissive" },
    },
    { argv: ["--demo"], want: { mode: "demo" } },
    {
      argv: ["--demo", "--demo-simulator-listen", "exporter:9475"],
      want: { mode: "demo", demoSimulatorListen: "exporter:9475" },
    },
    { argv: ["--demo", "--listen", "127.0.0.1:0"], want: { mode: "demo", listen: "127.0.0.1:0" } },
    {
      argv: ["--config", "c", "--shard", "2", "--total-shards", "3"],
      want: { shard: { index: 2, total: 3 } },
    },
    { argv: ["--config", "c", "--log-level", "debug"], want: { logLevel: "debug" } },
    { argv: ["--config", "c", "--web.enable-lifecycle"], want: { mode: "run", enableLifecycle: true } },
    { argv: ["--demo", "--web.enable-lifecycle"], want: { mode: "demo", enableLifecycle: true } },
    { argv: ["--help"], want: { mode: "help" } },
    { argv: ["--version"], want: { mode: "version" } },
  ])("$argv", ({ argv, want }) => {
    expect(parseCli(argv, { env: {} })).toMatchObject(want);
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
    { argv: ["--demo", "--probe"], message: "--probe: needs --config" },
    {
      argv: ["--config", "c.yaml", "--demo-metric-catalog", "strict"],
      message: "--demo-metric-catalog: only with --demo",
    },
    {
      argv: ["--demo", "--demo-metric-catalog", "lenient"],
      message: "--demo-metric-catalog: must be one of current, 2024, permissive, strict",
    },
    {
      argv: ["--config", "c.yaml", "--demo-simulator-listen", "127.0.0.1:9475"],
      message: "--demo-simulator-listen: only with --demo",
    },
    { argv: ["--demo", "--demo-simulator-listen", "nowhere"], message: "--demo-simulator-listen: " },
    { argv: ["--probe"], message: "--config: required" },
    {
      argv: ["--config", "c.yaml", "--probe", "--check-config"],
      message: "--probe: not with --check-config",
    },
    { argv: ["stray"], message: "positional" },
  ])("rejects $argv", ({ argv, message }) => {
    expect(() => parseCli(argv, { env: {} })).toThrow(ArgsError);
    expect(() => parseCli(argv, { env: {} })).toThrow(message);
  });

  it.each<{ argv: string[]; env: Record<string, string>; hostname?: string; want: object }>([
    {
      argv: [],
      env: { VDBCLOUD_CONFIG: "/etc/c.yaml", VDBCLOUD_LISTEN: "127.0.0.1:9000", VDBCLOUD_LOG_LEVEL: "warn" },
      want: { mode: "run", configPath: "/etc/c.yaml", listen: "127.0.0.1:9000", logLevel: "warn" },
    },
    {
      argv: ["--config", "flag.yaml"],
      env: { VDBCLOUD_CONFIG: "env.yaml" },
      want: { configPath: "flag.yaml" },
    },
    {
      argv: ["--log-level", "debug", "--config", "c"],
      env: { VDBCLOUD_LOG_LEVEL: "loud" },
      want: { logLevel: "debug" },
    },
    { argv: ["--config", "c"], env: { VDBCLOUD_LISTEN: "" }, want: { mode: "run" } },
    {
      argv: ["--config", "c"],
      env: { VDBCLOUD_SHARD: "1", VDBCLOUD_TOTAL_SHARDS: "4" },
      want: { shard: { index: 1, total: 4 } },
    },
    {
      argv: ["--config", "c", "--shard", "0"],
      env: { VDBCLOUD_SHARD: "3", VDBCLOUD_TOTAL_SHARDS: "4" },
      want: { shard: { index: 0, total: 4 } },
    },
    // The downward API yields "" where the pod-index label is missing: the host name decides.
    {
      argv: ["--config", "c"],
      env: { VDBCLOUD_SHARD: "", VDBCLOUD_TOTAL_SHARDS: "3", HOSTNAME: "vdbcloud-exporter-2" },
      want: { shard: { index: 2, total: 3 } },
    },
    {
      argv: ["--config", "c", "--shard", "from-hostname", "--total-shards", "12"],
      env: {},
      hostname: "exporter-eu-11",
      want: { shard: { index: 11, total: 12 } },
    },
    { argv: ["--config", "c"], env: { HOSTNAME: "web-7" }, want: { shard: { index: 0, total: 1 } } },
  ])("from the environment: $env", ({ argv, env, hostname, want }) => {
    expect(parseCli(argv, { env, ...(hostname !== undefined ? { hostname } : {}) })).toMatchObject(want);
  });

  it.each<{ argv: string[]; env: Record<string, string>; message: string }>([
    {
      argv: ["--config", "c"],
      env: { VDBCLOUD_LOG_LEVEL: "loud" },
      message: "VDBCLOUD_LOG_LEVEL: must be one of",
    },
    { argv: ["--config", "c"], env: { VDBCLOUD_LISTEN: "localhost" }, message: "VDBCLOUD_LISTEN: " },
    { argv: ["--config", "c", "--listen", "localhost"], env: {}, message: "--listen: " },
    {
      argv: ["--config", "c"],
      env: { VDBCLOUD_TOTAL_SHARDS: "x" },
      message: "VDBCLOUD_TOTAL_SHARDS: must be a non-negative",
    },
    {
      argv: ["--config", "c"],
      env: { VDBCLOUD_SHARD: "5", VDBCLOUD_TOTAL_SHARDS: "3" },
      message: "VDBCLOUD_SHARD: must be below the total shards (3), got 5",
    },
    {
      argv: ["--config", "c"],
      env: { VDBCLOUD_TOTAL_SHARDS: "3", HOSTNAME: "exporter" },
      message:
        'VDBCLOUD_TOTAL_SHARDS above 1 without a shard needs a host name ending in -N (a StatefulSet pod), got "exporter"',
    },
    {
      argv: ["--config", "c", "--shard", "from-hostname"],
      env: { HOSTNAME: "exporter" },
      message: "--shard: from-hostname needs a host name ending in -N",
    },
    {
      argv: ["--config", "c", "--total-shards", "2"],
      env: { HOSTNAME: "exporter-5" },
      message: "the host name's ordinal: must be below the total shards (2), got 5",
    },
  ])("rejects $env", ({ argv, env, message }) => {
    expect(() => parseCli(argv, { env })).toThrow(ArgsError);
    expect(() => parseCli(argv, { env })).toThrow(message);
  });
});

describe("--web.enable-lifecycle", () => {
  it("is off unless given", () => {
    expect(parseCli(["--config", "c"], { env: {} }).enableLifecycle).toBeUndefined();
  });
});
