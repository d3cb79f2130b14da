import { pino } from "pino";
import { SelfMetrics } from "../../src/exposition/selfMetrics.js";
import { SampleStore } from "../../src/exposition/store.js";
import { HealthTracker } from "../../src/polling/health.js";
import type { PollContext } from "../../src/polling/runtime.js";

/**
 * A poll context over the real store, health and self-metrics, for collector tests that read
 * what /metrics would show: every log line (JSON, as the exporter writes them) lands in `logs`.
 */
export function storeContext(nowMs: number): {
  readonly ctx: PollContext;
  readonly store: SampleStore;
  readonly health: HealthTracker;
  readonly self: SelfMetrics;
  readonly logs: string[];
  /** The store's exposition text, published now. */
  text(): Promise<string>;
} {
  const logs: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void logs.push(line) });
  const store = new SampleStore({ now: () => nowMs });
  const health = new HealthTracker(store, logger, () => nowMs);
  const self = new SelfMetrics({ version: "test", defaultMetrics: false });
  const ctx: PollContext = { store, health, self, now: () => nowMs, logger };
  return {
    ctx,
    store,
    health,
    self,
    logs,
    text: async () => (await store.publishNow()).text.toString("utf8"),
  };
}
