// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in plain strings is the config syntax under test.
/**
 * config/vdbcloud.schema.json: up to date with the zod schema it is generated from, met by the
 * example configs under a standard JSON Schema validator, and agreeing with the exporter's own
 * validation on what is a valid file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CONFIG_SCHEMA_FILE, configJsonSchema } from "../src/config/jsonSchema.js";
import { buildConfig } from "../src/config/load.js";

const ROOT = join(import.meta.dirname, "..");
const committed = readFileSync(join(ROOT, CONFIG_SCHEMA_FILE), "utf8");
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(JSON.parse(committed) as object);

function schemaErrors(doc: unknown): string[] {
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

async function exporterAccepts(doc: unknown): Promise<boolean> {
  try {
    await buildConfig(doc, { env: { VDBCLOUD_API_KEY: "k", RATE: "10", ON: "true", CLUSTER: "in01-a" } });
    return true;
  } catch {
    return false;
  }
}

describe("config JSON Schema", () => {
  it("is what `npm run schema` writes (rerun it after changing src/config/schema.ts)", () => {
    expect(committed).toBe(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  });

  it.each(["config/example.yaml", "deploy/kubernetes/base/config.yaml"])(
    "%s names the schema in its modeline and validates against it",
    (file) => {
      const text = readFileSync(join(ROOT, file), "utf8");
      const modeline = /^# yaml-language-server: \$schema=(\S+)$/m.exec(text)?.[1];
      expect(modeline && join(ROOT, file, "..", modeline)).toBe(join(ROOT, CONFIG_SCHEMA_FILE));
      expect(schemaErrors(parse(text))).toEqual([]);
    },
  );

  // Each document: what the schema and the exporter both say about it.
  it.each<[string, unknown, boolean]>([
    ["an empty file", null, true],
    ["empty sections (YAML null)", { api: null, clusters: null, metrics: null, server: null }, true],
    [
      "${VAR} references in typed fields",
      { api: { rate_limit: "${RATE}" }, metrics: { enabled: "${ON}" } },
      true,
    ],
    ["a ${VAR} cluster id", { clusters: [{ id: "${CLUSTER}" }] }, true],
    [
      "a full cluster",
      { clusters: [{ id: "in01-a", region: "aws-us-west-2", scopes: [{ db_name: "d" }] }] },
      true,
    ],
    ["an unknown top-level key", { apis: {} }, false],
    ["an unknown nested key", { api: { rate: 3 } }, false],
    ["an out-of-range integer", { api: { rate_limit: 0 } }, false],
    ["a fractional integer", { staleness_intervals: 2.5 }, false],
    ["a string where a boolean goes", { metrics: { enabled: "yes" } }, false],
    ["a cluster without id", { clusters: [{ region: "aws-us-west-2" }] }, false],
    ["a bad cluster id", { clusters: [{ id: "in01 a" }] }, false],
    ["an unknown stat", { metrics: { queries: [{ name: "CU_COMPUTATION", stat: "MAX" }] } }, false],
    ["a Spark job without job_id", { spark_jobs: { jobs: [{ project_id: "p" }] } }, false],
  ])("%s: schema and exporter agree", async (_name, doc, valid) => {
    expect(schemaErrors(doc).length === 0).toBe(valid);
    expect(await exporterAccepts(doc)).toBe(valid);
  });
});
