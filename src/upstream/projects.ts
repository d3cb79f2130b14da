/**
 * List Projects (v1, marked about to deprecate): GET /v1/projects at a region's controller.
 * `createTimeMilli` is declared a string and shown as a number; both are accepted.
 */
import { z } from "zod";
import { defineEndpoint } from "./endpoint.js";
import { ENDPOINT, type Project } from "./types.js";
import { nullableNumeric, stringish } from "./wire.js";

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
  return data.map((p) => ({
    projectId: p.projectId,
    projectName: p.projectName ?? "",
    instanceCount: p.instanceCount,
    createTimeMs: p.createTimeMilli,
  }));
}

/** List Projects (v1, controller URL of `region`). */
export const listProjectsEndpoint = defineEndpoint<ListProjectsArgs, ProjectsData, Project[]>(
  ENDPOINT.listProjects,
  {
    request: (args) => ({
      target: { plane: "v1", region: args.region },
      path: "/v1/projects",
    }),
    schema: projectsDataSchema,
    normalize: (data) => normalizeProjects(data),
  },
);
