import { describe, expect, it } from "vitest";
import { STORAGE_INTEGRATION } from "../../upstream/storageIntegrationsTestkit.js";
import type { StorageIntegration } from "../../upstream/types.js";
import { IntegrationMessages, MAX_MESSAGE_CHARS } from "./messages.js";

const base = STORAGE_INTEGRATION;
const at = (fields: Partial<StorageIntegration>): StorageIntegration => ({ ...base, ...fields });

/** Each listing's lines as [level, status, message], in order. */
function replay(listings: ReadonlyArray<readonly StorageIntegration[]>, project = "proj-1") {
  const m = new IntegrationMessages();
  return listings.map((l) =>
    m.lines(project, l).map((line) => [line.level, line.fields.status, line.fields.message ?? null]),
  );
}

describe("IntegrationMessages", () => {
  it.each<[string, StorageIntegration[][], unknown[][]]>([
    ["an active integration says nothing, cycle after cycle", [[base], [base], [base]], [[], [], []]],
    [
      "an error is logged once with its message, not again while it stays",
      [
        [at({ status: "ERROR", message: "Access Denied" })],
        [at({ status: "ERROR", message: "Access Denied" })],
      ],
      [[["warn", "error", "Access Denied"]], []],
    ],
    [
      "a new message of the same status is a change",
      [
        [at({ status: "ERROR", message: "Access Denied" })],
        [at({ status: "ERROR", message: "NoSuchBucket" })],
      ],
      [[["warn", "error", "Access Denied"]], [["warn", "error", "NoSuchBucket"]]],
    ],
    [
      "back to active is one info line, then silence",
      [[at({ status: "ERROR", message: "Access Denied" })], [base], [base]],
      [[["warn", "error", "Access Denied"]], [["info", "active", null]], []],
    ],
    [
      "an error without a message is logged as well",
      [[at({ status: "ERROR" })], [at({ status: "ERROR" })]],
      [[["warn", "error", null]], []],
    ],
    [
      "a status outside the reference's two is a warning too",
      [[at({ status: "PENDING" })]],
      [[["warn", "pending", null]]],
    ],
    [
      "a message beside an active status is an info line",
      [[at({ message: "rotated the role" })], [at({ message: "rotated the role" })]],
      [[["info", "active", "rotated the role"]], []],
    ],
    [
      "a message without a status is an info line, not a warning",
      [[at({ status: null, message: "checking" })]],
      [[["info", "", "checking"]]],
    ],
    ["no status and no message says nothing", [[at({ status: null })]], [[]]],
  ])("%s", (_name, listings, want) => {
    expect(replay(listings)).toEqual(want);
  });

  it("names the integration, its project and bucket in each line, and bounds the message", () => {
    const m = new IntegrationMessages();
    const [line] = m.lines("proj-1", [at({ status: "ERROR", message: "x".repeat(MAX_MESSAGE_CHARS + 50) })]);
    expect(line?.fields).toMatchObject({
      project_id: "proj-1",
      integration_id: "integ-1",
      name: "backups",
      bucket_name: "vdb-backups",
      status: "error",
    });
    expect(line?.fields.message).toHaveLength(MAX_MESSAGE_CHARS + 1);
    expect(line?.msg).toMatch(/backup export or audit-log forward/);
  });

  it("keeps each project's integrations apart, and forgets the ones no longer listed", () => {
    const m = new IntegrationMessages();
    const broken = at({ status: "ERROR", message: "Access Denied" });
    expect(m.lines("proj-1", [broken])).toHaveLength(1);
    expect(m.lines("proj-2", [broken])).toHaveLength(1);
    expect(m.size).toBe(2);
    // proj-1's listing no longer holds it: forgotten there, proj-2's kept.
    expect(m.lines("proj-1", [])).toEqual([]);
    expect(m.size).toBe(1);
    expect(m.lines("proj-2", [broken])).toEqual([]);
    // Listed again later in proj-1, still broken: news again.
    expect(m.lines("proj-1", [broken])).toHaveLength(1);
    // An active one is not remembered at all.
    m.lines("proj-3", [base]);
    expect(m.size).toBe(2);
  });
});
