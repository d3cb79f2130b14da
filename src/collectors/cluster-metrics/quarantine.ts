/**
 * What the service refused, per metrics target, across cycles: the queries answered only in
 * their other request form (sent in that form from then on), and the queries refused in every
 * form, held back for `metrics.quarantine` and then tried once more, alone. One book per
 * process (the `METRIC_REFUSALS` state slot): it survives cycles and reloads, and a
 * target's entry starts afresh when its configured queries change.
 */

import { stateSlot } from "../../polling/model.js";
import { Holds } from "../../shared/hold.js";
import { formOfQuery, inForm, listedIn, type QueryForm, queryKey } from "../../upstream/catalog.js";
import type { MetricQuery } from "../../upstream/types.js";
import type { QueryRefusal, Resolved, SuspectGroup } from "./refusedQueries.js";

/** A configured query the service refused, and until when it is not asked. */
export interface Quarantined {
  /** The query as configured. */
  readonly query: MetricQuery;
  /** The service's message when it was refused. */
  readonly message: string;
  readonly untilMs: number;
}

/** What one cycle of a target sends. */
interface CycleQueries {
  /**
   * Queries to send in the target's batch(es): each in the form it was last accepted in alone,
   * else in the key's form.
   */
  readonly active: readonly MetricQuery[];
  /** Quarantined queries whose period is over: each is asked once, alone, in the key's form. */
  readonly due: readonly MetricQuery[];
}

/** The refusal state of one metrics target. */
export class TargetRefusals {
  /**
   * Configured query key -> the form it is sent in, when a server answered it only in the form
   * other than its key's (one name, not the whole form: forms.ts learns that per key).
   */
  private readonly sentAs = new Map<string, MetricQuery>();
  /** Configured query key -> the refused query, held for `metrics.quarantine`. */
  private readonly quarantined = new Holds<QueryRefusal>();
  /** The key's form at the last `queriesAt`: what a configured query is sent as. */
  private form: QueryForm = "current";

  constructor(readonly configured: readonly MetricQuery[]) {}

  /**
   * The queries to send at `nowMs` by a key speaking `form`, among those `offered` (the
   * cluster's plan offers them) and those the key's reference lists (a name only the current
   * reference has is not asked of a server that follows the 2024 one: it would refuse it):
   * quarantined ones left out until their period is over.
   */
  queriesAt(
    nowMs: number,
    form: QueryForm = "current",
    offered: (q: MetricQuery) => boolean = () => true,
  ): CycleQueries {
    this.form = form;
    const active: MetricQuery[] = [];
    const due: MetricQuery[] = [];
    for (const q of this.configured) {
      if (!offered(q)) continue;
      const sent = this.sentOf(q);
      if (formOfQuery(sent) === form && !listedIn(sent.name, form)) continue;
      const key = queryKey(q);
      if (!this.quarantined.has(key)) active.push(this.sentOf(q));
      else if (this.quarantined.due(key, nowMs)) due.push(inForm(q, form));
    }
    return { active, due };
  }

  /** What a configured query is sent as under the last `queriesAt`'s form. */
  private sentOf(q: MetricQuery): MetricQuery {
    return this.sentAs.get(queryKey(q)) ?? inForm(q, this.form);
  }

  /**
   * Records a resolved batch of sent queries: switched forms are kept (unless `keepSwitches` is
   * false: the whole batch moved, and the key's form follows instead), refused queries go to
   * quarantine until `untilMs`. Returns the configured queries newly quarantined (not those
   * already held, so a refusal is reported once, not once per period).
   */
  record(outcome: Resolved, untilMs: number, keepSwitches = true): QueryRefusal[] {
    const configuredOf = this.configuredBySent();
    for (const [sentKey, other] of keepSwitches ? outcome.switched : []) {
      const configured = configuredOf.get(sentKey);
      if (configured !== undefined) this.sentAs.set(queryKey(configured), other);
    }
    const fresh: QueryRefusal[] = [];
    for (const r of outcome.refused) {
      const configured = configuredOf.get(queryKey(r.query)) ?? r.query;
      const key = queryKey(configured);
      const refusal = { query: configured, message: r.message };
      if (this.quarantined.holdUntil(key, untilMs, refusal)) fresh.push(refusal);
      this.sentAs.delete(key);
    }
    return fresh;
  }

  /**
   * A quarantined query (as sent) answered on its retrial: asked in the key's form again.
   * Returns the query as configured.
   */
  release(sent: MetricQuery): MetricQuery {
    const configured = this.configuredBySent().get(queryKey(sent)) ?? sent;
    this.quarantined.release(queryKey(configured));
    return configured;
  }

  /** Every query in quarantine, in configured order. */
  held(): Quarantined[] {
    return this.configured.flatMap((q) => {
      const held = this.quarantined.get(queryKey(q));
      return held === undefined ? [] : [{ ...held.value, untilMs: held.untilMs }];
    });
  }

  private configuredBySent(): Map<string, MetricQuery> {
    const out = new Map<string, MetricQuery>();
    for (const q of this.configured) out.set(queryKey(this.sentOf(q)), q);
    return out;
  }
}

/** Every target's refusal state, keyed by target name. */
export class RefusalBook {
  private readonly targets = new Map<string, { signature: string; state: TargetRefusals }>();

  /**
   * The state of `target` for these configured queries: kept while they stay the same, fresh
   * when they changed (a reload that changes the queries forgets what was refused).
   */
  forTarget(target: string, configured: readonly MetricQuery[]): TargetRefusals {
    const signature = configured.map(queryKey).join("\u0000");
    const found = this.targets.get(target);
    if (found !== undefined && found.signature === signature) return found.state;
    const state = new TargetRefusals(configured);
    this.targets.set(target, { signature, state });
    return state;
  }

  /** Forgets every target not in `keep` (removed from the config or from this shard). */
  retain(keep: ReadonlySet<string>): void {
    for (const target of this.targets.keys()) if (!keep.has(target)) this.targets.delete(target);
  }
}

/** The refusal book's state slot: one book per process, kept across reloads. */
export const METRIC_REFUSALS = stateSlot("metric query refusals", () => new RefusalBook());

/**
 * Per group of targets (a credential and a kind of target), the query keys the service refused
 * on some of them, and the search under way: `resolveWithSuspects` (refusedQueries.ts) sets the
 * suspects aside first on the others. A suspicion is never lifted by one target answering the
 * query (plans differ, and a wrong suspicion costs one call); it is bounded by the number of
 * configured queries.
 */
export class RefusalSuspects {
  private readonly groups = new Map<string, SuspectGroup>();

  /** The group of `key` (credential and kind of target), made on first use. */
  group(key: string): SuspectGroup {
    let group = this.groups.get(key);
    if (group === undefined) {
      const known = new Set<string>();
      let running: Promise<unknown> = Promise.resolve();
      group = {
        known: () => known,
        learn: (refused) => {
          for (const r of refused) known.add(queryKey(r.query));
        },
        exclusive: <T>(search: () => Promise<T>): Promise<T> => {
          const mine = running.then(search, search);
          running = mine.catch(() => undefined);
          return mine;
        },
      };
      this.groups.set(key, group);
    }
    return group;
  }
}

/** The suspects' state slot: one per process, kept across reloads. */
export const METRIC_REFUSAL_SUSPECTS = stateSlot(
  "metric query refusal suspects",
  () => new RefusalSuspects(),
);
