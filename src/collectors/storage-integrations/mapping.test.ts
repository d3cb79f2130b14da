import { describe, expect, it } from "vitest";
import { listProjectPages } from "../../polling/projectTask.js";
import {
  normalizeStorageIntegrations,
  storageIntegrationsDataSchema,
} from "../../upstream/endpoints/storageIntegrations.js";
import {
  REFERENCE_STORAGE_INTEGRATIONS,
  STORAGE_INTEGRATION,
} from "../../upstream/storageIntegrationsTestkit.js";
import type { CloudApi, StorageIntegration, StorageIntegrationPage } from "../../upstream/types.js";
import { mapStorageIntegrations, STORAGE_INTEGRATION_STATUSES } from "./mapping.js";
import { STORAGE_INTEGRATION_PAGES } from "./tasks.js";

const INTEGRATION = STORAGE_INTEGRATION;
const ID = { project_id: "proj-1", integration_id: "integ-1" };

const statusOf = (fields: Partial<StorageIntegration>) =>
  mapStorageIntegrations([{ ...INTEGRATION, ...fields }], "proj-1")
    .samples.filter((s) => s.family === "vdbcloud_storage_integration_status")
    .map((s) => [s.labels.status, s.value]);

describe("mapStorageIntegrations", () => {
  it("maps an integration to its info and its status state set", () => {
    expect(mapStorageIntegrations([INTEGRATION], "proj-1").samples).toEqual([
      {
        family: "vdbcloud_storage_integration_info",
        labels: { ...ID, name: "backups", region_id: "aws-us-west-2", bucket_name: "vdb-backups" },
        value: 1,
      },
      { family: "vdbcloud_storage_integration_status", labels: { ...ID, status: "active" }, value: 1 },
      { family: "vdbcloud_storage_integration_status", labels: { ...ID, status: "error" }, value: 0 },
    ]);
  });

  it.each<[string, string | null, Array<[string | undefined, number]>]>([
    [
      "ACTIVE",
      "ACTIVE",
      [
        ["active", 1],
        ["error", 0],
      ],
    ],
    [
      "ERROR",
      "ERROR",
      [
        ["active", 0],
        ["error", 1],
      ],
    ],
    [
      "Error, in another case",
      "Error",
      [
        ["active", 0],
        ["error", 1],
      ],
    ],
    // A status outside the reference's two is added lowercased, after the known ones.
    [
      "PENDING",
      "PENDING",
      [
        ["active", 0],
        ["error", 0],
        ["pending", 1],
      ],
    ],
    [
      "VALIDATING",
      "Validating",
      [
        ["active", 0],
        ["error", 0],
        ["validating", 1],
      ],
    ],
    // No status: no state is claimed, the info series stays.
    ["no status", null, []],
  ])("status %s", (_name, status, want) => {
    expect(statusOf({ status })).toEqual(want);
  });

  it("keeps the known statuses in every state set", () => {
    expect(STORAGE_INTEGRATION_STATUSES).toEqual(["active", "error"]);
  });

  it("never puts the message anywhere: no label, no value", () => {
    const message = "Access Denied: arn:aws:iam::123456789012:role/export cannot s3:PutObject";
    const r = mapStorageIntegrations([{ ...INTEGRATION, status: "ERROR", message }], "proj-1");
    expect(JSON.stringify(r)).not.toContain("Access Denied");
    expect(r.samples.every((s) => !("message" in s.labels))).toBe(true);
  });

  it("labels every integration with the asked project, an empty field as empty", () => {
    const r = mapStorageIntegrations([{ ...INTEGRATION, name: "", regionId: "", bucketName: "" }], "proj-9");
    expect(r.samples[0]?.labels).toEqual({
      project_id: "proj-9",
      integration_id: "integ-1",
      name: "",
      region_id: "",
      bucket_name: "",
    });
  });

  it("shows an integration listed twice once, as first listed", async () => {
    // Listed through the pager, which keeps an integration listed again (the listing moved
    // between pages) as first listed: page 2 repeats integ-1, changed.
    const pages: StorageIntegration[][] = [
      [{ ...INTEGRATION, integrationId: "integ-0" }, INTEGRATION],
      [{ ...INTEGRATION, name: "renamed", status: "ERROR" }],
    ];
    const client = {
      listStorageIntegrations: async (args: { currentPage: number }): Promise<StorageIntegrationPage> => {
        const integrations = pages[args.currentPage - 1] ?? [];
        return {
          total: null,
          currentPage: args.currentPage,
          pageSize: 2,
          listed: integrations.length,
          integrations,
        };
      },
    } as unknown as CloudApi;
    const r = mapStorageIntegrations(
      await listProjectPages(STORAGE_INTEGRATION_PAGES, client, "proj-1"),
      "proj-1",
    );
    const mine = r.samples.filter((s) => s.labels.integration_id === "integ-1");
    expect(mine.filter((s) => s.family === "vdbcloud_storage_integration_info")).toHaveLength(1);
    expect(mine.find((s) => s.labels.status === "active")?.value).toBe(1);
    expect(mine.find((s) => s.family === "vdbcloud_storage_integration_info")?.labels.name).toBe("backups");
  });

  it("maps the reference's shape, word for word", () => {
    const page = normalizeStorageIntegrations(
      storageIntegrationsDataSchema.parse(REFERENCE_STORAGE_INTEGRATIONS),
    );
    const r = mapStorageIntegrations(page.integrations, "proj-1");
    const id = { project_id: "proj-1", integration_id: "integ-xxxxxxxxxxxxxxxxxxxx" };
    expect(r.samples).toEqual([
      {
        family: "vdbcloud_storage_integration_info",
        labels: {
          ...id,
          name: "my-storage-integration",
          region_id: "aws-us-west-2",
          bucket_name: "my-bucket",
        },
        value: 1,
      },
      { family: "vdbcloud_storage_integration_status", labels: { ...id, status: "active" }, value: 1 },
      { family: "vdbcloud_storage_integration_status", labels: { ...id, status: "error" }, value: 0 },
    ]);
  });

  it("declares every family it uses with a HELP naming List Storage Integrations", () => {
    const r = mapStorageIntegrations([INTEGRATION], "proj-1");
    expect(r.families.map((f) => f.name)).toEqual([
      "vdbcloud_storage_integration_info",
      "vdbcloud_storage_integration_status",
    ]);
    for (const f of r.families) expect(f.help).toMatch(/\(upstream List Storage Integrations[^)]*\)\.$/);
  });
});
