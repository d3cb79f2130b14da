/**
 * List Projects (v1, marked about to deprecate): GET /v1/projects at a region's controller.
 * `createTimeMilli` is declared a string and shown as a number; both are accepted.
 */
import { z } from "zod";
import type { Project } from "../results.js";
import { nullableNumeric, stringish } from "../wire.js";
import { defineEndpoint } from "./define.js";
import { sharedProjectFields } from "./projectsV2.js";

/** Arguments of List Projects: the region only picks the controller URL. */
interface ListProjectsArgs {
  readonly region: string;
}

const projectSchema = z.object({
  projectId: stringish,
  projectName: z.string().nullish(),
  instanceCount: nullableNumeric,
  createTimeMilli: nullableNumeric,
});

/** The envelope's `data`: an array of projects. */
export const projectsDataSchema = z.array(projectSchema);

type ProjectsData = z.infer<typeof projectsDataSchema>;

/** Maps `data` to Project[]; a missing name becomes "". */
export function normalizeProjects(data: ProjectsData): Project[] {
  return data.map((p) => ({ ...sharedProjectFields(p), createTimeMs: p.createTimeMilli }));
}

/** List Projects (v1, controller URL of `region`). */
export const listProjectsEndpoint = defineEndpoint("GET /v1/projects", {
  scope: "account",
  paging: "none",
  shardZero: true,
  planOrder: 9,
}).as<ListProjectsArgs, ProjectsData, Project[]>({
  request: (args) => ({
    target: { plane: "v1", region: args.region },
  }),
  schema: projectsDataSchema,
  normalize: (data) => normalizeProjects(data),
});
