/**
 * The tests every task that lists per known project and region (a collector of its own, built by
 * `projectListingTask` over `projectRegions`) must pass, written once: those of
 * `projectListingTaskTests`, with a plan of two regions and a region whose plan lacks the feature
 * (96028) failing beside one that lists. A collector's test calls `regionListingTaskTests` inside
 * its own `describe` with its specifics. Used by tests only; production code never imports this
 * module.
 */
import type { CallEstimate } from "../../src/polling/model.js";
import { projectV2 } from "../../src/upstream/testkit.js";
import type { CloudApi, ProjectV2 } from "../../src/upstream/types.js";
import {
  type OwnListingCase,
  ownListingFields,
  planRefusal,
  projectListingTaskTests,
  TWO_REGIONS,
} from "./projectListingTask.js";

/** The series of `family` at 1, sorted: the current states of a state set. */
export const currentOf =
  (family: string) =>
  (text: string): string[] =>
    text
      .split("\n")
      .filter((l) => l.startsWith(`${family}{`) && l.endsWith(" 1"))
      .sort();

/** A per-project-and-region listing of a collector of its own, for `regionListingTaskTests`. */
export interface RegionListingCase extends OwnListingCase {
  /** Its families, and a deny pattern matching them all. */
  readonly names: readonly string[];
  readonly deny: string;
  /** The calls it plans beside List Projects V2 and the listing. */
  readonly moreCalls?: readonly CallEstimate[];
  /** A fake service knowing `projects()`, whose call for "project/region" throws what `refuse` gives. */
  readonly service: (projects: () => ProjectV2[], refuse: (part: string) => Error | undefined) => CloudApi;
  /** The state set whose current states (series at 1) are the listed series. */
  readonly current: string;
  /** The series p1/aws-us-west-2 shows while p1/gcp-us-west1 is refused for its plan. */
  readonly shown: string;
}

/** Declares, in the caller's `describe`, the tests every per-project-and-region listing must pass. */
export function regionListingTaskTests(c: RegionListingCase): void {
  projectListingTaskTests({
    ...ownListingFields(c),
    planned: TWO_REGIONS,
    ...(c.moreCalls ? { moreCalls: c.moreCalls } : {}),
    families: { collector: c.collector, deny: c.deny, names: [...c.names] },
    service: (refuse) => c.service(() => [projectV2("p1", ["aws-us-west-2", "gcp-us-west1"])], refuse),
    listed: currentOf(c.current),
    partial: {
      what: "a region refused among others",
      part: "p1/gcp-us-west1",
      error: () => planRefusal(c.endpoint),
      shown: 1,
      contains: [c.shown],
      message: /96028/,
    },
  });
}
