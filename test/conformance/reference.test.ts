/**
 * The reference's enums against the exporter: each fixture of reference/ copies, from one page of
 * the service's public reference (zilliztech/zdoc, at a named commit), the values the exporter
 * must know: the metric names of Query Cluster Metrics (V2), the statuses, plans and deployment
 * options of Describe Cluster (V2), and the error codes the refusal rule reads. When the
 * reference moves, refreshing a fixture (README.md, "Refreshing the reference fixtures") makes
 * these tests name what the exporter lacks, instead of a user finding a series missing or a
 * refusal counted as an outage.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLUSTER_STATUSES, mapCluster } from "../../src/collectors/inventory/mapping.js";
import { CURRENT_METRIC_NAMES, PLANS, upstreamMetric } from "../../src/upstream/catalog.js";
import { errorForApiCode } from "../../src/upstream/errorMapping.js";
import { CloudError } from "../../src/upstream/errors.js";
import { placeMetric } from "../../src/upstream/placement.js";
import { type Refusal, refusalOf } from "../../src/upstream/refusals.js";
import { blankCluster } from "../../src/upstream/testkit.js";

const DIR = fileURLToPath(new URL("./reference/", import.meta.url));
const REPOSITORY = "zilliztech/zdoc";
const KINDS: readonly Refusal[] = ["key_refused", "not_permitted", "plan_refused"];
/** A fixture whose values no stored page shows says so, and where they come from instead. */
const NOT_FOUND = /^not found: .*docs\/design\.md section \d/;

interface ReferenceRefusal {
  readonly code: number;
  readonly message: string;
  readonly kind: Refusal;
}

interface ReferenceFixture {
  readonly file: string;
  readonly description: string;
  readonly repository: string;
  readonly page: string | null;
  readonly commit: string | null;
  readonly source: string;
  readonly enums?: Readonly<Record<string, readonly string[]>>;
  readonly refusals?: readonly ReferenceRefusal[];
}

const KEYS = new Set(["description", "repository", "page", "commit", "source", "enums", "refusals"]);

function load(): ReferenceFixture[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const raw = JSON.parse(readFileSync(`${DIR}${file}`, "utf8")) as Record<string, unknown>;
      const unknown = Object.keys(raw).filter((k) => !KEYS.has(k));
      if (unknown.length > 0) throw new Error(`${file}: unknown keys ${unknown.join(", ")}`);
      return { file, ...raw } as ReferenceFixture;
    });
}

const FIXTURES = load();

/** The one fixture of a page, by the page's file name. */
function fixtureOf(pageFile: string): ReferenceFixture {
  const found = FIXTURES.filter((f) => f.page?.endsWith(`/${pageFile}`));
  if (found.length !== 1) throw new Error(`expected one fixture of ${pageFile}, found ${found.length}`);
  return found[0] as ReferenceFixture;
}

function enumOf(pageFile: string, name: string): readonly string[] {
  const values = fixtureOf(pageFile).enums?.[name];
  if (values === undefined) throw new Error(`${pageFile}: no enum ${name}`);
  return values;
}

function difference(a: Iterable<string>, b: Iterable<string>): string[] {
  const other = new Set(b);
  return [...a].filter((x) => !other.has(x));
}

describe("reference fixtures: each names its page and the commit it was copied from", () => {
  it("reads at least the three pages the exporter's enums come from", () => {
    expect(FIXTURES.map((f) => f.page)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/query-cluster-metrics-v2\.mdx$/),
        expect.stringMatching(/\/describe-cluster-v2\.mdx$/),
        expect.stringMatching(/\/error-codes-v2\.md$/),
      ]),
    );
  });

  it.each(FIXTURES.map((f) => [f.file, f] as const))("%s", (_file, f) => {
    expect(f.repository).toBe(REPOSITORY);
    expect(f.description.trim()).not.toBe("");
    expect(f.enums !== undefined || f.refusals !== undefined, "holds enums or refusals").toBe(true);
    if (f.page === null || f.commit === null) {
      // Only a fixture that says no page shows its values, and names the design section it used.
      expect(f.page).toBeNull();
      expect(f.commit).toBeNull();
      expect(f.source).toMatch(NOT_FOUND);
      return;
    }
    expect(f.page).toMatch(/^content\/[a-z]{2}\/reference\/\S+\.mdx?$/);
    expect(f.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(f.source).toMatch(/^docs: \S/);
    for (const [name, values] of Object.entries(f.enums ?? {})) {
      expect(values.length, name).toBeGreaterThan(0);
      expect(new Set(values).size, `${name} lists a value twice`).toBe(values.length);
    }
  });
});

describe("Query Cluster Metrics (V2): the catalog's current form is the reference's enum", () => {
  const names = enumOf("query-cluster-metrics-v2.mdx", "metricQueries[].name");

  it("lists the reference's names, in its order, and no other", () => {
    expect(names).toHaveLength(40);
    expect(difference(names, CURRENT_METRIC_NAMES), "in the reference, missing from the catalog").toEqual([]);
    expect(difference(CURRENT_METRIC_NAMES, names), "in the catalog, no longer in the reference").toEqual([]);
    expect(CURRENT_METRIC_NAMES).toEqual(names);
  });

  it.each(names.map((n) => [n]))(
    "%s has a catalog entry and a family as the current form asks it",
    (name) => {
      expect(upstreamMetric(name), name).toBeDefined();
      // The current form sends no stat: a name must place without one.
      expect(placeMetric(name, undefined), name).toBeDefined();
    },
  );
});

describe("Describe Cluster (V2): the inventory knows every status, plan and deployment option", () => {
  const page = "describe-cluster-v2.mdx";

  it.each(enumOf(page, "status").map((s) => [s]))("status %s is a declared state", (status) => {
    expect(CLUSTER_STATUSES).toContain(status.toLowerCase());
  });

  it.each(enumOf(page, "plan").map((p) => [p]))("plan %s is a known plan", (plan) => {
    expect(PLANS as readonly string[]).toContain(plan.toLowerCase());
  });

  it.each(enumOf(page, "deploymentOption").map((d) => [d]))(
    "deploymentOption %s becomes cluster_info's deployment_option",
    (option) => {
      const info = mapCluster({
        ...blankCluster("in01-reference"),
        status: "RUNNING",
        deploymentOption: option,
      }).samples.find((s) => s.family === "vdbcloud_cluster_info");
      expect(info?.labels.deployment_option).toBe(option.toLowerCase());
    },
  );
});

const REFUSALS = FIXTURES.flatMap((f) => (f.refusals ?? []).map((r) => ({ ...r, file: f.file })));

describe("refusals: every code the reference shows reads as the refusal it is", () => {
  it("covers the catalogue's permission and plan refusals and the samples' key refusals", () => {
    expect([...new Set(REFUSALS.map((r) => r.code))].sort((a, b) => a - b)).toEqual(
      expect.arrayContaining([
        1800, 21119, 80001, 80002, 96012, 96013, 96014, 96015, 96016, 96021, 96022, 96027, 96028,
      ]),
    );
    for (const r of REFUSALS) expect(KINDS, `${r.file}: ${r.code}`).toContain(r.kind);
  });

  // By the code alone: a message the rule cannot read, so only the code table decides.
  it.each(REFUSALS.map((r) => [r.code, r.kind, r] as const))("%i by its code: %s", (code, kind) => {
    const err = new CloudError("api_error", `upstream code ${code}`, {
      endpoint: "GET /v2/backups",
      apiCode: code,
    });
    expect(refusalOf(err)).toBe(kind);
  });

  // As the client reads the answer `{code, message}` (HTTP 200, as the reference's samples come).
  it.each(REFUSALS.map((r) => [r.code, r.kind, r] as const))("%i as answered: %s", (code, kind, r) => {
    const err = errorForApiCode(code, r.message, { endpoint: "GET /v2/backups", httpStatus: 200 });
    expect(refusalOf(err)).toBe(kind);
  });
});
