/**
 * List Projects (V2): GET /v2/projects on the v2 control plane (no region needed). `data` is an
 * array of {projectId, projectName, description, regionIds, instanceCount, createTime, plan,
 * orgType}; instanceCount is a string in the schema and a number in the sample: both are
 * accepted. A `{projects: [...]}` object is read too, in case the list comes wrapped.
 */
import { z } from "zod";
import { lenient, lenientText as text } from "../lenient.js";
import type { ProjectV2 } from "../results.js";
import { numeric, stringish } from "../wire.js";
import { defineEndpoint, V2 } from "./define.js";

const projectSchema = z.object({
  projectId: stringish,
  projectName: text,
  instanceCount: lenient(numeric),
  regionIds: lenient(z.array(stringish)),
  plan: text,
  orgType: text,
});

/** The envelope's `data`: the documented array, or an object holding it under `projects`. */
export const projectsV2DataSchema = z.union([
  z.array(projectSchema),
  z.object({ projects: z.array(projectSchema).nullish() }).transform((d) => d.projects ?? []),
]);

type ProjectsV2Data = z.infer<typeof projectsV2DataSchema>;

/** A project as either List Projects version reads it, in the fields both have. */
interface ListedProject {
  readonly projectId: string;
  readonly projectName?: string | null | undefined;
  readonly instanceCount: number | null;
}

/**
 * The fields List Projects v1 and V2 share (Project's and ProjectV2's), mapped alike: a missing
 * name becomes "".
 */
export function sharedProjectFields(
  p: ListedProject,
): Pick<ProjectV2, "projectId" | "projectName" | "instanceCount"> {
  return { projectId: p.projectId, projectName: p.projectName ?? "", instanceCount: p.instanceCount };
}

/** Maps `data` to ProjectV2[]; a missing name, plan or org type becomes "", missing regions none. */
export function normalizeProjectsV2(data: ProjectsV2Data): ProjectV2[] {
  return data.map((p) => ({
    ...sharedProjectFields(p),
    regionIds: [...new Set((p.regionIds ?? []).filter((r) => r !== ""))],
    plan: p.plan ?? "",
    orgType: p.orgType ?? "",
  }));
}

/** List Projects (V2). */
export const listProjectsV2Endpoint = defineEndpoint("GET /v2/projects", {
  scope: "account",
  paging: "none",
  shardZero: true,
  planOrder: 8,
  noArgs: true,
}).as<undefined, ProjectsV2Data, ProjectV2[]>({
  request: () => ({ target: V2 }),
  schema: projectsV2DataSchema,
  normalize: (data) => normalizeProjectsV2(data),
});
