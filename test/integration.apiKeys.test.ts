/**
 * API keys against the simulator, as a user meets them: every key with its organization role,
 * creation time and project roles, the count per role, the demo's own key holding a project
 * Admin role (excess privilege 1, one warning), both shapes of the reference, every page of a
 * long listing, the gateway's own spelling of the path, a key that may not list keys (not permitted, under the section's credential
 * label), the recommended setup (a read-only main key the service refuses the listing, the
 * section's own Owner key listing every key, the main key's excess read from that listing), a
 * refused key that costs this collector alone, and not one creator's name, e-mail address or
 * description anywhere: /metrics, the logs or the landing page.
 */
import { request } from "undici";
import { describe, expect, it } from "vitest";
import type { SimApiKey } from "../src/simulator/index.js";
import {
  everyOutput,
  expectNotPermittedOnce,
  nextListing,
  refuseKeyOnNextListing,
  useConsoleHarness,
} from "./helpers/consoleHarness.js";
import { matching, parseSamples, sampleValue, TEST_API_KEY } from "./helpers/harness.js";

const LIST = "GET /v2/api-keys";
const TARGET = { collector: "api_keys", target: "organization" };
const YEAR_S = 365 * 86_400;

/** An exporter polling the API keys (and the console listings), the demo's bad cases on, on a manual clock. */
const start = useConsoleHarness({ sim: { apiKeysBadCases: true } });

/** What people left on the simulator's keys: creator names, e-mail addresses, descriptions. */
function personal(keys: readonly SimApiKey[]): string[] {
  return [
    ...new Set(
      keys.flatMap((k) => [
        k.creatorName,
        k.description,
        ...(k.createdBy.includes("@") ? [k.createdBy] : []),
      ]),
    ),
  ];
}

/** The collector's own log lines, as parsed JSON. */
const keyLines = (logs: readonly string[]) =>
  logs
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.collector === "api_keys" && !String(l.msg).startsWith("credential"));

describe("API keys against the simulator", () => {
  it("show every key with its role, creation time and project roles, and the own key's excess", async () => {
    const { harness } = await start();
    const text = await harness.metrics();
    const keys = harness.sim.apiKeys;
    expect(keys.length).toBe(5);
    for (const k of keys) {
      const id = { api_key_id: k.apiKeyId };
      expect(
        sampleValue(text, "vdbcloud_api_key_info", { ...id, name: k.name, org_role: k.orgRole }),
        k.name,
      ).toBe(1);
      expect(sampleValue(text, "vdbcloud_api_key_created_timestamp_seconds", id)).toBe(
        Math.floor(k.createTimeMs / 1000),
      );
      for (const p of k.projects) {
        expect(
          sampleValue(text, "vdbcloud_api_key_project_role", {
            ...id,
            project_id: p.projectId,
            role: p.role,
          }),
        ).toBe(1);
      }
    }
    const roles = matching(parseSamples(text), "vdbcloud_api_keys", {}).map((s) => [
      s.labels.org_role,
      s.value,
    ]);
    expect(roles).toEqual([
      ["Owner", 1],
      ["Member", 3],
      ["Billing-Admin", 1],
    ]);
    // The demo's bad cases: its own key (api.key_id, from the collector's demo part) is Admin in
    // the first project, and two keys are over a year old.
    const own = keys.find((k) => k.name === "vdbcloud-exporter");
    expect(matching(parseSamples(text), "vdbcloud_api_key_excess_privilege", {})).toEqual([
      expect.objectContaining({ labels: { api_key_id: own?.apiKeyId }, value: 1 }),
    ]);
    const now = Date.now() / 1000;
    const old = matching(parseSamples(text), "vdbcloud_api_key_created_timestamp_seconds", {}).filter(
      (s) => now - s.value > YEAR_S,
    );
    expect(old).toHaveLength(2);
    expect(harness.sim.stats.byEndpoint[LIST]).toBe(1);
    expect(sampleValue(text, "vdbcloud_collector_up", TARGET)).toBe(1);
    expect(harness.sim.stats.mutatingCalls).toEqual([]);
  });

  it("never show a creator's name, e-mail address or a description: not in /metrics, the logs or the landing page", async () => {
    const { harness, logs, clock } = await start();
    await nextListing(harness, clock);
    const people = personal(harness.sim.apiKeys);
    expect(people.filter((p) => p.includes("@")).length).toBeGreaterThan(0);
    expect(people.length).toBeGreaterThanOrEqual(8);
    const outputs = await everyOutput(harness, logs);
    // The keys were read and talked about: the lines exist, with nothing of a person in them.
    expect(keyLines(logs).map((l) => [l.level, l.msg])).toEqual([
      [40, expect.stringMatching(/own API key holds more than monitoring needs/)],
      [30, expect.stringMatching(/older than api_keys.max_age/)],
    ]);
    expect(await harness.metrics()).toContain("vdbcloud_api_key_info{");
    for (const [where, text] of outputs) {
      expect(
        people.filter((p) => text.includes(p)),
        where,
      ).toEqual([]);
      expect(text, where).not.toMatch(/creatorName|createdBy|description":|@example\.(com|org|net)/);
    }
  });

  it("read the older shape: role bindings named Org ..., the same excess", async () => {
    const { harness } = await start({ sim: { apiKeysShape: "older" } });
    const text = await harness.metrics();
    const roles = matching(parseSamples(text), "vdbcloud_api_keys", {})
      .filter((s) => s.value > 0)
      .map((s) => [s.labels.org_role, s.value]);
    // Past the documented roles (at 0 here), in the order the listing first names them.
    expect(roles).toEqual([
      ["Org Member", 3],
      ["Org Owner", 1],
      ["Org Billing-Admin", 1],
    ]);
    const own = harness.sim.apiKeys.find((k) => k.name === "vdbcloud-exporter");
    expect(sampleValue(text, "vdbcloud_api_key_excess_privilege", { api_key_id: own?.apiKeyId ?? "" })).toBe(
      1,
    );
    expect(matching(parseSamples(text), "vdbcloud_api_key_created_timestamp_seconds", {})).toHaveLength(5);
  });

  it("read the keys where the gateway routes /v2/apiKeys: the reference's path asked once, then only the gateway's", async () => {
    const { harness, clock } = await start({ sim: { apiKeysPath: "gateway" } });
    await nextListing(harness, clock);
    const text = await harness.metrics();
    expect(matching(parseSamples(text), "vdbcloud_api_key_info", {})).toHaveLength(5);
    expect(sampleValue(text, "vdbcloud_collector_up", TARGET)).toBe(1);
    // Every call is counted under the endpoint's one template, by what the wire said: the
    // reference's path once, at the first listing; every listing since at the gateway's.
    const calls = (outcome: string) =>
      sampleValue(text, "vdbcloud_api_requests_total", { endpoint: LIST, outcome });
    expect(calls("not_found")).toBe(1);
    expect(calls("success")).toBeGreaterThanOrEqual(2);
    expect(harness.sim.stats.byEndpoint["GET /v2/apiKeys"]).toBeGreaterThanOrEqual(2);
  });

  it("read 117 keys in two pages of 100", async () => {
    const { harness } = await start({ sim: { apiKeysExtra: 112 } });
    const text = await harness.metrics();
    expect(matching(parseSamples(text), "vdbcloud_api_key_info", {})).toHaveLength(117);
    expect(harness.sim.stats.byEndpoint[LIST]).toBe(2);
  });

  it("a key that may not list keys is not permitted: up, no keys, one warning naming the role", async () => {
    const { harness, clock, logs } = await start({ sim: { apiKeysRefused: true } });
    await nextListing(harness, clock);
    // The section's key, whichever key it is (here the api section's): its label is "api_keys".
    const warning = await expectNotPermittedOnce(harness, logs, TARGET, "api_keys");
    expect(matching(parseSamples(await harness.metrics()), "vdbcloud_api_key_info", {})).toEqual([]);
    expect(warning).toContain("Organization Owner (or Project Admin for its projects' keys)");
    expect(harness.sim.stats.byEndpoint[LIST]).toBeGreaterThanOrEqual(2);
  });

  it("a read-only main key refused the listing, the section's own Owner key accepted: the main key's excess from the Owner's listing", async () => {
    const OWNER_KEY = "sk-owner-audit-SECRET-4d2f";
    const { harness, clock, logs } = await start({
      sim: { apiKeysListers: [OWNER_KEY] },
      config: (raw) => {
        raw.api_keys = { ...(raw.api_keys as Record<string, unknown>), api_key: OWNER_KEY };
      },
    });
    await nextListing(harness, clock);
    // Only the Owner key listed the keys (the first cycle and the next); the exporter never
    // asked the listing with the main key...
    expect(Object.keys(harness.sim.stats.byEndpointKey[LIST] ?? {})).toEqual([OWNER_KEY]);
    expect(harness.sim.stats.byEndpointKey[LIST]?.[OWNER_KEY]).toBeGreaterThanOrEqual(2);
    // ...which the service refuses it (it may not list keys).
    const refused = await request(`${harness.sim.baseUrl}/v2/api-keys`, {
      headers: { authorization: `Bearer ${TEST_API_KEY}` },
    });
    expect([refused.statusCode, ((await refused.body.json()) as { code: number }).code]).toEqual([
      403, 96013,
    ]);
    // The other collectors still read with the main key.
    expect(Object.keys(harness.sim.stats.byEndpointKey["GET /v2/projects"] ?? {})).toEqual([TEST_API_KEY]);
    const text = await harness.metrics();
    expect(sampleValue(text, "vdbcloud_collector_up", TARGET)).toBe(1);
    expect(matching(parseSamples(text), "vdbcloud_collector_not_permitted", {})).toEqual([]);
    expect(matching(parseSamples(text), "vdbcloud_api_key_info", {})).toHaveLength(5);
    // api.key_id still names the main key (the demo's own, Admin in the first project): found in
    // the Owner's full listing, its excess is 1, and the Owner key itself is not judged.
    const own = harness.sim.apiKeys.find((k) => k.name === "vdbcloud-exporter");
    expect(matching(parseSamples(text), "vdbcloud_api_key_excess_privilege", {})).toEqual([
      expect.objectContaining({ labels: { api_key_id: own?.apiKeyId }, value: 1 }),
    ]);
    expect(keyLines(logs).filter((l) => l.level === 40)).toEqual([
      expect.objectContaining({
        api_key_id: own?.apiKeyId,
        msg: expect.stringMatching(/own API key holds more/),
      }),
    ]);
    // The Owner key's secret is shown nowhere: its label is the section's key.
    const landing = await (await fetch(`${harness.url}/`)).text();
    const landingJson = JSON.stringify(await harness.exporter.landing());
    expect(landingJson).toContain('"credential":"api_keys"');
    for (const [where, out] of [
      ["/metrics", text],
      ["GET /", landing],
      ["landing info", landingJson],
      ["logs", logs.join("\n")],
    ] as const) {
      expect(out, where).not.toContain(OWNER_KEY);
      expect(out, where).not.toContain(TEST_API_KEY);
    }
  });

  it('a refused key (1800 "User hasn\'t authenticated") fails this collector only', async () => {
    const { harness, clock } = await start();
    // The last good listing stays until the staleness bound.
    expect(await refuseKeyOnNextListing(harness, clock, LIST, TARGET, "vdbcloud_api_key_info")).toBe(5);
  });

  it("runs on shard 0 only", async () => {
    const { harness } = await start({ shard: { index: 1, total: 2 } });
    const text = await harness.metrics();
    expect(matching(parseSamples(text), "vdbcloud_api_key_info", {})).toEqual([]);
    expect(harness.sim.stats.byEndpoint[LIST] ?? 0).toBe(0);
  });
});
