import type { DeflatedHead } from "./gzipJoin.js";
import type { Published } from "./snapshot.js";

interface GzipCacheOptions {
  readonly now: () => number;
  /** The store's latest snapshot. */
  readonly latest: () => Published;
  readonly compress: (segments: readonly (readonly Buffer[])[]) => Promise<DeflatedHead>;
  /** A format is kept compressed while a client asked for it within this long. */
  readonly idleMs: number;
  /** Background compressions of a format start at most this often. */
  readonly everyMs: number;
  readonly onError: (err: unknown) => void;
}

interface Slot {
  readonly openMetrics: boolean;
  ready: { version: number; head: DeflatedHead } | undefined;
  running: { version: number; done: Promise<DeflatedHead> } | undefined;
  askedAtMs: number;
  lastStartMs: number;
  /** The last compression failed: an older ready form is no longer served. */
  failed: boolean;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The gzip form of the published snapshots, per format, made only while clients ask for it.
 * Compressing a whole body takes long next to a scrape (docs/performance.md), so a gzip scrape is
 * served the newest compressed snapshot, which lags the latest publish by at most `everyMs`
 * plus one compression, while the latest is compressed in the background; a scrape waits
 * only when nothing of its format was compressed yet (the first gzip scrape, or the first
 * after `idleMs` without one, when the cached form is dropped to free its memory). After a
 * failed compression an older form is not served: `get` compresses anew, and rejects if that
 * fails too (the caller answers uncompressed).
 *
 * Contract: `get` returns the compression of one whole published snapshot, never a mix;
 * `upTo` (used by `publishNow`) returns once every wanted format is compressed up to `p`.
 */
export class GzipCache {
  private readonly slots: readonly [Slot, Slot];
  private closed = false;

  constructor(private readonly opts: GzipCacheOptions) {
    const slot = (openMetrics: boolean): Slot => ({
      openMetrics,
      ready: undefined,
      running: undefined,
      askedAtMs: Number.NEGATIVE_INFINITY,
      lastStartMs: Number.NEGATIVE_INFINITY,
      failed: false,
      timer: undefined,
    });
    this.slots = [slot(false), slot(true)];
  }

  /** The deflate head of a scrape of `openMetrics` format; rejects if compressing fails. */
  get(openMetrics: boolean): Promise<DeflatedHead> {
    const slot = this.slots[openMetrics ? 1 : 0];
    slot.askedAtMs = this.opts.now();
    const latest = this.opts.latest();
    if (slot.ready && (slot.ready.version >= latest.version || !slot.failed)) {
      if (slot.ready.version < latest.version) this.schedule(slot);
      return Promise.resolve(slot.ready.head);
    }
    return this.ensure(slot, latest);
  }

  /** Told after each publish: refreshes the wanted formats, drops the unwanted ones. */
  published(): void {
    for (const slot of this.slots) {
      if (this.wanted(slot)) this.schedule(slot);
      else slot.ready = undefined;
    }
  }

  /** Compresses every wanted format up to `p` (at least), now. */
  async upTo(p: Published): Promise<void> {
    await Promise.all(this.slots.filter((s) => this.wanted(s)).map((s) => this.ensure(s, p)));
  }

  close(): void {
    this.closed = true;
    for (const slot of this.slots) clearTimeout(slot.timer);
  }

  private wanted(slot: Slot): boolean {
    return this.opts.now() - slot.askedAtMs <= this.opts.idleMs;
  }

  /** One compression at a time per format, each of the latest snapshot when it starts. */
  private async ensure(slot: Slot, p: Published): Promise<DeflatedHead> {
    for (;;) {
      if (slot.ready && slot.ready.version >= p.version) return slot.ready.head;
      if (slot.running) {
        const run = slot.running;
        const head = await run.done.catch((err: unknown) => {
          if (run.version >= p.version) throw err;
          return undefined;
        });
        if (head && run.version >= p.version) return head;
        continue;
      }
      this.start(slot);
    }
  }

  private start(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    const snapshot = this.opts.latest();
    slot.lastStartMs = this.opts.now();
    const done = this.opts.compress(snapshot.segments(slot.openMetrics)).then((head) => {
      if (!slot.ready || slot.ready.version < snapshot.version)
        slot.ready = { version: snapshot.version, head };
      slot.failed = false;
      return head;
    });
    slot.running = { version: snapshot.version, done };
    done
      .catch((err: unknown) => {
        slot.failed = true;
        this.opts.onError(err);
      })
      .finally(() => {
        slot.running = undefined;
        if (this.wanted(slot) && (slot.ready?.version ?? -1) < this.opts.latest().version)
          this.schedule(slot);
      });
  }

  private schedule(slot: Slot): void {
    if (this.closed || slot.running || slot.timer) return;
    const wait = Math.max(0, slot.lastStartMs + this.opts.everyMs - this.opts.now());
    slot.timer = setTimeout(() => {
      slot.timer = undefined;
      if (!this.closed && !slot.running) this.start(slot);
    }, wait);
    slot.timer.unref();
  }
}
