/**
 * The indexes of a cluster's polled collections, in a collections poll: List Indexes per
 * collection, then Describe Index per index the memory says is due (a finished index at rest is
 * asked at most once per collections.interval and shown from memory in between). Every call goes
 * through the cluster's one data-plane client, so they all share its budget
 * (collections.rate_limit); they run one at a time.
 *
 * A failed index call costs only what it asked: it is reported to the poll (the target's health
 * shows it) and the last answer is shown while it is younger than the staleness bound. A refused
 * credential or an endpoint the plane does not know ends the run's index calls, as the others
 * would be refused alike. A collection or index that vanished since it was listed is left out.
 */
import type { Logger } from "pino";
import type { PollRun } from "../../polling/runtime.js";
import type { CollectionRef, DataPlaneApi } from "../../upstream/dataPlane.js";
import { CloudError } from "../../upstream/errors.js";
import type { IndexDescription, IndexRef } from "../../upstream/indexes.js";
import { isUnknownEndpoint } from "../../upstream/unknownEndpoint.js";
import type { DescribedIndex } from "./indexMapping.js";
import { type IndexMemory, indexKey } from "./indexMemory.js";
import { collectionPath } from "./select.js";

/** What one run's index work needs. */
interface IndexPoll {
  readonly dp: DataPlaneApi;
  readonly clusterId: string;
  /** The polled collections (after include/exclude and max_per_cluster). */
  readonly collections: readonly CollectionRef[];
  /** This run's row counts by "<db>/<collection>" (collections.row_count), to notice moved rows. */
  readonly rows: ReadonlyMap<string, number | null>;
  readonly memory: IndexMemory;
  /** When the run started. */
  readonly runMs: number;
  readonly intervalMs: number;
  /** How old a remembered answer may be and still be shown after a failed call. */
  readonly keepMs: number;
  readonly run: PollRun;
  readonly logger: Pick<Logger, "warn"> | undefined;
  readonly signal: AbortSignal;
}

/** The engine's "not found" for something listed a moment ago (HTTP 200): it vanished since. */
function vanished(err: unknown): boolean {
  return err instanceof CloudError && err.code === "not_found" && err.httpStatus !== 404;
}

/** Every index of the polled collections with its description: asked, or remembered. */
export async function pollIndexes(p: IndexPoll): Promise<DescribedIndex[]> {
  const out: DescribedIndex[] = [];
  const shown = new Set<string>();
  let stopped = false;
  const failed = (err: unknown): void => {
    if (p.signal.aborted || (err instanceof CloudError && err.code === "aborted")) throw err;
    p.run.partialFailure(err);
    if ((err instanceof CloudError && err.code === "auth_error") || isUnknownEndpoint(err)) stopped = true;
  };
  const show = (ref: IndexRef, description: IndexDescription | undefined | null): void => {
    if (description === undefined || description === null) return;
    shown.add(indexKey(ref));
    out.push({ ref, description });
  };
  const remembered = (ref: IndexRef) => p.memory.recall(p.clusterId, ref, p.runMs, p.keepMs);

  for (const c of p.collections) {
    let names: string[] | undefined;
    if (!stopped) {
      try {
        names = await p.dp.listIndexes(c, p.signal);
      } catch (err) {
        if (vanished(err)) names = [];
        else failed(err);
      }
    }
    if (names === undefined) {
      for (const ref of p.memory.indexesOf(p.clusterId, c)) show(ref, remembered(ref));
      continue;
    }
    for (const indexName of names) {
      const ref: IndexRef = { ...c, indexName };
      const rows = p.rows.get(collectionPath(c));
      if (stopped || !p.memory.due(p.clusterId, ref, p.runMs, p.intervalMs, rows)) {
        show(ref, remembered(ref));
        continue;
      }
      try {
        const d = await p.dp.describeIndex(ref, p.signal);
        if (d !== null && p.memory.record(p.clusterId, ref, d, p.runMs)) logFailure(p, ref, d);
        show(ref, d);
      } catch (err) {
        if (vanished(err)) continue;
        failed(err);
        show(ref, remembered(ref));
      }
    }
  }
  p.memory.keepOnly(p.clusterId, shown);
  return out;
}

/** The one line of a build's fail reason, per index and state. */
function logFailure(p: IndexPoll, ref: IndexRef, d: IndexDescription): void {
  p.logger?.warn(
    {
      collector: "collections",
      cluster_id: p.clusterId,
      db_name: ref.dbName,
      collection_name: ref.collectionName,
      index_name: ref.indexName,
      state: d.state,
      reason: d.failReason,
    },
    "index build failed",
  );
}
