/**
 * What the collections collector remembers of each index between polls: the last answer of
 * Describe Index and when it came, whether the index is at rest, and which state's fail reason
 * was logged. It decides which indexes need a Describe Index call in a run: a finished index
 * whose rows did not move is asked at most once per collections.interval, however often the
 * collector runs (a reload, a rebuild of the tasks, an early first slot), and shown from memory in between.
 */
import { ClusterJobMemory, noteKey } from "../../polling/clusterJobs.js";
import { stateSlot } from "../../polling/model.js";
import type { CollectionRef } from "../../upstream/dataPlane.js";
import type { IndexDescription, IndexRef } from "../../upstream/indexes.js";
import { indexStateValue } from "./indexMapping.js";

/**
 * How much earlier than a whole interval after the last answer a run may still ask again: a run
 * starts when its slot comes, give or take the event loop's delay, and a regular cycle must not
 * be skipped for a few milliseconds.
 */
const SLACK_MS = 5_000;

/** What is remembered of one index. */
interface IndexEntry {
  readonly ref: IndexRef;
  readonly description: IndexDescription;
  /** Start of the run whose Describe Index gave `description`. */
  readonly describedAtMs: number;
  /** Finished, nothing pending, and the same rows as the answer before: nothing moves. */
  readonly atRest: boolean;
}

/** Identity of an index within its cluster. */
export function indexKey(ref: IndexRef): string {
  return `${ref.dbName}\u0000${ref.collectionName}\u0000${ref.indexName}`;
}

function atRest(before: IndexDescription | undefined, now: IndexDescription): boolean {
  return (
    before !== undefined &&
    indexStateValue(now.state) === "finished" &&
    indexStateValue(before.state) === "finished" &&
    (now.pendingRows ?? 0) === 0 &&
    now.totalRows === before.totalRows &&
    now.indexedRows === before.indexedRows
  );
}

/** Per cluster, per index: the memory behind the re-describe cadence and the once-only fail reason. */
export class IndexMemory extends ClusterJobMemory<IndexEntry, string> {
  /**
   * Whether the index needs a Describe Index call in the run that started at `runMs`: always,
   * unless it is at rest and was described less than `intervalMs` before, and the collection's
   * row count of this run (when asked) agrees with the index's.
   */
  due(
    clusterId: string,
    ref: IndexRef,
    runMs: number,
    intervalMs: number,
    collectionRows?: number | null,
  ): boolean {
    const e = this.entry(clusterId, indexKey(ref));
    if (e === undefined || !e.atRest) return true;
    const moved =
      collectionRows !== undefined &&
      collectionRows !== null &&
      e.description.totalRows !== null &&
      collectionRows !== e.description.totalRows;
    return moved || runMs - e.describedAtMs >= intervalMs - Math.min(SLACK_MS, intervalMs / 10);
  }

  /**
   * Records an answer of the run that started at `runMs`. True when its fail reason is to be
   * logged: the first answer with a reason in this state (a later failure, after the index left
   * that state, is logged again).
   */
  record(clusterId: string, ref: IndexRef, d: IndexDescription, runMs: number): boolean {
    const key = indexKey(ref);
    const before = this.entry(clusterId, key);
    const state = indexStateValue(d.state);
    // The note is the state whose fail reason was logged, kept while the index stays in it.
    const told = noteKey(clusterId, key);
    if (this.notes.last(told) !== state) this.notes.forget(told);
    const log = d.failReason.trim() !== "" && this.notes.changed(told, state);
    this.put(clusterId, key, {
      ref,
      description: d,
      describedAtMs: runMs,
      atRest: atRest(before?.description, d),
    });
    return log;
  }

  /** The last answer about the index, if it came no longer than `maxAgeMs` before `runMs`. */
  recall(clusterId: string, ref: IndexRef, runMs: number, maxAgeMs: number): IndexDescription | undefined {
    const e = this.entry(clusterId, indexKey(ref));
    return e !== undefined && runMs - e.describedAtMs <= maxAgeMs ? e.description : undefined;
  }

  /** The indexes remembered of one collection (for a run whose List Indexes failed). */
  indexesOf(clusterId: string, c: CollectionRef): IndexRef[] {
    const out: IndexRef[] = [];
    for (const e of this.clusters.get(clusterId)?.values() ?? []) {
      if (e.ref.dbName === c.dbName && e.ref.collectionName === c.collectionName) out.push(e.ref);
    }
    return out;
  }

  /** Forgets every index of the cluster not in `keys` (those the last run showed). */
  keepOnly(clusterId: string, keys: ReadonlySet<string>): void {
    this.keepJobs(clusterId, (key) => keys.has(key));
  }
}

/** The collections collector's index memory, kept across polls and reloads. */
export const INDEX_MEMORY = stateSlot("index descriptions", () => new IndexMemory());
