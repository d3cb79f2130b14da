import { describe, expect, it } from "vitest";
import { buildConfig } from "./load.js";
import { MINIMAL_RAW as base, expectProblem } from "./testkit.js";

describe("families config", () => {
  it.each([
    [
      "a deny rule that does not compile, named by its index",
      { families: { deny: ["vdbcloud_vcu", "vdbcloud_a", "(vdbcloud"] } },
      "families.deny[2]: is not a valid regular expression",
    ],
    [
      "an allow rule that does not compile",
      { families: { allow: ["vdbcloud_collector_.*|vdbcloud_config_.*|vdbcloud_exporter_.*", "a["] } },
      "families.allow[1]: is not a valid regular expression",
    ],
    [
      "a deny rule that would deny a health family",
      { families: { deny: ["vdbcloud_collector_.*"] } },
      'families.deny[0]: "vdbcloud_collector_.*" would deny vdbcloud_collector_up, vdbcloud_collector_last_success_timestamp_seconds and vdbcloud_collector_not_permitted, which cannot be denied',
    ],
    [
      "a later deny rule that would deny the reload family",
      { families: { deny: ["vdbcloud_vcu", "vdbcloud_config_.*"] } },
      'families.deny[1]: "vdbcloud_config_.*" would deny vdbcloud_config_last_reload_successful, which cannot be denied',
    ],
    [
      "an allow list that leaves out a health family",
      { families: { allow: ["vdbcloud_cluster_.*"] } },
      "families.allow: does not admit vdbcloud_collector_up",
    ],
    ["a rule that is no string", { families: { deny: [42] } }, "families.deny[0]: must be a string"],
    ["an empty rule", { families: { deny: [""] } }, "families.deny[0]: must not be empty"],
    ["a list that is no list", { families: { deny: "vdbcloud_vcu" } }, "families.deny: must be a list"],
    ["an unknown key", { families: { denied: [] } }, "families.denied: unknown key"],
  ])("rejects %s", async (_name, raw, expected) => {
    await expectProblem(raw, expected);
  });

  it("defaults to no rule, and an empty key means the default", async () => {
    expect((await buildConfig(base, { env: {} })).families).toEqual({ allow: [], deny: [] });
    expect(
      (await buildConfig({ ...base, families: { allow: null, deny: null } }, { env: {} })).families,
    ).toEqual({
      allow: [],
      deny: [],
    });
  });

  it("keeps the rules as written", async () => {
    const families = { allow: ["vdbcloud_.*"], deny: ["vdbcloud_import_job.*", "nodejs_.*"] };
    expect((await buildConfig({ ...base, families }, { env: {} })).families).toEqual(families);
  });
});
