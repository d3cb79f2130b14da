import type { FamilyDef, Sample } from "../metrics/sample.js";
import { FamilyBody } from "./familyBody.js";
import { GzipCache } from "./gzipCache.js";
import { type DeflatedHead, deflateParts } from "./gzipJoin.js";
import { type RenderedFamily, renderChunks, renderHeader } from "./render.js";
import { type Published, Snapshot, type SnapshotFamily } from "./snapshot.js";

/** Identifies one slice of the store: the samples of one collector for one target. */
interface EntryKey {
  readonly collector: string;
  readonly target: string;
  /** Several independent slices per target, e.g. "data" (polled values) and "health". */
  readonly slot: string;
}

interface StoreOptions {
  now?: () => number;
  /** Coalesces updates: a publish happens at most this long after the first unpublished change. */
  publishDelayMs?: number;
  /**
   * Told when a background compression fails (gzip scrapes keep the previous compressed
   * snapshot, or are answered uncompressed, and the next publish tries again). Default: ignored.
   */
  onError?: (where: "publish", err: unknown) => void;
  /**
   * A compressor of a whole body, injected by tests (e.g. to make it fail); it is given a
   * joined copy. The default compresses the snapshot's buffers in blocks, never joined.
   */
  compress?: (body: Buffer) => Promise<DeflatedHead>;
  /** A format's gzip is kept up to date while a client asked for it within this long. */
  gzipIdleMs?: number;
  /** Background compressions of a format start at most this often. */
  gzipEveryMs?: number;
  /** Awaited before a timed publish, so a scrape being answered goes first (shared/foreground.ts). */
  turn?: () => Promise<void> | undefined;
}

/**
 * Which families the store keeps: the config's family lists (metrics/familyFilter.ts). A denied
 * family is left out when a poll's samples are put, so a scrape never filters anything.
 */
interface FamilySelection {
  /** Every family is kept: nothing to ask. */
  readonly everything: boolean;
  exposes(name: string): boolean;
}

const EVERY_FAMILY: FamilySelection = { everything: true, exposes: () => true };

interface Entry {
  /** The families the slice holds lines of, and the series of each (same order). */
  readonly families: readonly string[];
  readonly familySeries: readonly number[];
  readonly series: number;
  /** Epoch ms after which the entry disappears; null: never (health slots). */
  expiresAtMs: number | null;
}

interface FamilyState {
  readonly def: FamilyDef;
  /** The family's HELP and TYPE lines, encoded once: text 0.0.4 and OpenMetrics. */
  readonly textHeader: Buffer;
  readonly omHeader: Buffer;
  /** Sample lines per entry, already UTF-8, kept in few buffers (see FamilyBody). */
  readonly body: FamilyBody;
}

/**
 * A family is compacted at a publish once this share of its entries was replaced or removed
 * since its last compaction (or COMPACT_MIN_CHANGED, for small families): each entry is polled
 * once per interval, so a family is copied about 16 times per interval (docs/performance.md),
 * and a snapshot lists at most ~2 x 1/16 of its entries' buffers.
 */
const COMPACT_REPLACED_SHARE = 1 / 16;
/**
 * ... or once entries added since make up this share of it: a family that grows (the first
 * cycle, new targets) is copied about twice over its growth, not 16 times.
 */
const COMPACT_ADDED_SHARE = 1 / 2;
const COMPACT_MIN_CHANGED = 8;
/**
 * Bytes compacted per publish at most (the families with the largest share changed first; at
 * least one family per publish). Bounds the publish's pause when everything changed at once,
 * as in the first cycle; the rest waits for the next publishes.
 */
const COMPACT_BYTES_PER_PUBLISH = 4 * 1024 * 1024;

/**
 * Holds the last good samples of every collector and target, pre-rendered per family when a
 * poll lands, and publishes snapshots of them: references to the rendered buffers, taken at
 * most once per `publishDelayMs`, never a joined copy of the body (each family keeps its lines
 * in a few buffers, compacted a family at a time as entries change: see FamilyBody). Readers
 * only ever take the latest `Published` value, so a scrape costs no rendering and never waits
 * for the upstream; gzip comes from a cache that compresses snapshots only while clients ask
 * for gzip.
 *
 * Contract: `put` replaces a slice atomically; a slice with a TTL is removed by `sweep` once
 * expired; family definitions are first-come (the catalog keeps them consistent).
 */
export class SampleStore {
  private readonly families = new Map<string, FamilyState>();
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly publishDelayMs: number;
  private readonly turn: () => Promise<void> | undefined;
  private readonly gzip: GzipCache;
  private selection: FamilySelection = EVERY_FAMILY;
  private version = 0;
  private published: Published;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(opts: StoreOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.publishDelayMs = opts.publishDelayMs ?? 1000;
    this.turn = opts.turn ?? (() => undefined);
    const onError = opts.onError ?? (() => {});
    this.gzip = new GzipCache({
      now: this.now,
      latest: () => this.published,
      compress: compressWith(opts.compress),
      idleMs: opts.gzipIdleMs ?? 10 * 60_000,
      // As often as publishing: a gzip scrape lags the plain one by about one compression.
      everyMs: opts.gzipEveryMs ?? 1000,
      onError: (err) => onError("publish", err),
    });
    this.published = new Snapshot(0, [], 0, this.now(), 0);
  }

  /**
   * Replaces the slice `key` with `samples`, less those of families the selection denies.
   * `ttlMs` null means the slice never goes stale.
   */
  put(key: EntryKey, families: readonly FamilyDef[], samples: readonly Sample[], ttlMs: number | null): void {
    const id = entryId(key);
    const { selection } = this;
    const kept = selection.everything ? families : families.filter((f) => selection.exposes(f.name));
    const rendered = renderChunks(kept, samples);
    const chunks = encodeChunks(rendered);
    this.removeChunks(id);
    for (const def of families) {
      const chunk = chunks.get(def.name);
      if (chunk === undefined) continue;
      let fam = this.families.get(def.name);
      if (!fam) {
        fam = {
          def,
          textHeader: Buffer.from(renderHeader(def, false), "utf8"),
          omHeader: Buffer.from(renderHeader(def, true), "utf8"),
          body: new FamilyBody(),
        };
        this.families.set(def.name, fam);
      }
      fam.body.set(id, chunk);
    }
    const names = [...chunks.keys()];
    const familySeries = names.map((name) => rendered.get(name)?.series ?? 0);
    this.entries.set(id, {
      families: names,
      familySeries,
      series: familySeries.reduce((a, b) => a + b, 0),
      expiresAtMs: ttlMs === null ? null : this.now() + ttlMs,
    });
    this.changed();
  }

  /**
   * Keeps from now on only the families `selection` exposes (a reload's new family lists). The
   * series of the families it denies go at once, so the next publish no longer shows them; a
   * family it admits again comes back with the next poll that writes it.
   */
  setFamilySelection(selection: FamilySelection): void {
    this.selection = selection;
    const denied = new Set([...this.families.keys()].filter((name) => !selection.exposes(name)));
    if (denied.size === 0) return;
    for (const name of denied) this.families.delete(name);
    for (const [id, entry] of this.entries) {
      if (!entry.families.some((name) => denied.has(name))) continue;
      const families: string[] = [];
      const familySeries: number[] = [];
      entry.families.forEach((name, i) => {
        if (denied.has(name)) return;
        families.push(name);
        familySeries.push(entry.familySeries[i] ?? 0);
      });
      const series = familySeries.reduce((a, b) => a + b, 0);
      this.entries.set(id, { families, familySeries, series, expiresAtMs: entry.expiresAtMs });
    }
    this.changed();
  }

  /** Whether the slice is held. */
  has(key: EntryKey): boolean {
    return this.entries.has(entryId(key));
  }

  /** Removes one slice. */
  delete(key: EntryKey): void {
    const id = entryId(key);
    if (this.removeChunks(id)) {
      this.entries.delete(id);
      this.changed();
    }
  }

  /** Removes every slice whose collector and target match (all slots). */
  deleteTarget(collector: string, target: string): void {
    const prefix = `${collector}\u0000${target}\u0000`;
    for (const id of [...this.entries.keys()]) {
      if (id.startsWith(prefix) && this.removeChunks(id)) {
        this.entries.delete(id);
        this.changed();
      }
    }
  }

  /** Lists the targets held for a collector (any slot). */
  targets(collector: string): string[] {
    const prefix = `${collector}\u0000`;
    const out = new Set<string>();
    for (const id of this.entries.keys()) {
      if (id.startsWith(prefix)) out.add(id.slice(prefix.length, id.indexOf("\u0000", prefix.length)));
    }
    return [...out];
  }

  /** Lists the slots held for one target of a collector. */
  slots(collector: string, target: string): string[] {
    const prefix = `${collector}\u0000${target}\u0000`;
    return [...this.entries.keys()]
      .filter((id) => id.startsWith(prefix))
      .map((id) => id.slice(prefix.length));
  }

  /** Removes expired slices; returns how many series went away. */
  sweep(): number {
    const now = this.now();
    let removed = 0;
    for (const [id, entry] of this.entries) {
      if (entry.expiresAtMs !== null && entry.expiresAtMs <= now) {
        this.removeChunks(id);
        this.entries.delete(id);
        removed += entry.series;
      }
    }
    if (removed > 0) this.changed();
    return removed;
  }

  /** Number of series currently held (published or not). */
  seriesCount(): number {
    let n = 0;
    for (const e of this.entries.values()) n += e.series;
    return n;
  }

  /** The latest published rendering. Never blocks. */
  latest(): Published {
    return this.published;
  }

  /**
   * The deflate head of the newest compressed snapshot of a format (see GzipCache: it may lag
   * `latest()` by a few seconds; it waits only when none is compressed yet).
   */
  gzipped(openMetrics: boolean): Promise<DeflatedHead> {
    return this.gzip.get(openMetrics);
  }

  /**
   * Publishes now, and brings the gzip forms clients ask for up to date with it (a failed
   * compression rejects; the snapshot is published all the same).
   */
  async publishNow(): Promise<Published> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const published = this.published.version === this.version ? this.published : this.build();
    await this.gzip.upTo(published);
    return published;
  }

  /** Stops background publishing. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.gzip.close();
  }

  private removeChunks(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    for (const name of entry.families) {
      const fam = this.families.get(name);
      if (!fam) continue;
      fam.body.delete(id);
      if (fam.body.size === 0) this.families.delete(name);
    }
    return true;
  }

  // The timer stays set while the publish waits its turn, so changes meanwhile add no timer.
  private publishDue(timer: NodeJS.Timeout): void {
    if (this.timer === timer) this.timer = undefined;
    if (!this.closed && this.published.version !== this.version) this.build();
  }

  private changed(): void {
    this.version++;
    if (this.timer || this.closed) return;
    const timer = setTimeout(() => {
      const wait = this.turn();
      if (wait) void wait.then(() => this.publishDue(timer));
      else this.publishDue(timer);
    }, this.publishDelayMs);
    timer.unref();
    this.timer = timer;
  }

  /**
   * Takes a snapshot: references only (buffers are immutable once put or compacted), so it is
   * synchronous and consistent; it first compacts the families that changed most (see
   * FamilyBody), within COMPACT_BYTES_PER_PUBLISH.
   */
  private build(): Published {
    const started = performance.now();
    this.compactSome();
    const names = [...this.families.keys()].sort();
    const families: SnapshotFamily[] = names.map((n) => {
      const fam = this.families.get(n) as FamilyState;
      return { textHeader: fam.textHeader, omHeader: fam.omHeader, chunks: fam.body.parts() };
    });
    let series = 0;
    for (const e of this.entries.values()) series += e.series;
    this.published = new Snapshot(this.version, families, series, this.now(), performance.now() - started);
    this.gzip.published();
    return this.published;
  }

  private compactSome(): void {
    const due: { body: FamilyBody; share: number }[] = [];
    for (const { body } of this.families.values()) {
      const { replaced, added, size } = body;
      if (
        replaced >= Math.max(COMPACT_MIN_CHANGED, size * COMPACT_REPLACED_SHARE) ||
        added >= Math.max(COMPACT_MIN_CHANGED, size * COMPACT_ADDED_SHARE)
      ) {
        due.push({ body, share: (replaced + added) / size });
      }
    }
    due.sort((a, b) => b.share - a.share);
    let budget = COMPACT_BYTES_PER_PUBLISH;
    for (const { body } of due) {
      if (budget <= 0) break;
      budget -= body.bytes;
      body.compact();
    }
  }
}

/**
 * Encodes an entry's per-family sample lines into one allocation, handing out a view per
 * family (one Buffer per entry instead of one per family keeps small allocations few).
 * allocUnsafeSlow: an allocation of exactly this size, not a slice of Node's shared 8 KiB
 * pool, which one long-lived slice would keep whole (entries are replaced at different times,
 * so pools fill with dead slack).
 */
function encodeChunks(chunks: ReadonlyMap<string, RenderedFamily>): Map<string, Buffer> {
  let total = 0;
  for (const { text } of chunks.values()) total += Buffer.byteLength(text, "utf8");
  const buf = Buffer.allocUnsafeSlow(total);
  const out = new Map<string, Buffer>();
  let offset = 0;
  for (const [name, { text }] of chunks) {
    const n = buf.write(text, offset, "utf8");
    out.set(name, buf.subarray(offset, offset + n));
    offset += n;
  }
  return out;
}

function compressWith(
  compress: ((body: Buffer) => Promise<DeflatedHead>) | undefined,
): (segments: readonly (readonly Buffer[])[]) => Promise<DeflatedHead> {
  if (compress === undefined) return (segments) => deflateParts(segments);
  return (segments) => compress(Buffer.concat(segments.flat()));
}

function entryId(key: EntryKey): string {
  return `${key.collector}\u0000${key.target}\u0000${key.slot}`;
}
