import { describe, expect, it } from "vitest";
import { buildConfig } from "../../config/load.js";
import { canaryNotes } from "./notes.js";

const CLUSTER = "in01-0123456789abcdef";

async function notesAt(interval: string): Promise<string[]> {
  const config = await buildConfig(
    {
      api: { api_key: "k" },
      clusters: [{ id: CLUSTER }],
      canary: { interval, targets: [{ cluster_id: CLUSTER, collection_name: "docs" }] },
    },
    { env: {} },
  );
  return canaryNotes(config, { clusters: config.clusters, discovered: 0 });
}

describe("the canary's notes", () => {
  it.each([
    ["PT1M", false],
    ["PT4M59S", false],
    ["PT5M", true],
    ["PT1H", true],
  ])("probed every %s, says one failure fires VdbcloudCanaryFailing: %s", async (interval, says) => {
    const notes = await notesAt(interval);
    expect(notes.some((n) => n.includes("VdbcloudCanaryFailing"))).toBe(says);
    if (says) expect(notes.join("\n")).toContain(`probed every ${interval}, one failed probe keeps`);
  });
});
