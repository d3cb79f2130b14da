/**
 * One warning per refused metric name, not one per target: a name the service refuses is
 * usually refused for every cluster alike, and fifty identical lines hide the one that matters.
 * Targets discover a refusal independently (each in its own poll), so changes are gathered for
 * a short while and then logged once per name whose set of affected targets changed since it
 * was last logged.
 */
import type { Logger as PinoLogger } from "pino";
import { stateSlot } from "../../polling/model.js";
import { ChangeLog, CoalescingWindow } from "../../shared/changeLog.js";

/** How long refusals found by different targets are gathered before one warning per name. */
export const WARNING_COALESCE_MS = 1000;

/** Where a refused name was refused: target -> the statistic asked and the service's message. */
type Affected = Map<string, { readonly stat: string | undefined; readonly message: string }>;

/** What one warning says about a name; also what the tests read. */
interface NameWarning {
  readonly metric: string;
  /** Statistics refused, sorted ("" for a query without one). */
  readonly stats: readonly string[];
  /** How many targets have the name in quarantine now. */
  readonly targets: number;
  /** A few of them, sorted, so that the line says where without listing hundreds. */
  readonly examples: readonly string[];
  /** The service's message (the most recent). */
  readonly upstream: string;
}

const EXAMPLES = 5;

/** The sorted targets of a name's affected entries. */
function targetsOf(affected: Affected): string[] {
  return [...new Set([...affected.keys()].map((k) => k.slice(0, k.indexOf("\u0000"))))].sort();
}

/** What the warnings are written to. */
type Logger = Pick<PinoLogger, "warn" | "info">;

/**
 * The refused names of every metrics target, and what was last logged for each. One per
 * process (the `METRIC_REFUSAL_WARNINGS` state slot), like the refusal book.
 */
export class RefusalWarnings {
  private readonly byName = new Map<string, Affected>();
  /** Name -> the sorted targets of its last log line ("" when none logged). */
  private readonly logged = new ChangeLog<string>({ quiet: "" });
  private readonly lastMessage = new Map<string, string>();
  private readonly window: CoalescingWindow;
  private logger: Logger | undefined;

  constructor(coalesceMs = WARNING_COALESCE_MS) {
    this.window = new CoalescingWindow(coalesceMs, () => this.log());
  }

  /** `target` has `metric` (with `stat`) in quarantine, refused with `message`. */
  refused(
    logger: Logger | undefined,
    target: string,
    refusal: { name: string; stat?: string | undefined },
    message: string,
  ): void {
    let affected = this.byName.get(refusal.name);
    if (affected === undefined) {
      affected = new Map();
      this.byName.set(refusal.name, affected);
    }
    affected.set(`${target}\u0000${refusal.stat ?? ""}`, { stat: refusal.stat, message });
    this.lastMessage.set(refusal.name, message);
    this.schedule(logger);
  }

  /** `target` had `metric` (with `stat`) answered again: it is no longer affected. */
  answered(
    logger: Logger | undefined,
    target: string,
    refusal: { name: string; stat?: string | undefined },
  ): void {
    if (this.byName.get(refusal.name)?.delete(`${target}\u0000${refusal.stat ?? ""}`)) this.schedule(logger);
  }

  /**
   * Forgets targets not in `keep` (removed from the config or this shard), silently: a target
   * that is gone is no news about the name. Called while tasks are built, when no logger is
   * at hand (the polling schedule of `--check-config` builds them too).
   */
  retain(keep: ReadonlySet<string>): void {
    for (const [metric, affected] of this.byName) {
      let changed = false;
      for (const key of affected.keys()) {
        if (!keep.has(key.slice(0, key.indexOf("\u0000")))) changed = affected.delete(key) || changed;
      }
      if (!changed || !this.logged.has(metric)) continue;
      if (affected.size === 0) this.byName.delete(metric);
      this.logged.record(metric, targetsOf(affected).join("\u0000"));
    }
  }

  /** The warnings due now (names whose set of targets changed since last logged), marked logged. */
  due(): { warnings: NameWarning[]; cleared: string[] } {
    const warnings: NameWarning[] = [];
    const cleared: string[] = [];
    for (const [metric, affected] of [...this.byName].sort(([a], [b]) => a.localeCompare(b))) {
      const targets = targetsOf(affected);
      if (!this.logged.changed(metric, targets.join("\u0000"))) continue;
      if (targets.length === 0) {
        cleared.push(metric);
        this.byName.delete(metric);
        continue;
      }
      const stats = [...new Set([...affected.values()].map((v) => v.stat ?? ""))].sort();
      warnings.push({
        metric,
        stats,
        targets: targets.length,
        examples: targets.slice(0, EXAMPLES),
        upstream: this.lastMessage.get(metric) ?? "",
      });
    }
    return { warnings, cleared };
  }

  /** Logs what is due now, without waiting for the window to close. */
  flush(): void {
    this.window.close();
  }

  private log(): void {
    const { warnings, cleared } = this.due();
    for (const w of warnings) {
      this.logger?.warn(
        { collector: "cluster_metrics", ...w },
        "metric refused by the service; not asked again for these targets until metrics.quarantine has passed",
      );
    }
    for (const metric of cleared) {
      this.logger?.info({ collector: "cluster_metrics", metric }, "metric accepted again by the service");
    }
  }

  private schedule(logger: Logger | undefined): void {
    if (logger !== undefined) this.logger = logger;
    this.window.touch();
  }
}

/** The warnings' state slot: one per process, kept across reloads. */
export const METRIC_REFUSAL_WARNINGS = stateSlot("metric refusal warnings", () => new RefusalWarnings());
