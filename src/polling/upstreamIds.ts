/**
 * The ID rule applied to what listings find (shared/ids.ts): an item whose ID the rule refuses is
 * dropped before anything of it reaches a request path, a target or /sd/native-export. Each drop
 * is counted (vdbcloud_api_invalid_ids_total{endpoint}) and the first of each endpoint logged:
 * a server that sends such IDs sends them every cycle, and one line says it.
 */
import { ChangeLog } from "../shared/changeLog.js";
import { isResourceId } from "../shared/ids.js";
import type { EndpointTemplate } from "../upstream/types.js";
import type { PollContext } from "./runtime.js";

/** Endpoints whose bad IDs were logged, per process (its self-metrics instance). */
const logged = new WeakMap<object, ChangeLog<true>>();

/**
 * The items of `items` every ID of which (`idsOf`; null for an absent optional ID) follows the
 * rule, in order. Pure but for the count and the one log line.
 */
export function keepValidIds<T>(
  ctx: Pick<PollContext, "self" | "logger">,
  endpoint: EndpointTemplate,
  items: readonly T[],
  idsOf: (item: T) => readonly (string | null)[],
): T[] {
  const kept = items.filter((item) => idsOf(item).every((id) => id === null || isResourceId(id)));
  const dropped = items.length - kept.length;
  // Counted at 0 too: the series exists from the first listing, so rate() and alerts see it.
  ctx.self.invalidIds(endpoint, dropped);
  if (dropped === 0) return kept;
  let told = logged.get(ctx.self);
  if (told === undefined) {
    told = new ChangeLog();
    logged.set(ctx.self, told);
  }
  if (told.changed(endpoint, true)) {
    // The IDs themselves are not quoted: they are the upstream's text, of any length.
    ctx.logger?.warn(
      { endpoint, dropped },
      "listed items with an ID outside the ID rule (letters, digits and -) dropped; counted in vdbcloud_api_invalid_ids_total",
    );
  }
  return kept;
}
