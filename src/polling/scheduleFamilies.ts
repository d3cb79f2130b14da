/**
 * The part of the `--check-config` polling schedule that `families.allow` and `families.deny` decide: how
 * many families they deny, and which collectors make no call because every family they write is
 * denied, with the calls that spares.
 */

import { HEALTH_FAMILY_NAMES, PROCESS_SELF_FAMILIES, PROCESS_SELF_HISTOGRAMS } from "../metrics/families.js";
import { familyFilter } from "../metrics/familyFilter.js";
import { type Collector, type CollectorEnv, selectCollectors } from "./model.js";

/** A collector that makes no call: every family it writes is denied by `families`. */
interface SilencedCollector {
  /** Its registry name (discovery, backup_policies, ...). */
  readonly collector: string;
  /** The tasks and calls per cycle it would have made (0: it had nothing to poll anyway). */
  readonly tasks: number;
  readonly callsPerCycle: number;
  readonly atLeast: boolean;
}

/** What `families.allow` and `families.deny` leave out. */
export interface ScheduleFamilies {
  /** Every family the collectors can write under this config, the exporter's own included. */
  readonly known: number;
  /** Those the lists deny, by name. */
  readonly denied: readonly string[];
  readonly silenced: readonly SilencedCollector[];
}

/**
 * The family part of the schedule of `collectors` in `env` (the schedule's, with stand-in clients: a
 * silenced collector's tasks are built to count their calls, never run).
 */
export function scheduleFamilies(collectors: readonly Collector[], env: CollectorEnv): ScheduleFamilies {
  const { config } = env;
  const silenced = selectCollectors(collectors, config).silenced.map((c): SilencedCollector => {
    const spared = c.tasks(env);
    const calls = spared.flatMap((t) => t.calls);
    return {
      collector: c.name,
      tasks: spared.length,
      callsPerCycle: calls.reduce((n, call) => n + call.count, 0),
      atLeast: calls.some((call) => call.atLeast),
    };
  });
  const filter = familyFilter(config.families);
  const known = new Set([
    ...collectors.flatMap((c) => c.families(config)),
    ...HEALTH_FAMILY_NAMES,
    ...Object.values(PROCESS_SELF_FAMILIES).map((f) => f.name),
    ...Object.values(PROCESS_SELF_HISTOGRAMS).map((f) => f.name),
  ]);
  return { known: known.size, denied: [...known].filter((name) => !filter.exposes(name)), silenced };
}
