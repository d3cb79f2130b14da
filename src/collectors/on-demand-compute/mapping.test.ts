import { describe, expect, it } from "vitest";
import { REFERENCE_ON_DEMAND_COMPUTE } from "../../upstream/consoleTestkit.js";
import {
  normalizeOnDemandCompute,
  onDemandComputeDataSchema,
} from "../../upstream/endpoints/onDemandCompute.js";
import type { OnDemandCompute } from "../../upstream/types.js";
import { mapOnDemandCompute, ON_DEMAND_COMPUTE_STATUSES } from "./mapping.js";

const ASKED = { projectId: "proj-1", regionId: "aws-us-west-2" };
const ID = { project_id: "proj-1", region_id: "aws-us-west-2" };
const FAMILY = "vdbcloud_on_demand_compute_status";

/** The state set's series as [status, value], in the order written. */
const states = (compute: Partial<OnDemandCompute>) =>
  mapOnDemandCompute({ ...ASKED, status: "enabled", ...compute }, ASKED).samples.map((s) => [
    s.labels.status,
    s.value,
  ]);

describe("mapOnDemandCompute", () => {
  it.each(ON_DEMAND_COMPUTE_STATUSES)("exposes the documented status %s as a state set", (status) => {
    const r = mapOnDemandCompute({ ...ASKED, status }, ASKED);
    expect(r.samples).toEqual(
      ON_DEMAND_COMPUTE_STATUSES.map((k) => ({
        family: FAMILY,
        labels: { ...ID, status: k },
        value: k === status ? 1 : 0,
      })),
    );
    expect(r.families.map((f) => f.name)).toEqual([FAMILY]);
    expect(r.families[0]?.help).toMatch(/\(upstream Describe On-Demand Compute status\)\.$/);
  });

  it.each([
    ["ABNORMAL", "abnormal"],
    ["Enabled", "enabled"],
  ])("reads %s as the documented %s", (status, want) => {
    expect(states({ status }).filter(([, v]) => v === 1)).toEqual([[want, 1]]);
    expect(states({ status })).toHaveLength(ON_DEMAND_COMPUTE_STATUSES.length);
  });

  it.each([
    ["DISABLING", "disabling"],
    ["Failed", "failed"],
  ])("adds the unknown status %s lowercased", (status, want) => {
    expect(states({ status })).toEqual([...ON_DEMAND_COMPUTE_STATUSES.map((k) => [k, 0]), [want, 1]]);
  });

  it.each<[string, Partial<OnDemandCompute>]>([
    ["no status: no state claimed", { status: null }],
    ["an answer about another project", { projectId: "proj-2" }],
    ["an answer about another region", { regionId: "az-eastus" }],
  ])("%s: no series", (_name, compute) => {
    expect(states(compute)).toEqual([]);
  });

  it("maps the reference's sample, word for word", () => {
    const asked = { projectId: "proj-xxx", regionId: "aws-us-west-2" };
    const compute = normalizeOnDemandCompute(
      onDemandComputeDataSchema.parse(REFERENCE_ON_DEMAND_COMPUTE),
      asked,
    );
    const current = mapOnDemandCompute(compute, asked).samples.filter((s) => s.value === 1);
    expect(current).toEqual([
      {
        family: FAMILY,
        labels: { project_id: "proj-xxx", region_id: "aws-us-west-2", status: "enabled" },
        value: 1,
      },
    ]);
  });
});
