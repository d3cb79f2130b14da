import { channel } from "node:diagnostics_channel";

/**
 * The store's work as it happens, for a measurement harness that subscribes (the bench's
 * probe): `{ kind: "put" | "publish", startMs, ms }`, start in epoch milliseconds. Costs one
 * check per put or publish while nobody listens.
 */
export const STORE_WORK_CHANNEL = "vdbcloud:store:work";
const work = channel(STORE_WORK_CHANNEL);

/** Reports one put or publish that began at `started` (performance.now()) and ends now. */
export function reportWork(kind: "put" | "publish", started: number): void {
  if (work.hasSubscribers) {
    work.publish({ kind, startMs: performance.timeOrigin + started, ms: performance.now() - started });
  }
}
