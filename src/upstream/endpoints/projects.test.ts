import { describe, expect, it } from "vitest";
import { TEST_AUTH_HEADERS, testClient, useMockUpstream } from "../testkit.js";
import { normalizeProjects, projectsDataSchema } from "./projects.js";

const CONTROLLER = "https://controller.api.gcp-us-west1.vdbcloud.test";

const upstream = useMockUpstream();

describe("List Projects over HTTP", () => {
  it("GETs /v1/projects at the region's controller", async () => {
    upstream
      .get(CONTROLLER)
      .intercept({
        method: "GET",
        path: "/v1/projects",
        headers: TEST_AUTH_HEADERS,
      })
      .reply(200, {
        code: 200,
        data: [
          { projectId: "proj-1", projectName: "Default", instanceCount: 3, createTimeMilli: 1714564800000 },
        ],
      });
    const { client } = testClient();
    await expect(client.listProjects({ region: "gcp-us-west1" })).resolves.toStrictEqual([
      { projectId: "proj-1", projectName: "Default", instanceCount: 3, createTimeMs: 1714564800000 },
    ]);
    upstream.assertNoPendingInterceptors();
  });
});

describe("normalizeProjects variants", () => {
  it.each([
    { createTimeMilli: 1714564800000, expected: 1714564800000 },
    { createTimeMilli: "1714564800000", expected: 1714564800000 },
    { createTimeMilli: null, expected: null },
  ])("reads createTimeMilli $createTimeMilli as $expected", ({ createTimeMilli, expected }) => {
    const [p] = normalizeProjects(
      projectsDataSchema.parse([{ projectId: "p", projectName: "n", createTimeMilli }]),
    );
    expect(p?.createTimeMs).toBe(expected);
    expect(p?.instanceCount).toBeNull();
  });

  it("rejects a project without an ID", () => {
    expect(projectsDataSchema.safeParse([{ projectName: "n" }]).success).toBe(false);
  });
});
