import type { FamilyDef, Sample } from "../collect/sample.js";
import { type DeflatedHead, deflateHead } from "./gzipJoin.js";
import { renderChunks, renderHeader } from "./render.js";

/** Identifies one slice of the store: the samples of one collector for one target. */
export interface EntryKey {
  readonly collector: string;
  readonly target: string;
  /** Several independent slices per target, e.g. "data" (polled values) and "health". */
  readonly slot: string;
}

/**
 * A published, immutable rendering of the store, ready to be written to a socket. The gzip
 * forms are open-ended deflate heads (see gzipJoin.ts): a response appends its tail to them.
 */
export interface Published {
  readonly version: number;
  readonly text: Buffer;
  readonly openMetrics: Buffer;
  readonly textGzip: DeflatedHead;
  readonly openMetricsGzip: DeflatedHead;
  readonly series: number;
  readonly builtAtMs: number;
  readonly buildMs: number;
}

export interface StoreOptions {
  now?: () => number;
  /** Coalesces updates: a publish happens at most this long after the first unpublished change. */
  publishDelayMs?: number;
  /** Slices of the build between which the event loop is yielded to, in milliseconds of work. */
  yieldEveryMs?: number;
  /**
   * Told when a background publish fails (the previous rendering keeps being served, and the
   * next change tries again). Default: ignored.
   */
  onError?: (where: "publish", err: unknown) => void;
  /** The compressor of the published bodies; injectable so tests can make a publish fail. */
  compress?: (body: Buffer) => Promise<DeflatedHead>;
}

interface Entry {
  readonly families: readonly string[];
  readonly series: number;
  /** Epoch ms after which the entry disappears; null: never (health slots). */
  expiresAtMs: number | null;
}

interface FamilyState {
  readonly def: FamilyDef;
  /** The family's HELP and TYPE lines, encoded once: text 0.0.4 and OpenMetrics. */
  readonly textHeader: Buffer;
  readonly omHeader: Buffer;
  /** Sample lines per entry, already UTF-8: a build only copies bytes. */
  readonly chunks: Map<string, Buffer>;
}

const EMPTY = Buffer.alloc(0);
const EMPTY_HEAD: DeflatedHead = { deflated: EMPTY, crc: 0, length: 0 };

/**
 * Holds the last good samples of every collector and target, pre-rendered per family when a
 * poll lands, and publishes complete renderings (text 0.0.4, OpenMetrics, and their gzip) in the
 * background. Readers only ever take the latest `Published` value, so a scrape costs no
 * rendering and never waits for the upstream or for a build.
 *
 * Contract: `put` replaces a slice atomically; a slice with a TTL is removed by `sweep` once
 * expired; family definitions are first-come (the catalog keeps them consistent).
 */
export class SampleStore {
  private readonly families = new Map<string, FamilyState>();
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly publishDelayMs: number;
  private readonly yieldEveryMs: number;
  private readonly onError: (where: "publish", err: unknown) => void;
  private readonly compress: (body: Buffer) => Promise<DeflatedHead>;
  private version = 0;
  private published: Published;
  private timer: NodeJS.Timeout | undefined;
  private building: Promise<Published> | undefined;
  private closed = false;

  constructor(opts: StoreOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.publishDelayMs = opts.publishDelayMs ?? 1000;
    this.yieldEveryMs = opts.yieldEveryMs ?? 8;
    this.onError = opts.onError ?? (() => {});
    this.compress = opts.compress ?? deflateHead;
    this.published = {
      version: 0,
      text: EMPTY,
      openMetrics: EMPTY,
      textGzip: EMPTY_HEAD,
      openMetricsGzip: EMPTY_HEAD,
      series: 0,
      builtAtMs: this.now(),
      buildMs: 0,
    };
  }

  /** Replaces the slice `key` with `samples`. `ttlMs` null means the slice never goes stale. */
  put(key: EntryKey, families: readonly FamilyDef[], samples: readonly Sample[], ttlMs: number | null): void {
    const id = entryId(key);
    const chunks = encodeChunks(renderChunks(families, samples));
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
          chunks: new Map(),
        };
        this.families.set(def.name, fam);
      }
      fam.chunks.set(id, chunk);
    }
    this.entries.set(id, {
      families: [...chunks.keys()],
      series: samples.length,
      expiresAtMs: ttlMs === null ? null : this.now() + ttlMs,
    });
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

  /** Builds and publishes now (waits for a build already running, then builds if still behind). */
  async publishNow(): Promise<Published> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.building) await this.building;
    if (this.published.version === this.version) return this.published;
    return this.build();
  }

  /** Stops background publishing. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private removeChunks(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    for (const name of entry.families) {
      const fam = this.families.get(name);
      if (!fam) continue;
      fam.chunks.delete(id);
      if (fam.chunks.size === 0) this.families.delete(name);
    }
    return true;
  }

  private changed(): void {
    this.version++;
    if (this.timer || this.building || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.build().catch((err: unknown) => this.onError("publish", err));
    }, this.publishDelayMs);
    this.timer.unref();
  }

  private build(): Promise<Published> {
    const p = this.doBuild().finally(() => {
      this.building = undefined;
      if (this.version !== this.published.version && !this.closed) this.changed();
    });
    this.building = p;
    return p;
  }

  private async doBuild(): Promise<Published> {
    const started = performance.now();
    const version = this.version;
    // Capture references synchronously so the published rendering is one consistent state,
    // even though joining below yields to the event loop between slices.
    const names = [...this.families.keys()].sort();
    const captured = names.map((n) => {
      const fam = this.families.get(n) as FamilyState;
      return { fam, chunks: [...fam.chunks.values()] };
    });
    let series = 0;
    for (const e of this.entries.values()) series += e.series;

    // Sizes first, so each format is one allocation that the chunks are copied into: no
    // intermediate strings or parts, and chunks are immutable once put, so yielding between
    // families below cannot tear the rendering.
    let textLength = 0;
    let omLength = 0;
    for (const { fam, chunks } of captured) {
      let body = 0;
      for (const c of chunks) body += c.length;
      textLength += fam.textHeader.length + body;
      omLength += fam.omHeader.length + body;
    }
    const text = Buffer.allocUnsafe(textLength);
    const openMetrics = Buffer.allocUnsafe(omLength);
    let t = 0;
    let o = 0;
    let sliceStart = performance.now();
    for (const { fam, chunks } of captured) {
      text.set(fam.textHeader, t);
      t += fam.textHeader.length;
      openMetrics.set(fam.omHeader, o);
      o += fam.omHeader.length;
      const bodyStart = t;
      for (const c of chunks) {
        text.set(c, t);
        t += c.length;
      }
      // The formats differ only in headers: the family body is copied across in one piece.
      o += text.copy(openMetrics, o, bodyStart, t);
      if (performance.now() - sliceStart > this.yieldEveryMs) {
        await new Promise<void>((r) => setImmediate(r));
        sliceStart = performance.now();
      }
    }
    // zlib runs on the thread pool: compression never blocks the event loop.
    const [textGzip, openMetricsGzip] = await Promise.all([this.compress(text), this.compress(openMetrics)]);
    const published: Published = {
      version,
      text,
      openMetrics,
      textGzip,
      openMetricsGzip,
      series,
      builtAtMs: this.now(),
      buildMs: performance.now() - started,
    };
    if (version >= this.published.version) this.published = published;
    return this.published;
  }
}

/**
 * Encodes an entry's per-family sample lines into one allocation, handing out a view per
 * family (one Buffer per entry instead of one per family keeps small allocations few).
 */
function encodeChunks(chunks: ReadonlyMap<string, string>): Map<string, Buffer> {
  let total = 0;
  for (const text of chunks.values()) total += Buffer.byteLength(text, "utf8");
  const buf = Buffer.allocUnsafe(total);
  const out = new Map<string, Buffer>();
  let offset = 0;
  for (const [name, text] of chunks) {
    const n = buf.write(text, offset, "utf8");
    out.set(name, buf.subarray(offset, offset + n));
    offset += n;
  }
  return out;
}

function entryId(key: EntryKey): string {
  return `${key.collector}\u0000${key.target}\u0000${key.slot}`;
}
