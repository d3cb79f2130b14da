import { describe, expect, it } from "vitest";
import {
  EVERY_FAMILY,
  FamilyFilter,
  familyFilter,
  familyListPath,
  healthProblems,
  unmatchedRules,
  wholeName,
} from "./familyFilter.js";
import { HEALTH_FAMILY_NAMES } from "./selfFamilies.js";

/** An allow rule that admits every health family, as a valid allow list must. */
const HEALTH = HEALTH_FAMILY_NAMES.join("|");

describe("FamilyFilter", () => {
  it.each<{ title: string; allow: string[]; deny: string[]; name: string; exposed: boolean }>([
    { title: "no rule exposes every family", allow: [], deny: [], name: "vdbcloud_anything", exposed: true },
    // Anchoring: a rule is the whole name, never a part of it.
    {
      title: "a deny rule is no prefix",
      allow: [],
      deny: ["vdbcloud_import_job"],
      name: "vdbcloud_import_job_state",
      exposed: true,
    },
    {
      title: "a deny rule is no suffix",
      allow: [],
      deny: ["job_state"],
      name: "vdbcloud_import_job_state",
      exposed: true,
    },
    {
      title: "a deny rule matching the whole name denies it",
      allow: [],
      deny: ["vdbcloud_import_job_state"],
      name: "vdbcloud_import_job_state",
      exposed: false,
    },
    {
      title: "a prefix needs .*",
      allow: [],
      deny: ["vdbcloud_import_job.*"],
      name: "vdbcloud_import_job_state",
      exposed: false,
    },
    // An alternation is anchored as a whole: "a|b" is ^(?:a|b)$, not ^a|b$.
    {
      title: "an alternation matches whole alternatives only",
      allow: [],
      deny: ["vdbcloud_vcu|vdbcloud_entities"],
      name: "vdbcloud_entities_extra",
      exposed: true,
    },
    {
      title: "an alternation denies each whole alternative",
      allow: [],
      deny: ["vdbcloud_vcu|vdbcloud_entities"],
      name: "vdbcloud_entities",
      exposed: false,
    },
    {
      title: "rules are case-sensitive",
      allow: [],
      deny: ["VDBCLOUD_VCU"],
      name: "vdbcloud_vcu",
      exposed: true,
    },
    // Allow and deny together: the allow list admits, the deny list then removes.
    {
      title: "an allow list admits what one of its rules matches",
      allow: ["vdbcloud_cluster_.*", HEALTH],
      deny: [],
      name: "vdbcloud_cluster_info",
      exposed: true,
    },
    {
      title: "an allow list leaves out what none of its rules matches",
      allow: ["vdbcloud_cluster_.*", HEALTH],
      deny: [],
      name: "vdbcloud_backups",
      exposed: false,
    },
    {
      title: "deny wins over allow",
      allow: ["vdbcloud_cluster_.*", HEALTH],
      deny: ["vdbcloud_cluster_status"],
      name: "vdbcloud_cluster_status",
      exposed: false,
    },
    {
      title: "the rest of an allowed prefix stays",
      allow: ["vdbcloud_cluster_.*", HEALTH],
      deny: ["vdbcloud_cluster_status"],
      name: "vdbcloud_cluster_cu_size",
      exposed: true,
    },
    {
      title: "process metrics are families like any other",
      allow: [],
      deny: ["nodejs_.*"],
      name: "nodejs_heap_size_used_bytes",
      exposed: false,
    },
  ])("$title", ({ allow, deny, name, exposed }) => {
    const filter = new FamilyFilter({ allow, deny });
    expect(filter.exposes(name)).toBe(exposed);
    // Asked twice (memoized): the same answer.
    expect(filter.exposes(name)).toBe(exposed);
    expect(filter.everything).toBe(allow.length === 0 && deny.length === 0);
  });

  it("names the rule that denies a family: the first deny rule that matches, else the allow list", () => {
    const filter = new FamilyFilter({
      allow: ["vdbcloud_a.*", HEALTH],
      deny: ["vdbcloud_x", "vdbcloud_a_.*"],
    });
    expect(filter.denial("vdbcloud_a_one")).toEqual({ list: "deny", index: 1 });
    expect(filter.denial("vdbcloud_b")).toEqual({ list: "allow" });
    expect(filter.denial("vdbcloud_ab")).toBeUndefined();
  });

  it("compiles a config's lists once", () => {
    const lists = { allow: [], deny: ["vdbcloud_vcu"] };
    expect(familyFilter(lists)).toBe(familyFilter(lists));
    expect(familyFilter({ allow: [], deny: ["vdbcloud_vcu"] })).not.toBe(familyFilter(lists));
    expect(EVERY_FAMILY.everything).toBe(true);
  });

  it("matches whole names with wholeName", () => {
    expect(wholeName("a|b").source).toBe("^(?:a|b)$");
  });
});

describe("healthProblems", () => {
  it.each<{ title: string; allow: string[]; deny: string[]; problems: string[] }>([
    { title: "no rule", allow: [], deny: [], problems: [] },
    { title: "a deny rule on other families", allow: [], deny: ["vdbcloud_import_job.*"], problems: [] },
    {
      title: "a deny rule matching some health families, named by its index",
      allow: [],
      deny: ["vdbcloud_vcu", "vdbcloud_collector_.*"],
      problems: [
        'families.deny[1]: "vdbcloud_collector_.*" would deny vdbcloud_collector_up, vdbcloud_collector_last_success_timestamp_seconds and vdbcloud_collector_not_permitted, which cannot be denied (the exporter\'s health families)',
      ],
    },
    {
      title: "a deny rule matching one",
      allow: [],
      deny: ["vdbcloud_exporter_build_info"],
      problems: [
        'families.deny[0]: "vdbcloud_exporter_build_info" would deny vdbcloud_exporter_build_info, which cannot be denied (the exporter\'s health families)',
      ],
    },
    {
      title: "everything denied",
      allow: [],
      deny: [".*"],
      problems: [
        `families.deny[0]: ".*" would deny ${HEALTH_FAMILY_NAMES.slice(0, -1).join(", ")} and ${HEALTH_FAMILY_NAMES.at(-1)}, which cannot be denied (the exporter's health families)`,
      ],
    },
    {
      title: "an allow list admitting them all",
      allow: [
        "vdbcloud_cluster_.*",
        "vdbcloud_collector_.*",
        "vdbcloud_config_.*|vdbcloud_exporter_build_info",
      ],
      deny: [],
      problems: [],
    },
    {
      title: "an allow list missing some, told what to add",
      allow: ["vdbcloud_collector_.*"],
      deny: [],
      problems: [
        'families.allow: does not admit vdbcloud_config_last_reload_successful and vdbcloud_exporter_build_info, which cannot be denied (the exporter\'s health families): add the rule "vdbcloud_config_last_reload_successful|vdbcloud_exporter_build_info"',
      ],
    },
    // An invalid rule is the schema's to report; it hides nothing here.
    { title: "an invalid deny rule", allow: [], deny: ["a(b"], problems: [] },
    { title: "an allow list with an invalid rule", allow: ["a(b"], deny: [], problems: [] },
  ])("$title", ({ allow, deny, problems }) => {
    expect(healthProblems({ allow, deny }).map((p) => `${familyListPath(p.path)}: ${p.message}`)).toEqual(
      problems,
    );
  });
});

describe("unmatchedRules", () => {
  const known = ["vdbcloud_import_job_state", "vdbcloud_vcu", "nodejs_heap_size_used_bytes"];
  it.each<{ title: string; allow: string[]; deny: string[]; paths: string[] }>([
    { title: "rules that match", allow: [], deny: ["vdbcloud_import_job.*", "nodejs_.*"], paths: [] },
    {
      title: "a name written as a prefix",
      allow: [],
      deny: ["vdbcloud_vcu", "vdbcloud_import_job"],
      paths: ["families.deny[1]"],
    },
    { title: "in the allow list too", allow: ["vdbcloud_nothing"], deny: [], paths: ["families.allow[0]"] },
  ])("$title", ({ allow, deny, paths }) => {
    const problems = unmatchedRules({ allow, deny }, known);
    expect(problems.map((p) => familyListPath(p.path))).toEqual(paths);
    for (const p of problems) expect(p.message).toContain("matches no family the exporter knows");
  });
});
