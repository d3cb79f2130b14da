import { describe, expect, it } from "vitest";
import { configChanges } from "../../config/diff.js";
import { buildConfig } from "../../config/load.js";
import { expectProblem } from "../../config/testkit.js";

const base = { api: { api_key: "monitoring-key" } };

describe("api_keys config", () => {
  it.each([
    ["interval under PT1M", { api_keys: { interval: "PT30S" } }, "api_keys.interval: must be at least PT1M"],
    ["max_age under P1D", { api_keys: { max_age: "PT1H" } }, "api_keys.max_age: must be at least P1D"],
    [
      "both key forms",
      { api_keys: { api_key: "a", api_key_file: "/b" } },
      "api_keys.api_key_file: set either api_key or api_key_file, not both",
    ],
    ["an unknown key", { api_keys: { owner_key: "x" } }, "api_keys.owner_key"],
  ])("rejects %s", async (_name, raw, expected) => {
    await expectProblem({ ...base, ...raw }, expected);
  });

  it("reports an unreadable key file under api_keys", async () => {
    await expectProblem(
      { ...base, api_keys: { api_key_file: "/nonexistent/vdbcloud-owner-key" } },
      "api_keys.api_key_file",
    );
  });

  it.each([
    [
      "absent: on, hourly, a year, the api section's key",
      {},
      { enabled: true, intervalMs: 3_600_000, maxAgeMs: 31_536_000_000, apiKey: "monitoring-key" },
    ],
    [
      "its own key and settings",
      { api_keys: { enabled: "true", api_key: "owner-key", interval: "PT15M", max_age: "P90D" } },
      { enabled: true, intervalMs: 900_000, maxAgeMs: 7_776_000_000, apiKey: "owner-key" },
    ],
  ])("reads %s", async (_name, raw, expected) => {
    const config = await buildConfig({ ...base, ...raw }, { env: {} });
    expect(config.apiKeys).toEqual(expected);
    // The main key stays the api section's: api.key_id names it, whichever key lists the keys.
    expect(config.api.apiKey).toBe("monitoring-key");
  });

  it("reads its key file, trimmed, relative to the config file's directory", async () => {
    const read: string[] = [];
    const config = await buildConfig(
      { ...base, api_keys: { api_key_file: "secrets/owner.key" } },
      {
        env: {},
        baseDir: "/etc/vdbcloud",
        readFile: async (path) => {
          read.push(path);
          return "  owner-from-file\n";
        },
      },
    );
    expect(read).toEqual(["/etc/vdbcloud/secrets/owner.key"]);
    expect(config.apiKeys.apiKey).toBe("owner-from-file");
  });

  it("a reload that gives it a key of its own, or changes it, says so and never shows the key", async () => {
    const before = await buildConfig(base, { env: {} });
    const owner = await buildConfig({ ...base, api_keys: { api_key: "sk-owner-1" } }, { env: {} });
    const rotated = await buildConfig({ ...base, api_keys: { api_key: "sk-owner-2" } }, { env: {} });
    const same = await buildConfig({ ...base, api_keys: { api_key: "monitoring-key" } }, { env: {} });
    expect(configChanges(before, owner)).toEqual({ api_keys_key_changed: true });
    expect(configChanges(owner, rotated)).toEqual({ api_keys_key_changed: true });
    // The main key written again under api_keys is no change of key.
    expect(configChanges(before, same)).toEqual({});
    expect(JSON.stringify(configChanges(owner, rotated))).not.toMatch(/sk-owner|monitoring-key/);
  });
});
