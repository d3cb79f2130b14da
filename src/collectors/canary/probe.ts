/**
 * One canary probe of one target, through the cluster's data-plane client:
 * - query: one Query, limit 1, with the target's filter;
 * - search: one Search, limit 1, of a unit vector of the collection's first vector field the
 *   canary can build one for (vector.ts), its schema read with Describe Collection hourly; a
 *   search refused for its vector reads the schema again and searches once more, so a changed
 *   dimension costs one refused search; a search refused right after its schema was read is
 *   queried instead for the hour. A collection without such a field is queried instead, said
 *   once per change in the log.
 * A probe never throws for the service's answer: a failure is its outcome (timeout, refused,
 * error). Only an abort (the poll was stopped) is thrown.
 */
import type { Logger } from "pino";
import type { CollectionSchema, DataPlaneApi, ProbeAnswer, Probed } from "../../upstream/dataPlane.js";
import { CloudError } from "../../upstream/errors.js";
import type { CanaryTarget } from "./config.js";
import { type CanaryMemory, type ProbeResult, targetKey } from "./state.js";
import { failedOutcome, isRefusedSearch, probePlan } from "./vector.js";

/** What a probe uses. */
export interface ProbeDeps {
  readonly dp: DataPlaneApi;
  readonly memory: CanaryMemory;
  /** canary.timeout: a canary call without a complete answer this long after it may leave. */
  readonly timeoutMs: number;
  readonly now: () => number;
  readonly signal: AbortSignal;
  readonly logger?: Pick<Logger, "warn" | "info"> | undefined;
}

/** A probe's end: what its series count, and the failure of a failed one (for the target's health). */
export interface ProbeEnd {
  readonly result: ProbeResult;
  readonly failure?: unknown;
}

function aborted(err: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (err instanceof CloudError && err.code === "aborted");
}

/** Says once per change why a search target queries its collection, and when it searches again. */
function noteFallback(target: CanaryTarget, reason: string | null, deps: ProbeDeps): void {
  if (!deps.memory.fallbacks.changed(targetKey(target), reason)) return;
  const fields = {
    cluster_id: target.clusterId,
    db_name: target.dbName,
    collection_name: target.collectionName,
  };
  if (reason === null) deps.logger?.info(fields, "canary searches the collection again");
  else deps.logger?.warn(fields, `canary queries the collection instead of searching it: ${reason}`);
}

/** The collection's schema, described now, and remembered for the next probes. */
async function describe(target: CanaryTarget, deps: ProbeDeps): Promise<CollectionSchema> {
  const schema = await deps.dp.describeCollection(
    { dbName: target.dbName, collectionName: target.collectionName },
    { timeoutMs: deps.timeoutMs, signal: deps.signal },
  );
  deps.memory.described(target, schema, deps.now());
  return schema;
}

/** The search `schema` allows (or the query instead of it). */
function searchWith(
  target: CanaryTarget,
  schema: CollectionSchema,
  deps: ProbeDeps,
): Promise<Probed<ProbeAnswer>> {
  const ref = { dbName: target.dbName, collectionName: target.collectionName };
  const options = { timeoutMs: deps.timeoutMs, signal: deps.signal };
  const plan = probePlan(schema);
  noteFallback(target, plan.kind === "query" ? plan.reason : null, deps);
  return plan.kind === "search"
    ? deps.dp.search({ ...ref, annsField: plan.field, vector: plan.vector }, options)
    : deps.dp.query(ref, options);
}

/** Remembers a search refused right after its schema was read (see `CanaryMemory.searchRefused`). */
function refusedFresh(target: CanaryTarget, err: unknown, deps: ProbeDeps): void {
  if (!isRefusedSearch(err)) return;
  const said = err instanceof Error ? err.message : String(err);
  deps.memory.searchRefused(
    target,
    `its search was refused right after its schema was read (${said})`,
    deps.now(),
  );
}

/**
 * A search target's probe: described when its schema is unknown or an hour old, or its search
 * refused; queried instead for the hour after a search refused right after its schema was read.
 */
async function search(target: CanaryTarget, deps: ProbeDeps): Promise<Probed<ProbeAnswer>> {
  const ref = { dbName: target.dbName, collectionName: target.collectionName };
  const instead = deps.memory.queriedInstead(target, deps.now());
  if (instead !== undefined) {
    noteFallback(target, instead, deps);
    return deps.dp.query(ref, { timeoutMs: deps.timeoutMs, signal: deps.signal });
  }
  const known = deps.memory.schema(target, deps.now());
  const schema = known ?? (await describe(target, deps));
  try {
    return await searchWith(target, schema, deps);
  } catch (err) {
    if (!isRefusedSearch(err)) throw err;
    if (known === undefined) {
      refusedFresh(target, err, deps);
      throw err;
    }
    // The collection changed since it was read (a new dimension, another vector field).
    try {
      return await searchWith(target, await describe(target, deps), deps);
    } catch (again) {
      refusedFresh(target, again, deps);
      throw again;
    }
  }
}

/** Probes `target` once; rejects only when the probe was aborted. */
export async function probeTarget(target: CanaryTarget, deps: ProbeDeps): Promise<ProbeEnd> {
  try {
    const answer =
      target.operation === "query"
        ? await deps.dp.query(
            {
              dbName: target.dbName,
              collectionName: target.collectionName,
              ...(target.filter === undefined ? {} : { filter: target.filter }),
            },
            { timeoutMs: deps.timeoutMs, signal: deps.signal },
          )
        : await search(target, deps);
    return {
      result: {
        outcome: "success",
        ...(answer.seconds === null ? {} : { seconds: answer.seconds }),
        cost: answer.value.cost,
        atMs: deps.now(),
      },
    };
  } catch (err) {
    if (aborted(err, deps.signal)) throw err;
    return { result: { outcome: failedOutcome(err), atMs: deps.now() }, failure: err };
  }
}
