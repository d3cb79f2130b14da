/**
 * The state of the service's own Prometheus endpoint that the simulator keeps (native-export.ts
 * serves it): when each cluster was last scraped with each key, and the endpoint's options.
 */

/** The documented minimum scrape interval. */
export const NATIVE_MIN_SCRAPE_INTERVAL_MS = 60_000;
/** A scrape up to this much early is served: a scrape 59 s or more after the last one passes. */
export const NATIVE_SCRAPE_TOLERANCE_MS = 1_000;

/**
 * When each cluster was last scraped with each key; a scrape closer than the minimum interval
 * (less the tolerance) to the last one served is refused, and `onRefused` counts it.
 */
export class NativeScrapeGuard {
  readonly #last = new Map<string, number>();

  constructor(private readonly onRefused: (clusterId: string) => void = () => {}) {}

  /** True, and remembered, when the scrape may be served now. */
  admit(clusterId: string, key: string, nowMs: number): boolean {
    const id = `${clusterId}\u0000${key}`;
    const last = this.#last.get(id);
    if (last !== undefined && nowMs - last < NATIVE_MIN_SCRAPE_INTERVAL_MS - NATIVE_SCRAPE_TOLERANCE_MS) {
      this.onRefused(clusterId);
      return false;
    }
    this.#last.set(id, nowMs);
    return true;
  }
}

/** What rendering the endpoint needs besides the cluster. */
export interface NativeExportOptions {
  readonly orgId: string;
  /** Also _sum and _count of the latency histogram (the documentation's sample has neither). */
  readonly sumAndCount: boolean;
}
