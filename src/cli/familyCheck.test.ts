import { describe, expect, it } from "vitest";
import { buildConfig } from "../config/load.js";
import type { ShippedRule } from "../config/shippedRules.js";
import { familyCheckText, familyWarnings } from "./familyCheck.js";

const RULES: ShippedRule[] = [
  { file: "alerts.yml", kind: "alert", name: "JobFailed", reads: [{ family: "vdbcloud_import_job_state" }] },
  {
    file: "recording.yml",
    kind: "record",
    name: "vdbcloud:cost:sum",
    reads: [{ family: "vdbcloud_daily_cost", via: "vdbcloud:daily:sum" }],
  },
  { file: "alerts.yml", kind: "alert", name: "Up", reads: [{ family: "vdbcloud_collector_up" }] },
];
const KNOWN = ["vdbcloud_import_job_state", "vdbcloud_daily_cost", "vdbcloud_collector_up", "vdbcloud_vcu"];
const HEALTH = "vdbcloud_collector_up";

describe("familyWarnings", () => {
  it.each<{ title: string; allow: string[]; deny: string[]; warnings: string[] }>([
    { title: "no rule, no warning", allow: [], deny: [], warnings: [] },
    {
      title: "a denied family an alert reads, naming the alert, its file, the family and the deny rule",
      allow: [],
      deny: ["vdbcloud_vcu", "vdbcloud_import_job.*"],
      warnings: [
        "alert JobFailed (alerts.yml) reads vdbcloud_import_job_state, which families.deny[1] denies",
      ],
    },
    {
      title: "a family read through a recorded series",
      allow: [],
      deny: ["vdbcloud_daily_cost"],
      warnings: [
        "recording rule vdbcloud:cost:sum (recording.yml) reads vdbcloud_daily_cost (through vdbcloud:daily:sum), which families.deny[0] denies",
      ],
    },
    {
      title: "an allow list that leaves families out",
      allow: [HEALTH, "vdbcloud_import_.*"],
      deny: [],
      warnings: [
        "recording rule vdbcloud:cost:sum (recording.yml) reads vdbcloud_daily_cost (through vdbcloud:daily:sum), which families.allow does not admit",
      ],
    },
    {
      title: "a rule that matches no family",
      allow: [],
      deny: ["vdbcloud_import_job"],
      warnings: [
        'families.deny[0]: "vdbcloud_import_job" matches no family the exporter knows (a rule matches whole names: "vdbcloud_import_job.*" matches those it begins)',
      ],
    },
  ])("$title", ({ allow, deny, warnings }) => {
    expect(familyWarnings({ allow, deny }, RULES, KNOWN)).toEqual(warnings);
  });
});

describe("familyCheckText", () => {
  const config = (families: Record<string, unknown>) =>
    buildConfig({ api: { api_key: "k" }, families }, { env: {} });

  it("says nothing without a rule", async () => {
    expect(await familyCheckText(await config({}), "t")).toBe("");
  });

  it("warns of the shipped rules that read a denied family, and knows the process metrics", async () => {
    const text = await familyCheckText(
      await config({ deny: ["vdbcloud_api_requests_total", "nodejs_.*", "vdbcloud_group_members"] }),
      "t",
    );
    expect(text).toContain("\nWarnings:\n");
    expect(text).toContain(
      "  - alert VdbcloudExporterNotPolling (alerts.yml) reads vdbcloud_api_requests_total, which families.deny[0] denies\n",
    );
    expect(text).toContain(
      "  - recording rule vdbcloud:api_request_failures:ratio_rate5m (recording.yml) reads vdbcloud_api_requests_total, which families.deny[0] denies\n",
    );
    // nodejs_.* matches prom-client's process metrics, and no shipped rule reads the groups'.
    expect(text).not.toContain("families.deny[1]");
    expect(text).not.toContain("vdbcloud_group_members");
  });
});
