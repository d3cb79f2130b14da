import { describe, expect, it } from "vitest";
import { CloudError } from "../upstream/errors.js";
import { projectV2 } from "../upstream/testkit.js";
import type { CloudApi, ProjectV2 } from "../upstream/types.js";
import { knownProjects, mergeKnownProjects, projectRegions } from "./projects.js";

const v2 = projectV2;

describe("mergeKnownProjects", () => {
  it.each([
    {
      name: "List Projects V2's projects and regions, in order",
      listed: [v2("p1", ["aws-us-west-2", "az-eastus"]), v2("p2", [])],
      clusters: [],
      want: [
        { projectId: "p1", regionIds: ["aws-us-west-2", "az-eastus"] },
        { projectId: "p2", regionIds: [] },
      ],
    },
    {
      name: "the polled clusters' projects and regions, each once",
      listed: [],
      clusters: [
        { projectId: "p1", region: "aws-us-west-2" },
        { projectId: "p1", region: "aws-us-west-2" },
        { projectId: "p1", region: "gcp-us-west1" },
        { projectId: "p3" },
        { region: "aws-us-east-1" },
      ],
      want: [
        { projectId: "p1", regionIds: ["aws-us-west-2", "gcp-us-west1"] },
        { projectId: "p3", regionIds: [] },
      ],
    },
    {
      name: "both: a cluster adds its region to a listed project",
      listed: [v2("p1", ["aws-us-west-2"])],
      clusters: [
        { projectId: "p1", region: "az-eastus" },
        { projectId: "p2", region: "az-eastus" },
      ],
      want: [
        { projectId: "p1", regionIds: ["aws-us-west-2", "az-eastus"] },
        { projectId: "p2", regionIds: ["az-eastus"] },
      ],
    },
  ])("$name", ({ listed, clusters, want }) => {
    expect(mergeKnownProjects(listed, clusters)).toEqual(want);
  });

  it("gives one (project, region) pair per region of each project", () => {
    expect(
      projectRegions([
        { projectId: "p1", regionIds: ["r1", "r2"] },
        { projectId: "p2", regionIds: [] },
        { projectId: "p3", regionIds: ["r1"] },
      ]),
    ).toEqual([
      { projectId: "p1", regionId: "r1" },
      { projectId: "p1", regionId: "r2" },
      { projectId: "p3", regionId: "r1" },
    ]);
  });
});

describe("knownProjects", () => {
  const client = (answer: () => Promise<ProjectV2[]>) => ({ listProjectsV2: answer }) as unknown as CloudApi;
  const clusters = [{ projectId: "p9", region: "aws-us-west-2" }];

  it("merges List Projects V2 with the clusters", async () => {
    await expect(
      knownProjects(
        client(async () => [v2("p1", ["az-eastus"])]),
        clusters,
      ),
    ).resolves.toEqual([
      { projectId: "p1", regionIds: ["az-eastus"] },
      { projectId: "p9", regionIds: ["aws-us-west-2"] },
    ]);
  });

  it("uses the clusters alone where List Projects V2 is refused as an unknown endpoint", async () => {
    const gone = new CloudError("not_found", "GET /v2/projects: HTTP 404", {
      endpoint: "GET /v2/projects",
      httpStatus: 404,
    });
    await expect(
      knownProjects(
        client(async () => {
          throw gone;
        }),
        clusters,
      ),
    ).resolves.toEqual([{ projectId: "p9", regionIds: ["aws-us-west-2"] }]);
  });

  it("rejects with any other failure, as the listing's own", async () => {
    const refused = new CloudError("auth_error", "GET /v2/projects: HTTP 403", {
      endpoint: "GET /v2/projects",
      httpStatus: 403,
    });
    await expect(
      knownProjects(
        client(async () => {
          throw refused;
        }),
        clusters,
      ),
    ).rejects.toBe(refused);
  });
});
