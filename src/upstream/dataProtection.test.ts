import { describe, expect, it } from "vitest";
import { pageOf } from "./listingTestkit.js";
import {
  failure,
  readOneGet,
  SAMPLE_BACKUP_POLICY,
  TEST_BASE_URL,
  testClient,
  useMockUpstream,
} from "./testkit.js";

const upstream = useMockUpstream();

const anyQuery = (path: string) => (p: string) => p.split("?")[0] === path;

const BACKUP = {
  projectId: "proj-1",
  backupId: "backup-1",
  backupName: "nightly",
  backupType: "CLUSTER",
  creationMethod: "AUTO",
  size: 1_234_567,
  expireTime: "2026-01-20T02:00:00Z",
  clusterId: "in01-a",
  clusterName: "search",
  createTime: "2026-01-13T02:00:00Z",
  status: "AVAILABLE",
  restoreNewInstancePolicies: [],
};

describe("List Backups over HTTP", () => {
  it("GETs /v2/backups with the page (and clusterId when given) and reads the documented shape", async () => {
    const page = await readOneGet(
      "/v2/backups",
      { clusterId: "in01-a", pageSize: 100, currentPage: 2 },
      { count: 101, currentPage: 2, pageSize: 100, backups: [BACKUP] },
      (client, args) => client.listBackups(args),
    );
    expect(page).toStrictEqual(
      pageOf({ total: 101, currentPage: 2, pageSize: 100 }, "backups", [
        {
          backupId: "backup-1",
          clusterId: "in01-a",
          projectId: "proj-1",
          backupType: "CLUSTER",
          creationMethod: "AUTO",
          status: "AVAILABLE",
          sizeBytes: 1_234_567,
          createTimeMs: Date.UTC(2026, 0, 13, 2),
        },
      ]),
    );
  });

  it("accepts numbers as strings, epoch createTime, and leaves the total unknown when count is absent", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: anyQuery("/v2/backups") })
      .reply(200, {
        code: "0",
        data: {
          backups: [
            { ...BACKUP, size: "42", createTime: 1_768_269_600_000, backupId: 7, backupType: null },
            { ...BACKUP, backupId: "b2", creationMethod: { odd: true } },
          ],
        },
      });
    const { client } = testClient();
    const page = await client.listBackups({ pageSize: 100, currentPage: 1 });
    expect(page.total).toBeNull();
    expect(page.backups[0]).toMatchObject({ backupId: "7", sizeBytes: 42, createTimeMs: 1_768_269_600_000 });
    // A type or method not known reads as "", and the backup is still counted.
    expect(page.backups.map((b) => [b.backupType, b.creationMethod])).toEqual([
      ["", "AUTO"],
      ["CLUSTER", ""],
    ]);
  });
});

describe("Get Backup Policy over HTTP", () => {
  it("reads status, weekdays, retention and counts the cross-region copies", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: "/v2/clusters/in01-a/backups/policy" })
      .reply(200, {
        code: 0,
        data: {
          clusterId: "in01-a",
          status: "ENABLED",
          startTime: "02:00-04:00",
          frequency: "1,3,5",
          retentionDays: "14",
          crossRegionCopies: [{ regionId: "aws-eu-central-1", retentionDays: 7 }],
        },
      });
    const { client } = testClient();
    expect(await client.getBackupPolicy("in01-a")).toStrictEqual(SAMPLE_BACKUP_POLICY);
  });
});

const GLOBAL_LIST = {
  count: 1,
  currentPage: 1,
  pageSize: 100,
  globalClusters: [
    {
      globalClusterId: "glo-1",
      globalClusterName: "global-search",
      projectId: "proj-1",
      regionIds: ["aws-us-west-2", "aws-eu-central-1"],
      cuType: "Performance-optimized",
      cuSize: 2,
      connectAddress: "https://glo-1.example",
      createTime: "2026-01-01T00:00:00Z",
    },
  ],
};
const LAG = {
  globalClusterId: "glo-1",
  primaryClusterId: "in01-a",
  primaryRegionId: "aws-us-west-2",
  lags: [{ secondaryClusterId: "in01-b", secondaryRegionId: "aws-eu-central-1", lagMs: 1500 }],
};

describe("global clusters over HTTP, with and without the envelope", () => {
  it.each([
    { form: "bare, as the reference's samples", list: GLOBAL_LIST, lag: LAG },
    { form: "inside {code, data}", list: { code: 0, data: GLOBAL_LIST }, lag: { code: 0, data: LAG } },
  ])("reads List Global Clusters and the replication lag $form", async ({ list, lag }) => {
    const pool = upstream.get(TEST_BASE_URL);
    pool.intercept({ method: "GET", path: anyQuery("/v2/globalClusters") }).reply(200, list);
    pool.intercept({ method: "GET", path: "/v2/globalClusters/glo-1/replicationLag" }).reply(200, lag);
    const { client } = testClient();
    const page = await client.listGlobalClusters({ pageSize: 100, currentPage: 1 });
    expect(page).toStrictEqual(
      pageOf({ total: 1, currentPage: 1, pageSize: 100 }, "globalClusters", [
        { globalClusterId: "glo-1", globalClusterName: "global-search", projectId: "proj-1" },
      ]),
    );
    expect(await client.getGlobalClusterReplicationLag("glo-1")).toStrictEqual({
      globalClusterId: "glo-1",
      primaryClusterId: "in01-a",
      lags: [{ secondaryClusterId: "in01-b", secondaryRegionId: "aws-eu-central-1", lagMs: 1500 }],
    });
  });

  it("still reads a {code, message} failure as a failure, not as a bare payload", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: anyQuery("/v2/globalClusters") })
      .reply(200, { code: 80001, message: "Invalid token" });
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(client.listGlobalClusters({ pageSize: 100, currentPage: 1 }));
    expect(err.code).toBe("auth_error");
  });

  it("keeps requiring the envelope on other endpoints", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: "/v2/clusters/in01-a/backups/policy" })
      .reply(200, { clusterId: "in01-a", status: "ENABLED" });
    const { client } = testClient({ maxRetries: 0 });
    expect((await failure(client.getBackupPolicy("in01-a"))).code).toBe("schema_error");
  });
});
