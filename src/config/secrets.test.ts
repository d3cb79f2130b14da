import { describe, expect, it } from "vitest";
import type { ConfigDraft, SecretSlot } from "./schema.js";
import { resolveSecrets } from "./secrets.js";

function draft(apiKey: SecretSlot, clusterKeys: SecretSlot[] = [], billingKey?: SecretSlot): ConfigDraft {
  return {
    apiKey,
    sectionKeys: [{ field: "billing", slot: billingKey ?? { at: "billing" } }],
    clusterKeys,
    dataPlaneTokenFiles: clusterKeys.map(() => undefined),
    config: {
      clusters: clusterKeys.map((_, i) => ({ id: `in01-${i}`, scopes: [] })),
      billing: { enabled: true },
    } as unknown as ConfigDraft["config"],
  };
}

const files: Record<string, string> = { "/k/default": "file-key\n", "/k/empty": "  \n", "/k/team": "team\n" };
const readFile = async (path: string): Promise<string> => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error("x"), { code: "ENOENT" });
  return text;
};

describe("resolveSecrets", () => {
  it.each<[name: string, slot: SecretSlot, env: Record<string, string>, key: string]>([
    ["inline value first", { at: "api", value: "inline" }, { VDBCLOUD_API_KEY: "env" }, "inline"],
    ["then the file, trimmed", { at: "api", file: "/k/default" }, { VDBCLOUD_API_KEY: "env" }, "file-key"],
    ["then the environment, trimmed", { at: "api" }, { VDBCLOUD_API_KEY: " env\n" }, "env"],
    [
      "an inline value, trimmed (an interpolated variable from a mounted secret)",
      { at: "api", value: "inline\n" },
      {},
      "inline",
    ],
  ])("%s", async (_name, slot, env, key) => {
    const result = await resolveSecrets(draft(slot), { env, readFile });
    expect(result.ok && result.config.api.apiKey).toBe(key);
  });

  it.each<
    [name: string, slot: SecretSlot, env: Record<string, string>, problem: { path: string; message: string }]
  >([
    [
      "nothing anywhere",
      { at: "api" },
      {},
      { path: "api.api_key", message: expect.stringContaining("no API key") },
    ],
    [
      "blank environment",
      { at: "api" },
      { VDBCLOUD_API_KEY: " " },
      { path: "api.api_key", message: expect.stringContaining("no API key") },
    ],
    [
      "missing file (no env fallback)",
      { at: "api", file: "/k/none" },
      { VDBCLOUD_API_KEY: "env" },
      { path: "api.api_key_file", message: "cannot read /k/none (ENOENT: no such file)" },
    ],
    [
      "blank inline value (no env fallback)",
      { at: "api", value: " \n" },
      { VDBCLOUD_API_KEY: "env" },
      { path: "api.api_key", message: "is empty" },
    ],
    [
      "blank file",
      { at: "api", file: "/k/empty" },
      {},
      { path: "api.api_key_file", message: "/k/empty is empty" },
    ],
  ])("fails: %s", async (_name, slot, env, problem) => {
    const result = await resolveSecrets(draft(slot), { env, readFile });
    expect(result).toEqual({ ok: false, problems: [problem] });
  });

  it("resolves cluster keys and reports each unreadable one under its cluster", async () => {
    const ok = await resolveSecrets(
      draft({ at: "api", value: "d" }, [{ at: "clusters[0]", file: "/k/team" }, { at: "clusters[1]" }]),
      { env: {}, readFile },
    );
    expect(ok.ok && ok.config.clusters.map((c) => c.apiKey)).toEqual(["team", undefined]);
    const bad = await resolveSecrets(
      draft({ at: "api", value: "d" }, [{ at: "clusters[0]" }, { at: "clusters[1]", file: "/k/x" }]),
      { env: {}, readFile },
    );
    expect(bad.ok ? [] : bad.problems.map((p) => p.path)).toEqual(["clusters[1].api_key_file"]);
  });

  it.each<[name: string, slot: SecretSlot, key: string]>([
    ["the default key when billing names none", { at: "billing" }, "d"],
    ["its own inline key", { at: "billing", value: "bill\n" }, "bill"],
    ["its own key file, trimmed", { at: "billing", file: "/k/team" }, "team"],
  ])("billing key: %s", async (_name, slot, key) => {
    const result = await resolveSecrets(draft({ at: "api", value: "d" }, [], slot), { env: {}, readFile });
    expect(result.ok && result.config.billing.apiKey).toBe(key);
    expect(result.ok && result.config.api.apiKey).toBe("d");
  });

  it("reports an unreadable billing key file under billing", async () => {
    const bad = await resolveSecrets(draft({ at: "api", value: "d" }, [], { at: "billing", file: "/k/x" }), {
      env: {},
      readFile,
    });
    expect(bad.ok ? [] : bad.problems.map((p) => p.path)).toEqual(["billing.api_key_file"]);
  });
});
