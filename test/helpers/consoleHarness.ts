/**
 * An exporter that polls the account-wide console listings (and the inventory, which knows the
 * projects) and nothing else, on a manual clock that has run the first cycle: the start of every
 * test of a per-project listing collector against the simulator.
 */
import { afterEach, expect } from "vitest";
import { type Harness, matching, parseSamples, sampleValue, startHarness } from "./harness.js";
import { ManualClock } from "./manualClock.js";
import { sectionsOff } from "./sectionsOff.js";

/** What a console listing test varies. */
export interface ConsoleHarnessOptions {
  readonly sim?: Record<string, unknown>;
  readonly shard?: { index: number; total: number };
  /** Edits of the raw config after the other collectors are turned off (e.g. another listing off). */
  readonly config?: (raw: Record<string, unknown>) => void;
}

/** The harness, its logs and its clock. The caller closes the harness. */
export async function startConsoleHarness(
  opts: ConsoleHarnessOptions = {},
): Promise<{ harness: Harness; logs: string[]; clock: ManualClock }> {
  const clock = new ManualClock(Date.now());
  const logs: string[] = [];
  const harness = await startHarness({
    clock,
    logs,
    sim: { clusters: 4, ...opts.sim },
    ...(opts.shard ? { shard: opts.shard } : {}),
    config: (raw) => {
      raw.metrics = { enabled: false };
      raw.import_jobs = { enabled: false };
      raw.spark_jobs = { jobs: [], discovery: { enabled: false } };
      raw.jobs = { ids: [] };
      raw.backups = { enabled: false };
      raw.global_clusters = { enabled: false };
      opts.config?.(raw);
    },
  });
  await clock.advance(0);
  await harness.settle();
  return { harness, logs, clock };
}

/** What a test file of one console listing starts with, unless a test says otherwise. */
interface ConsoleHarnessDefaults {
  /** The simulator options of its collector's bad case. */
  readonly sim?: Record<string, unknown>;
  /** The sections left on (every other section that can be is turned off). */
  readonly only?: readonly string[];
}

/**
 * Gives the calling test file a start function: `startConsoleHarness` with `defaults` under the
 * test's own options (its `sim` over theirs, its `config` after theirs), each harness closed
 * after its test.
 */
export function useConsoleHarness(defaults: ConsoleHarnessDefaults) {
  let current: Harness | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (opts: ConsoleHarnessOptions = {}) => {
    const started = await startConsoleHarness({
      sim: { ...defaults.sim, ...opts.sim },
      ...(opts.shard ? { shard: opts.shard } : {}),
      config: (raw) => {
        if (defaults.only) Object.assign(raw, sectionsOff(...defaults.only));
        opts.config?.(raw);
      },
    });
    current = started.harness;
    return started;
  };
}

/**
 * Checks what a key refused a role leaves: the target up, not permitted for `credential`, and
 * one warning naming the collector, whatever number of polls it took. Returns that warning.
 */
export async function expectNotPermittedOnce(
  harness: Harness,
  logs: readonly string[],
  target: { readonly collector: string; readonly target: string },
  credential = "default",
): Promise<string> {
  const text = await harness.metrics();
  expect(sampleValue(text, "vdbcloud_collector_up", target)).toBe(1);
  expect(sampleValue(text, "vdbcloud_collector_not_permitted", { ...target, credential })).toBe(1);
  const warnings = logs.filter(
    (l) => l.includes("credential lacks the permission") && l.includes(target.collector),
  );
  expect(warnings).toHaveLength(1);
  return warnings[0] ?? "";
}

/**
 * Checks what a key the service refuses on one listing leaves: that target down and not "not
 * permitted", and the inventory, through the same key, up. Returns how many series of `listed`
 * the last good listing still shows (kept until the staleness bound).
 */
async function expectRefusedOnlyHere(
  harness: Harness,
  target: { readonly collector: string; readonly target: string },
  listed: string,
): Promise<number> {
  const text = await harness.metrics();
  const samples = parseSamples(text);
  expect(sampleValue(text, "vdbcloud_collector_up", target)).toBe(0);
  expect(matching(samples, "vdbcloud_collector_not_permitted", target)).toEqual([]);
  const others = matching(samples, "vdbcloud_collector_up", { collector: "inventory" });
  expect(others.length).toBeGreaterThan(0);
  for (const s of others) expect(s.value, JSON.stringify(s.labels)).toBe(1);
  return matching(samples, listed, {}).length;
}

/** Everything a person reads of the exporter, by where: /metrics, the landing page and its data, the logs. */
export async function everyOutput(
  harness: Harness,
  logs: readonly string[],
): Promise<ReadonlyArray<readonly [string, string]>> {
  return [
    ["/metrics", await harness.metrics()],
    ["GET /", await (await fetch(`${harness.url}/`)).text()],
    ["landing info", JSON.stringify(await harness.exporter.landing())],
    ["logs", logs.join("\n")],
  ];
}

/** Advances past the next run of a PT1M task (half an interval to an interval and a half after the last). */
export async function nextListing(harness: Harness, clock: ManualClock): Promise<void> {
  for (let i = 0; i < 4; i++) {
    await clock.advance(30_000);
    await harness.settle();
  }
}

/**
 * Has the service refuse the key on `endpoint` from now on (1800 "User hasn't authenticated"),
 * lets the next listing meet it, and checks what `expectRefusedOnlyHere` checks; returns how
 * many series of `listed` the last good listing still shows.
 */
export async function refuseKeyOnNextListing(
  harness: Harness,
  clock: ManualClock,
  endpoint: string,
  target: { readonly collector: string; readonly target: string },
  listed: string,
): Promise<number> {
  harness.sim.faults.set("catalogue_refusal", { rate: 1, endpoints: [endpoint], code: 1800 });
  await nextListing(harness, clock);
  return expectRefusedOnlyHere(harness, target, listed);
}
