import { describe, expect, it } from "vitest";
import { USAGE } from "../cli/args.js";
import {
  type Env,
  flagName,
  formatSetting,
  isLongRunning,
  nodeOptionsTokens,
  RuntimeSettingError,
  resolveRuntime,
} from "./resolve.js";
import { RELAUNCH_MARKER, RUNTIME_CONTROLS, RUNTIME_SETTINGS, type RuntimeSettings } from "./settings.js";

/** A definition of the same shape, so the rules are tested apart from today's values. */
const SETTINGS: RuntimeSettings = {
  nodeFlags: ["--max-semi-space-size=2", "--heap-growing-percent=25"],
  env: { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" },
};
const ALL_ADDED = [
  "add --max-semi-space-size=2",
  "add --heap-growing-percent=25",
  "add MALLOC_ARENA_MAX=2",
  "add MALLOC_MMAP_THRESHOLD_=131072",
];

const plan = (execArgv: string[], env: Env) => resolveRuntime({ execArgv, env }, SETTINGS);
/** The settings a run has, as `NAME=value` (`NAME (not set)`). */
const settingsOf = (execArgv: string[], env: Env) => plan(execArgv, env).settings.map(formatSetting);

describe("resolveRuntime", () => {
  it.each([
    {
      name: "plain node: everything is added",
      execArgv: [],
      env: {},
      changes: ALL_ADDED,
      argv: ["--max-semi-space-size=2", "--heap-growing-percent=25"],
    },
    {
      name: "started as the image starts it: nothing to do",
      execArgv: ["--max-semi-space-size=2", "--heap-growing-percent=25"],
      env: { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" },
      changes: [],
      argv: null,
    },
    {
      name: "a user's own values win: a flag on the command line, one in NODE_OPTIONS, a variable",
      execArgv: ["--heap_growing_percent=50"],
      env: { NODE_OPTIONS: "--max-semi-space-size=8 --import=x", MALLOC_ARENA_MAX: "4" },
      changes: ["add MALLOC_MMAP_THRESHOLD_=131072"],
      argv: ["--heap_growing_percent=50"],
    },
    {
      name: "an empty variable counts as unset",
      execArgv: ["--max-semi-space-size=2", "--heap-growing-percent=25"],
      env: { MALLOC_ARENA_MAX: "", MALLOC_MMAP_THRESHOLD_: "131072" },
      changes: ["add MALLOC_ARENA_MAX=2"],
      argv: ["--max-semi-space-size=2", "--heap-growing-percent=25"],
    },
    {
      name: "other node options stay, after the added flags",
      execArgv: ["--expose-gc", "--import", "probe.js"],
      env: { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" },
      changes: ["add --max-semi-space-size=2", "add --heap-growing-percent=25"],
      argv: ["--max-semi-space-size=2", "--heap-growing-percent=25", "--expose-gc", "--import", "probe.js"],
    },
    {
      name: "VDBCLOUD_RUNTIME=off in the image: its flags and variables are removed",
      execArgv: ["--max-semi-space-size=2", "--heap-growing-percent=25"],
      env: { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072", VDBCLOUD_RUNTIME: "off" },
      changes: [
        "remove --max-semi-space-size=2",
        "remove --heap-growing-percent=25",
        "remove MALLOC_ARENA_MAX",
        "remove MALLOC_MMAP_THRESHOLD_",
      ],
      argv: [],
    },
    {
      name: "VDBCLOUD_RUNTIME=off on plain node: nothing to do",
      execArgv: [],
      env: { VDBCLOUD_RUNTIME: "off" },
      changes: [],
      argv: null,
    },
    {
      name: "VDBCLOUD_RUNTIME=on is the default",
      execArgv: [],
      env: { VDBCLOUD_RUNTIME: "on" },
      changes: ALL_ADDED,
      argv: ["--max-semi-space-size=2", "--heap-growing-percent=25"],
    },
    {
      name: "VDBCLOUD_NODE_FLAGS replaces the flags, in the image too (one changed, one dropped)",
      execArgv: ["--max-semi-space-size=2", "--heap-growing-percent=25"],
      env: {
        MALLOC_ARENA_MAX: "2",
        MALLOC_MMAP_THRESHOLD_: "131072",
        VDBCLOUD_NODE_FLAGS: "--max-semi-space-size=4",
      },
      changes: [
        "remove --max-semi-space-size=2",
        "remove --heap-growing-percent=25",
        "add --max-semi-space-size=4",
      ],
      argv: ["--max-semi-space-size=4"],
    },
    {
      name: "VDBCLOUD_NODE_FLAGS=none drops every flag and leaves the variables",
      execArgv: [],
      env: { VDBCLOUD_NODE_FLAGS: "none" },
      changes: ["add MALLOC_ARENA_MAX=2", "add MALLOC_MMAP_THRESHOLD_=131072"],
      argv: [],
    },
    {
      name: "VDBCLOUD_NODE_FLAGS that the command line already has: nothing to do",
      execArgv: ["--heap-growing-percent=30", "--expose-gc"],
      env: {
        MALLOC_ARENA_MAX: "2",
        MALLOC_MMAP_THRESHOLD_: "131072",
        VDBCLOUD_NODE_FLAGS: "--heap-growing-percent=30",
      },
      changes: [],
      argv: null,
    },
    {
      name: "VDBCLOUD_RUNTIME_ENV replaces the variables: one changed, one removed, one new",
      execArgv: ["--max-semi-space-size=2", "--heap-growing-percent=25"],
      env: {
        MALLOC_ARENA_MAX: "2",
        MALLOC_MMAP_THRESHOLD_: "131072",
        VDBCLOUD_RUNTIME_ENV: "MALLOC_ARENA_MAX=4 MALLOC_TRIM_THRESHOLD_=65536",
      },
      changes: [
        "replace MALLOC_ARENA_MAX=4",
        "remove MALLOC_MMAP_THRESHOLD_",
        "add MALLOC_TRIM_THRESHOLD_=65536",
      ],
      argv: ["--max-semi-space-size=2", "--heap-growing-percent=25"],
    },
  ])("$name", ({ execArgv, env, changes, argv }) => {
    const p = plan(execArgv, env);
    expect(p.changes).toEqual(changes);
    expect(p.relaunch?.execArgv ?? null).toEqual(argv);
    expect(p.relaunched).toBe(false);
  });

  it("gives the whole environment to relaunch with: the user's NODE_OPTIONS and other variables kept", () => {
    const env = { NODE_OPTIONS: "--max-old-space-size=300", PATH: "/bin", MALLOC_ARENA_MAX: "4" };
    expect(plan([], env).relaunch?.env).toEqual({ ...env, MALLOC_MMAP_THRESHOLD_: "131072" });
    const off = plan(["--heap-growing-percent=25"], { ...env, VDBCLOUD_RUNTIME: "off" }).relaunch?.env;
    expect(off).toEqual({ NODE_OPTIONS: "--max-old-space-size=300", PATH: "/bin", VDBCLOUD_RUNTIME: "off" });
  });

  it("says what a run has, and where each setting comes from", () => {
    const p = plan(["--heap-growing-percent=50"], { NODE_OPTIONS: "--max-semi-space-size=8" });
    expect(p.control).toBe("built-in");
    expect(p.settings).toEqual([
      {
        kind: "node flag",
        name: "--max-semi-space-size",
        value: "8",
        source: "NODE_OPTIONS",
        builtIn: "2",
        byLauncher: false,
      },
      {
        kind: "node flag",
        name: "--heap-growing-percent",
        value: "50",
        source: "command line",
        builtIn: "25",
        byLauncher: false,
      },
      {
        kind: "environment variable",
        name: "MALLOC_ARENA_MAX",
        value: "2",
        source: "environment",
        builtIn: "2",
        byLauncher: true,
      },
      {
        kind: "environment variable",
        name: "MALLOC_MMAP_THRESHOLD_",
        value: "131072",
        source: "environment",
        builtIn: "131072",
        byLauncher: true,
      },
    ]);
    // This process itself does not have the variables yet.
    expect(p.inForce.map(formatSetting)).toEqual([
      "--max-semi-space-size=8",
      "--heap-growing-percent=50",
      "MALLOC_ARENA_MAX (not set)",
      "MALLOC_MMAP_THRESHOLD_ (not set)",
    ]);
  });

  it("a flag the command line gives wins over the same flag in NODE_OPTIONS, as in Node", () => {
    const env = { NODE_OPTIONS: "--max-semi-space-size=8", VDBCLOUD_NODE_FLAGS: "--max-semi-space-size=4" };
    expect(settingsOf([], env)).toContain("--max-semi-space-size=4");
    expect(plan([], env).settings.find((s) => s.name === "--max-semi-space-size")?.source).toBe(
      "command line",
    );
    // Off: the flag in NODE_OPTIONS is the user's, and stays in force.
    expect(settingsOf([], { NODE_OPTIONS: "--max-semi-space-size=8", VDBCLOUD_RUNTIME: "off" })).toEqual([
      "--max-semi-space-size=8",
      "--heap-growing-percent (not set)",
      "MALLOC_ARENA_MAX (not set)",
      "MALLOC_MMAP_THRESHOLD_ (not set)",
    ]);
  });

  it("names who chose the settings", () => {
    expect(plan([], { VDBCLOUD_RUNTIME: "off" }).control).toBe("VDBCLOUD_RUNTIME=off");
    expect(plan([], { VDBCLOUD_NODE_FLAGS: "none", VDBCLOUD_RUNTIME_ENV: "none" }).control).toBe(
      "built-in, replaced by VDBCLOUD_NODE_FLAGS and VDBCLOUD_RUNTIME_ENV",
    );
    // Empty counts as unset, as for every VDBCLOUD_* variable.
    expect(plan([], { VDBCLOUD_RUNTIME: "", VDBCLOUD_NODE_FLAGS: " " }).changes).toEqual(ALL_ADDED);
  });

  it("never relaunches a process the launcher started (no loop), but still says what it lacks", () => {
    const p = plan([], { [RELAUNCH_MARKER]: "fd:3" });
    expect(p.relaunched).toBe(true);
    expect(p.relaunch).toBeNull();
    expect(p.changes).toEqual(ALL_ADDED);
  });

  it.each([
    { env: { VDBCLOUD_RUNTIME: "no" }, message: 'VDBCLOUD_RUNTIME: must be on or off, got "no"' },
    {
      env: { VDBCLOUD_RUNTIME: "off", VDBCLOUD_NODE_FLAGS: "--x" },
      message: "VDBCLOUD_RUNTIME: off leaves no setting, so VDBCLOUD_NODE_FLAGS cannot go with it",
    },
    {
      env: { VDBCLOUD_NODE_FLAGS: "max-semi-space-size=2" },
      message: 'VDBCLOUD_NODE_FLAGS: "max-semi-space-size=2" is not a node flag',
    },
    { env: { VDBCLOUD_NODE_FLAGS: "--a=1 --a=2" }, message: "VDBCLOUD_NODE_FLAGS: --a is given twice" },
    {
      env: { VDBCLOUD_RUNTIME_ENV: "MALLOC_ARENA_MAX" },
      message: 'VDBCLOUD_RUNTIME_ENV: "MALLOC_ARENA_MAX" is not NAME=value',
    },
    {
      env: { VDBCLOUD_RUNTIME_ENV: "NODE_OPTIONS=--x" },
      message: "VDBCLOUD_RUNTIME_ENV: may not set NODE_OPTIONS",
    },
    { env: { VDBCLOUD_RUNTIME_ENV: "A=1 A=2" }, message: "VDBCLOUD_RUNTIME_ENV: A is given twice" },
  ])("refuses $env with a message naming the variable", ({ env, message }) => {
    expect(() => plan([], env)).toThrow(RuntimeSettingError);
    expect(() => plan([], env)).toThrow(message);
  });

  it("--help names every control variable", () => {
    for (const name of Object.values(RUNTIME_CONTROLS)) expect(USAGE).toContain(name);
  });

  it("defaults to the project's one definition", () => {
    const p = resolveRuntime({ execArgv: [], env: {} });
    expect(p.relaunch?.execArgv).toEqual(RUNTIME_SETTINGS.nodeFlags);
    expect(p.relaunch?.env).toEqual(RUNTIME_SETTINGS.env);
    // Every built-in flag is written as Node takes it on the command line: with its value, or
    // bare for a V8 switch (V8 refuses `=true`).
    for (const f of RUNTIME_SETTINGS.nodeFlags) expect(f).toMatch(/^--[a-z0-9-]+(=\S+)?$/);
  });
});

describe("flag and NODE_OPTIONS parsing", () => {
  it.each([
    ["--heap-growing-percent=25", "--heap-growing-percent"],
    ["--heap_growing_percent=25", "--heap-growing-percent"],
    ["--expose-gc", "--expose-gc"],
    ["-r", undefined],
    ["probe.js", undefined],
  ])("flagName(%s) = %s", (token, name) => {
    expect(flagName(token)).toBe(name);
  });

  it("splits NODE_OPTIONS on spaces, with double-quoted values", () => {
    expect(nodeOptionsTokens('--a=1  --require "./my dir/x.js" --b="q \\"x\\""')).toEqual([
      "--a=1",
      "--require",
      "./my dir/x.js",
      '--b=q "x"',
    ]);
    expect(nodeOptionsTokens(undefined)).toEqual([]);
  });
});

describe("isLongRunning", () => {
  it.each([
    [["--config", "c.yaml"], true],
    [["--demo"], true],
    [[], true],
    [["--config", "c.yaml", "--check-config"], false],
    [["--config", "c.yaml", "--probe"], false],
    [["--help"], false],
    [["-h"], false],
    [["--version"], false],
    [["backfill", "--config", "c.yaml"], false],
  ])("%j: %s", (argv, want) => {
    expect(isLongRunning(argv)).toBe(want);
  });
});
