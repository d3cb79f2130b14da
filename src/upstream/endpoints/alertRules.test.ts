import { describe, expect, it } from "vitest";
import { REFERENCE_ALERT_RULES } from "../consoleTestkit.js";
import { expectPagingFieldsRead, expectRefusalKept, itReadsEachItem, pageOf } from "../listingTestkit.js";
import { failure, readOneGet, TEST_BASE_URL, testClient, useMockUpstream } from "../testkit.js";
import type { AlertRule } from "../types.js";
import { alertRulesDataSchema, normalizeAlertRules } from "./alertRules.js";

const upstream = useMockUpstream();
const ARGS = { projectId: "proj-asked", pageSize: 100, currentPage: 1 };

/** What a rule's actions may carry; none of it may survive the client. */
const SECRETS = [
  "https://hooks.slack.com/services/T0001/B0002/s3cr3tSlackToken",
  "https://example.com/webhook?token=s3cr3tWebhook",
  "oncall.lead@example.com",
  "pd-routing-key-0123456789",
  "genie-key-9876543210",
];

const SECRET_ACTIONS = [
  { type: "EMAIL", config: { recipients: { members: ["oncall.lead@example.com"], orgRoles: ["OWNER"] } } },
  { type: "WEBHOOK", config: { url: "https://example.com/webhook?token=s3cr3tWebhook" } },
  { type: "SLACK", config: { webhookUrl: "https://hooks.slack.com/services/T0001/B0002/s3cr3tSlackToken" } },
  { type: "PAGERDUTY", config: { region: "US", apiKey: "pd-routing-key-0123456789" } },
  { type: "OPSGENIE", config: { region: "EU", apiKey: "genie-key-9876543210" } },
];

const read = (data: unknown) => normalizeAlertRules(alertRulesDataSchema.parse(data), ARGS);

describe("List Alert Rules over HTTP", () => {
  it("GETs /v2/alertRules with the project and page, and reads the reference's sample", async () => {
    const page = await readOneGet(
      "/v2/alertRules",
      { projectId: "proj-b44a39b0c51cf21791a841", pageSize: 100, currentPage: 1 },
      REFERENCE_ALERT_RULES,
      (client, args) => client.listAlertRules(args),
    );
    expect(page).toStrictEqual(
      pageOf({ total: 1, currentPage: 1, pageSize: 10 }, "rules", [
        {
          ruleId: "12391290837zs09sad0d09123",
          projectId: "proj-b44a39b0c51cf21791a841",
          ruleName: "my alert name",
          metricName: "REQUEST_LATENCY_SEARCH_P99",
          level: "CRITICAL|WARNING",
          comparison: "GREATER_THAN",
          threshold: 70,
          windowSeconds: 600,
          enabled: true,
          targetClusterIds: ["in01-xxxxxxxxxxxx"],
        },
      ]),
    );
    // The sample's recipients, URLs and keys stop at the client.
    expect(JSON.stringify(page)).not.toMatch(/your-email|your-org\.com|https:\/\/xxxx|apiKey|recipients/);
  });

  it("drops every action: no webhook URL, recipient or routing key leaves the client", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: (p) => p.startsWith("/v2/alertRules?") })
      .reply(200, {
        code: 0,
        data: {
          count: 1,
          alertRules: [{ ...REFERENCE_ALERT_RULES.alertRules[0], id: "r1", actions: SECRET_ACTIONS }],
        },
      });
    const { client } = testClient();
    const text = JSON.stringify(await client.listAlertRules(ARGS));
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  it("a malformed rule is a schema error that names paths, never the actions' values", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: (p) => p.startsWith("/v2/alertRules?") })
      .reply(200, {
        code: 0,
        data: { count: 1, alertRules: [{ id: { nested: true }, actions: SECRET_ACTIONS }] },
      });
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(client.listAlertRules(ARGS));
    expect(err.code).toBe("schema_error");
    expect(err.message).toContain("data.alertRules[0].id");
    for (const secret of SECRETS) expect(err.message).not.toContain(secret);
  });

  it("a key that is not project admin is refused with the error-code list's code", () =>
    expectRefusalKept(
      upstream,
      "/v2/alertRules",
      "GET /v2/alertRules",
      (client) => client.listAlertRules(ARGS),
      {
        code: 96013,
        message: "Org owner or project owner is needed",
        want: "not_permitted",
      },
    ));
});

describe("normalizeAlertRules", () => {
  const rule = (fields: Record<string, unknown>): AlertRule | undefined =>
    read({ alertRules: [{ id: "r", ...fields }] }).rules[0];

  itReadsEachItem(rule, [
    // Threshold: a string in the reference, a number where a server sends one.
    { name: 'threshold "70"', fields: { threshold: "70" }, want: { threshold: 70 } },
    { name: 'threshold "0.5"', fields: { threshold: "0.5" }, want: { threshold: 0.5 } },
    { name: 'threshold "1000"', fields: { threshold: "1000" }, want: { threshold: 1000 } },
    { name: "threshold as a number", fields: { threshold: 90 }, want: { threshold: 90 } },
    { name: "threshold unreadable", fields: { threshold: "high" }, want: { threshold: null } },
    { name: "threshold absent", fields: {}, want: { threshold: null } },
    // Window: minutes as a string; a duration with units is read too.
    { name: 'window "10"', fields: { windowSize: "10" }, want: { windowSeconds: 600 } },
    { name: 'window "1"', fields: { windowSize: "1" }, want: { windowSeconds: 60 } },
    { name: "window as a number", fields: { windowSize: 5 }, want: { windowSeconds: 300 } },
    { name: 'window "5m"', fields: { windowSize: "5m" }, want: { windowSeconds: 300 } },
    { name: 'window "1h30m"', fields: { windowSize: "1h30m" }, want: { windowSeconds: 5400 } },
    { name: 'window "-5"', fields: { windowSize: "-5" }, want: { windowSeconds: null } },
    { name: 'window "soon"', fields: { windowSize: "soon" }, want: { windowSeconds: null } },
    // Targets: targetInstanceIds (list), targetClusterIds (create examples), both, neither.
    {
      name: "targetInstanceIds",
      fields: { targetInstanceIds: ["in01-a", "in01-b"] },
      want: { targetClusterIds: ["in01-a", "in01-b"] },
    },
    {
      name: "targetClusterIds",
      fields: { targetClusterIds: ["in01-c"] },
      want: { targetClusterIds: ["in01-c"] },
    },
    {
      name: "both, overlapping",
      fields: { targetInstanceIds: ["in01-a"], targetClusterIds: ["in01-a", "in01-b"] },
      want: { targetClusterIds: ["in01-a", "in01-b"] },
    },
    { name: "an empty list", fields: { targetInstanceIds: [] }, want: { targetClusterIds: [] } },
    { name: "no target field", fields: {}, want: { targetClusterIds: null } },
    // The comparison under either name.
    {
      name: "comparisonMethod",
      fields: { comparisonMethod: "LESS_THAN" },
      want: { comparison: "LESS_THAN" },
    },
    {
      name: "comparisonOperator",
      fields: { comparisonOperator: "GREATER_THAN_OR_EQUALS" },
      want: { comparison: "GREATER_THAN_OR_EQUALS" },
    },
    { name: "no comparison", fields: {}, want: { comparison: "" } },
    // Enabled: a boolean, or its string.
    { name: "enabled false", fields: { enabled: false }, want: { enabled: false } },
    { name: 'enabled "true"', fields: { enabled: "true" }, want: { enabled: true } },
    { name: "enabled absent", fields: {}, want: { enabled: null } },
    // A rule without its project is the asked project's.
    { name: "no projectId", fields: {}, want: { projectId: "proj-asked" } },
  ]);

  it("reads a page's paging fields as given, null where absent", () => {
    expectPagingFieldsRead(read, "alertRules", "rules", {});
  });

  it("refuses a rule without an ID: a rule cannot be told from another without one", () => {
    expect(alertRulesDataSchema.safeParse({ alertRules: [{ ruleName: "x" }] }).success).toBe(false);
  });
});
