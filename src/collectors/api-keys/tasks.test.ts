import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { countOf, notPermittedErrors, runTask, taskOf } from "../../../test/helpers/projectListingTask.js";
import { storeContext } from "../../../test/helpers/storeContext.js";
import { tasksOf } from "../../polling/model.js";
import { CloudError } from "../../upstream/errors.js";
import type { ApiKey, ApiKeyPage, CloudApi } from "../../upstream/types.js";
import { API_KEYS_PAGE_SIZE, apiKeysCollector } from "./tasks.js";

const ENDPOINT = "GET /v2/api-keys";
const TASKS = apiKeysCollector.tasks;
const ID = { collector: "api_keys", target: "organization" };

const key = (i: number): ApiKey => ({
  apiKeyId: `key-${i}`,
  name: `service ${i}`,
  orgRoles: ["Member"],
  projectRoles: [{ projectId: "p1", role: "Read-Only" }],
  createdAtMs: Date.UTC(2025, 0, 1),
});

/**
 * A fake service listing `count` keys, paged as asked; `change` alters a key as listed (read
 * at each call), `refuse` fails every page. `asked` records each page asked.
 */
function fake(count: number, opts: { change?: () => (k: ApiKey) => ApiKey; refuse?: () => Error } = {}) {
  const asked: string[] = [];
  const client = {
    listApiKeys: async ({
      pageSize,
      currentPage,
    }: {
      pageSize: number;
      currentPage: number;
    }): Promise<ApiKeyPage> => {
      asked.push(`page ${currentPage} of ${pageSize}`);
      if (opts.refuse) throw opts.refuse();
      const from = (currentPage - 1) * pageSize;
      const change = opts.change?.() ?? ((k: ApiKey) => k);
      const apiKeys = Array.from({ length: Math.max(0, Math.min(pageSize, count - from)) }, (_, i) =>
        change(key(from + i)),
      );
      return { total: count, currentPage, pageSize, listed: apiKeys.length, apiKeys };
    },
  } as unknown as CloudApi;
  return { client, asked };
}

/** The collector's own log lines (not the health's), as parsed JSON. */
const keyLines = (logs: readonly string[]) =>
  logs
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter(
      (l) => l.collector === "api_keys" && l.msg !== undefined && !String(l.msg).startsWith("credential"),
    );

describe("the API keys collector", () => {
  it("is one task on shard 0 only, while its section is on, every hour by default", async () => {
    const { client } = fake(1);
    expect(
      (await taskOf(TASKS, client)).tasks.map((t) => [t.id, t.intervalMs, t.credential, t.calls]),
    ).toEqual([[ID, 3_600_000, "api_keys", [{ endpoint: ENDPOINT, count: 1, atLeast: true }]]]);
    expect((await taskOf(TASKS, client, { api_keys: { interval: "PT15M" } })).tasks[0]?.intervalMs).toBe(
      900_000,
    );
    expect((await taskOf(TASKS, client, { api_keys: { enabled: false } })).tasks).toEqual([]);
    expect((await taskOf(TASKS, client, {}, { index: 1, total: 2 })).tasks).toEqual([]);
  });

  it("declares its families, so a deny list of them all spares its call", async () => {
    const { env } = await taskOf(TASKS, fake(1).client, { families: { deny: ["vdbcloud_api_key.*"] } });
    expect(apiKeysCollector.families(env.config)).toEqual([
      "vdbcloud_api_key_info",
      "vdbcloud_api_key_created_timestamp_seconds",
      "vdbcloud_api_key_project_role",
      "vdbcloud_api_keys",
      "vdbcloud_api_key_excess_privilege",
    ]);
    expect(tasksOf([apiKeysCollector], env)).toEqual([]);
  });

  it("lists every page once: 112 keys in two pages of 100", async () => {
    const { client, asked } = fake(112);
    const { outcomes, text } = await runTask(TASKS, client);
    expect(outcomes).toEqual(["ok"]);
    expect(asked).toEqual([`page 1 of ${API_KEYS_PAGE_SIZE}`, `page 2 of ${API_KEYS_PAGE_SIZE}`]);
    expect(countOf(text, "vdbcloud_api_key_info")).toBe(112);
    expect(text).toContain('vdbcloud_api_keys{org_role="Member"} 112');
    expect(text).toContain(
      'vdbcloud_api_key_info{api_key_id="key-111",name="service 111",org_role="Member"} 1',
    );
  });

  it.each(notPermittedErrors(ENDPOINT))(
    "a key that may not list keys (%s) is not permitted: up, no keys, one line naming the role",
    async (_name, err) => {
      const { s, outcomes, text } = await runTask(TASKS, fake(3, { refuse: err }).client, {}, 3);
      expect(outcomes).toEqual(["ok", "ok", "ok"]);
      expect(text).toContain(
        'vdbcloud_collector_not_permitted{collector="api_keys",target="organization",credential="api_keys"} 1',
      );
      expect(text).toContain('vdbcloud_collector_up{collector="api_keys",target="organization"} 1');
      expect(countOf(text, "vdbcloud_api_key_info")).toBe(0);
      const lines = s.logs.filter((l) => /"level":(40|50)/.test(l));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(
        "credential lacks the permission this collector needs (Organization Owner (or Project Admin for its projects' keys): give api_keys a key of its own (api_keys.api_key))",
      );
    },
  );

  it("lists with the section's own key, and checks api.key_id (the main key) in that listing", async () => {
    const s = storeContext(Date.UTC(2025, 5, 1));
    // The main key may not list keys; the section's own key (an Owner's) lists them all.
    const main = fake(3, {
      refuse: () =>
        new CloudError("auth_error", "HTTP 403: Forbidden", { endpoint: ENDPOINT, httpStatus: 403 }),
    });
    const owner = fake(3, {
      change: () => (k) => (k.apiKeyId === "key-2" ? { ...k, orgRoles: ["Owner"], projectRoles: [] } : k),
    });
    const raw = {
      api: { api_key: "read-only-key", key_id: "key-2" },
      api_keys: { api_key: "owner-key", interval: "PT15M" },
    };
    const env = await collectorEnv({
      ctx: s.ctx,
      client: main.client,
      ownKeys: { api_keys: owner.client },
      raw,
    });
    const [task] = apiKeysCollector.tasks(env);
    if (!task) throw new Error("no task");
    expect([task.credential, task.intervalMs]).toEqual(["api_keys", 900_000]);
    expect(await task.run(new AbortController().signal)).toBe("ok");
    expect([main.asked, owner.asked]).toEqual([[], [`page 1 of ${API_KEYS_PAGE_SIZE}`]]);
    const text = await s.text();
    expect(countOf(text, "vdbcloud_api_key_info")).toBe(3);
    expect(text).toContain('vdbcloud_api_key_excess_privilege{api_key_id="key-2"} 1');
    expect(text).not.toContain("vdbcloud_collector_not_permitted{");
    expect(s.logs.join("\n")).not.toMatch(/owner-key|read-only-key/);
  });

  it('a key the service refuses (1800 "User hasn\'t authenticated") fails the target', async () => {
    const refused = () =>
      new CloudError("auth_error", "upstream code 1800: User hasn't authenticated", {
        endpoint: ENDPOINT,
        apiCode: 1800,
      });
    const { outcomes, text } = await runTask(TASKS, fake(1, { refuse: refused }).client);
    expect(outcomes).toEqual(["permanent_failure"]);
    expect(text).toContain('vdbcloud_collector_up{collector="api_keys",target="organization"} 0');
    expect(text).not.toContain('vdbcloud_collector_not_permitted{collector="api_keys"');
  });

  it("checks the own key of api.key_id: 1 and one warning per change, 0 once read-only again", async () => {
    let own: Partial<ApiKey> = { projectRoles: [{ projectId: "p1", role: "Admin" }] };
    const { client } = fake(3, { change: () => (k) => (k.apiKeyId === "key-1" ? { ...k, ...own } : k) });
    const raw = { api: { api_key: "test-key", key_id: "key-1" } };
    const { s, tasks } = await taskOf(TASKS, client, raw);
    const [task] = tasks;
    if (!task) throw new Error("no task");
    const run = async (n: number) => {
      for (let i = 0; i < n; i++) await task.run(new AbortController().signal);
    };
    await run(3);
    expect(await s.text()).toContain('vdbcloud_api_key_excess_privilege{api_key_id="key-1"} 1');
    own = { orgRoles: ["Owner"], projectRoles: [] };
    await run(2);
    own = {};
    await run(2);
    expect(await s.text()).toContain('vdbcloud_api_key_excess_privilege{api_key_id="key-1"} 0');
    expect(keyLines(s.logs).map((l) => [l.level, l.api_key_id, l.excess])).toEqual([
      [40, "key-1", ["role Admin in project p1"]],
      [40, "key-1", ["organization role Owner"]],
      [30, "key-1", undefined],
    ]);
  });

  it("an api.key_id not in the listing: no excess series, one info line saying why", async () => {
    const raw = { api: { api_key: "test-key", key_id: "key-absent" } };
    const { s, text } = await runTask(TASKS, fake(2).client, raw, 3);
    expect(text).not.toContain("vdbcloud_api_key_excess_privilege{");
    expect(keyLines(s.logs).map((l) => [l.level, l.api_key_id, l.msg])).toEqual([
      [30, "key-absent", expect.stringMatching(/not in List API Keys, which lists customized ACL keys only/)],
    ]);
  });

  it("logs the keys older than api_keys.max_age once, and says what it does in --check-config", async () => {
    // The keys were made on 2025-01-01; the test's clock is 2025-06-01: five months.
    const { s } = await runTask(TASKS, fake(2).client, { api_keys: { max_age: "P30D" } }, 3);
    expect(keyLines(s.logs).map((l) => [l.keys, l.max_age, l.api_key_ids])).toEqual([
      [2, "P30D", ["key-0", "key-1"]],
    ]);
    const { env } = await taskOf(TASKS, fake(0).client, { api: { api_key: "k", key_id: "key-1" } });
    expect(apiKeysCollector.notes(env.config, { clusters: [], discovered: 0 })).toEqual([
      "API keys: keys older than api_keys.max_age (P365D) are logged as the set changes; the alert VdbcloudApiKeyOld has its own threshold in config/prometheus/thresholds.yml",
      "API keys: the exporter's own key (api.key_id key-1) is checked for more than monitoring needs (Owner, or a project role above Read-Only)",
    ]);
  });
});
