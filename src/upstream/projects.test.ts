import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { normalizeProjects, projectsDataSchema } from "./projects.js";
import { closeTestClients, TEST_API_KEY, testClient } from "./testkit.js";

const CONTROLLER = "https://controller.api.gcp-us-west1.vdbcloud.test";

beforeAll(() => nock.disableNetConnect());
afterEach(async () => {
  nock.cleanAll();
  await closeTestClients();
});
afterAll(() => nock.enableNetConnect());

describe("List Projects over HTTP", () => {
  it("GETs /v1/projects at the region's controller", async () => {
    const scope = nock(CONTROLLER, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
      .get("/v1/projects")
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
    expect(scope.isDone()).toBe(true);
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
