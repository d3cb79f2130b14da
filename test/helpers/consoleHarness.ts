/**
 * An exporter that polls the account-wide console listings (and the inventory, which knows the
 * projects) and nothing else, on a manual clock that has run the first cycle: the start of every
 * test of a per-project listing collector against the simulator.
 */
import { type Harness, startHarness } from "./harness.js";
import { ManualClock } from "./manualClock.js";

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
