import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { storeContext } from "../../../test/helpers/storeContext.js";
import { tasksOf } from "../../polling/model.js";
import { CloudError } from "../../upstream/errors.js";
import { projectV2 } from "../../upstream/testkit.js";
import type { AlertRule, AlertRulePage, CloudApi, ProjectV2 } from "../../upstream/types.js";
import { ALERT_RULES_PAGE_SIZE, alertRulesCollector } from "./tasks.js";

const T0 = Date.UTC(2025, 5, 1);
const ENDPOINT = "GET /v2/alertRules";

const project = (projectId: string): ProjectV2 => projectV2(projectId, ["aws-us-west-2"]);

const rule = (projectId: string, i: number): AlertRule => ({
  ruleId: `${projectId}-rule-${i}`,
  projectId,
  ruleName: `rule ${i}`,
  metricName: "CU_COMPUTATION",
  level: i % 2 === 0 ? "WARNING" : "CRITICAL",
  comparison: "GREATER_THAN",
  threshold: 70 + i,
  windowSeconds: 600,
  enabled: i % 10 !== 3,
  targetClusterIds: ["in01-a"],
});

/** A fake service holding `rules[project]` rules per project, paged as asked; `refuse` fails a project's pages. */
function fake(
  rules: Record<string, number>,
  refuse: (projectId: string) => Error | undefined = () => undefined,
) {
  const pages: string[] = [];
  const client = {
    listProjectsV2: async () => Object.keys(rules).map(project),
    listAlertRules: async (args: {
      projectId: string;
      pageSize: number;
      currentPage: number;
    }): Promise<AlertRulePage> => {
      pages.push(`${args.projectId} page ${args.currentPage} of ${args.pageSize}`);
      const err = refuse(args.projectId);
      if (err) throw err;
      const total = rules[args.projectId] ?? 0;
      const from = (args.currentPage - 1) * args.pageSize;
      const page = Array.from({ length: Math.max(0, Math.min(args.pageSize, total - from)) }, (_, i) =>
        rule(args.projectId, from + i),
      );
      return {
        total,
        currentPage: args.currentPage,
        pageSize: args.pageSize,
        listed: page.length,
        rules: page,
      };
    },
  } as unknown as CloudApi;
  return { client, pages };
}

async function taskOf(client: CloudApi, raw: Record<string, unknown> = {}, shard = { index: 0, total: 1 }) {
  const s = storeContext(T0);
  const env = { ...(await collectorEnv({ ctx: s.ctx, client, raw })), shard };
  return { s, tasks: alertRulesCollector.tasks(env) };
}

async function runOnce(client: CloudApi, raw: Record<string, unknown> = {}) {
  const { s, tasks } = await taskOf(client, raw);
  const [task] = tasks;
  if (!task) throw new Error("no task");
  const outcome = await task.run(new AbortController().signal);
  return { s, task, outcome, text: await s.text() };
}

const countOf = (text: string, family: string) =>
  text.split("\n").filter((l) => l.startsWith(`${family}{`)).length;

const refusals = [
  [
    "the error-code list's 96013",
    () =>
      new CloudError("api_error", "upstream code 96013: Org owner or project owner is needed", {
        endpoint: ENDPOINT,
        apiCode: 96013,
      }),
  ],
  [
    "the error-code list's 96027",
    () =>
      new CloudError("api_error", "upstream code 96027: Please check your Apikey scope", {
        endpoint: ENDPOINT,
        apiCode: 96027,
      }),
  ],
  [
    "HTTP 403",
    () => new CloudError("auth_error", "HTTP 403: Forbidden", { endpoint: ENDPOINT, httpStatus: 403 }),
  ],
] as const;

describe("the alert rules collector", () => {
  it("is scheduled on shard 0 only, while alert_rules.enabled", async () => {
    const { client } = fake({});
    const planned = await taskOf(client);
    expect(planned.tasks.map((t) => [t.id, t.intervalMs])).toEqual([
      [{ collector: "alert_rules", target: "organization" }, 900_000],
    ]);
    expect((await taskOf(client, {}, { index: 1, total: 3 })).tasks).toEqual([]);
    expect((await taskOf(client, { alert_rules: { enabled: false } })).tasks).toEqual([]);
  });

  it("declares its families, so a deny list of them all spares every call", async () => {
    const { client } = fake({ p1: 2 });
    const s = storeContext(T0);
    const env = await collectorEnv({
      ctx: s.ctx,
      client,
      raw: { families: { deny: ["vdbcloud_console_alert_rule_.*"] } },
    });
    expect(alertRulesCollector.families(env.config)).toEqual([
      "vdbcloud_console_alert_rule_info",
      "vdbcloud_console_alert_rule_enabled",
      "vdbcloud_console_alert_rule_threshold",
      "vdbcloud_console_alert_rule_window_seconds",
      "vdbcloud_console_alert_rule_clusters",
    ]);
    expect(tasksOf([alertRulesCollector], env)).toEqual([]);
  });

  it("plans List Projects V2 and a page per configured project, more at run time", async () => {
    const { client } = fake({});
    const raw = {
      clusters: [
        { id: "in01-a", project_id: "p1" },
        { id: "in01-b", project_id: "p1" },
        { id: "in01-c", project_id: "p2" },
        { id: "in01-d" },
      ],
    };
    const [task] = (await taskOf(client, raw)).tasks;
    expect(task?.calls).toEqual([
      { endpoint: "GET /v2/projects", count: 1, atLeast: false },
      { endpoint: ENDPOINT, count: 2, atLeast: true },
    ]);
  });

  it("lists every page of each known project once: 112 rules in two pages, 3 in one", async () => {
    const { client, pages } = fake({ "proj-big": 112, "proj-small": 3 });
    const { outcome, text } = await runOnce(client, {
      clusters: [{ id: "in01-x", project_id: "proj-extra" }],
    });
    expect(outcome).toBe("ok");
    expect(pages).toEqual([
      `proj-big page 1 of ${ALERT_RULES_PAGE_SIZE}`,
      `proj-big page 2 of ${ALERT_RULES_PAGE_SIZE}`,
      `proj-small page 1 of ${ALERT_RULES_PAGE_SIZE}`,
      `proj-extra page 1 of ${ALERT_RULES_PAGE_SIZE}`,
    ]);
    expect(countOf(text, "vdbcloud_console_alert_rule_info")).toBe(115);
    expect(countOf(text, "vdbcloud_console_alert_rule_enabled")).toBe(115);
    expect(text).toContain(
      'vdbcloud_console_alert_rule_enabled{project_id="proj-big",rule_id="proj-big-rule-103"} 0',
    );
    expect(text).toContain(
      'vdbcloud_console_alert_rule_threshold{project_id="proj-big",rule_id="proj-big-rule-111"} 181',
    );
    expect(text).toContain(
      'vdbcloud_console_alert_rule_window_seconds{project_id="proj-small",rule_id="proj-small-rule-2"} 600',
    );
    expect(text).toContain(
      'vdbcloud_console_alert_rule_clusters{project_id="proj-small",rule_id="proj-small-rule-0"} 1',
    );
  });

  it.each(refusals)(
    "a key that is not project admin anywhere (%s) is not permitted, one line",
    async (_name, err) => {
      const { client } = fake({ p1: 2, p2: 2 }, () => err());
      const { s, tasks } = await taskOf(client);
      const [task] = tasks;
      if (!task) throw new Error("no task");
      for (let i = 0; i < 3; i++) expect(await task.run(new AbortController().signal)).toBe("ok");
      const text = await s.text();
      expect(text).toContain(
        'vdbcloud_collector_not_permitted{collector="alert_rules",target="organization",credential="default"} 1',
      );
      expect(text).toContain('vdbcloud_collector_up{collector="alert_rules",target="organization"} 1');
      expect(countOf(text, "vdbcloud_console_alert_rule_info")).toBe(0);
      const lines = s.logs.filter((l) => /"level":(40|50)/.test(l));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/credential lacks the permission this collector needs \(Project Admin\)/);
    },
  );

  it("a project where the key is not admin is a partial failure; the other projects' rules are shown", async () => {
    const [, refuse] = refusals[0];
    const { client } = fake({ p1: 2, p2: 3 }, (p) => (p === "p1" ? refuse() : undefined));
    const { s, outcome, text } = await runOnce(client);
    expect(outcome).toBe("ok");
    expect(countOf(text, "vdbcloud_console_alert_rule_info")).toBe(3);
    expect(s.health.list().find((h) => h.collector === "alert_rules")?.partialError?.message).toMatch(
      /96013/,
    );
  });
});
