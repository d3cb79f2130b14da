/**
 * The config file's JSON Schema, derived from the zod schema so editors check and complete the
 * same keys the exporter accepts. `npm run schema` writes it to config/vdbcloud.schema.json; a
 * test fails when that file is stale.
 *
 * zod describes each field's typed form; the file is more lenient than that in three ways the
 * exporter implements outside zod's JSON Schema output, so they are added here: a section or list
 * may be present but empty (YAML null), a key with a default may be left out, and any scalar may
 * be a `${VAR}` reference (substituted before validation, so it is a string in the file).
 */
import * as z from "zod";
import { configFileSchema } from "./schema.js";

type JsonObject = Record<string, unknown>;

/** Where the generated schema is published, relative to the repository root. */
export const CONFIG_SCHEMA_FILE = "config/vdbcloud.schema.json";

/** A string holding at least one `${VAR}` reference: its type is only known after substitution. */
const ENV_REFERENCE = {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} is the config syntax described.
  description: "a ${VAR} or ${VAR:-default} reference, substituted before the value is checked",
  type: "string",
  pattern: "\\$\\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\\}",
};
const ENV_REFERENCE_REF = { $ref: "#/$defs/envReference" };

const SCALAR_TYPES = new Set(["integer", "number", "boolean"]);

/** Builds the JSON Schema (draft 2020-12) of the config file. Pure: same schema, same output. */
export function configJsonSchema(): JsonObject {
  const fileSchema = configFileSchema();
  const schema = z.toJSONSchema(fileSchema, {
    io: "input",
    // Checks zod cannot express (durations, URL templates, cross-field rules) stay with the
    // exporter's --check-config; the schema states the shape around them.
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      const json = jsonSchema as JsonObject;
      relaxObject(zodSchema, json);
      acceptEnvReference(json);
    },
  }) as JsonObject;
  // An empty document is a valid file (every default).
  if (accepts(fileSchema, null)) schema.type = ["object", "null"];
  return {
    $schema: schema.$schema,
    title: "vdbcloud-exporter configuration",
    description: "The YAML configuration file of vdbcloud-exporter (see config/example.yaml).",
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$schema")),
    $defs: { envReference: ENV_REFERENCE },
  };
}

/**
 * For an object: a key is required only if the exporter rejects the file without it (zod lists
 * keys whose default is applied by a preprocessing step), and a property that accepts YAML null
 * says so.
 */
function relaxObject(zodSchema: z.core.$ZodType, json: JsonObject): void {
  const shape = objectShape(zodSchema);
  if (shape === undefined || typeof json.properties !== "object" || json.properties === null) return;
  const properties = json.properties as Record<string, JsonObject>;
  if (Array.isArray(json.required)) {
    const required = (json.required as string[]).filter((key) => !accepts(shape[key], undefined));
    if (required.length > 0) json.required = required;
    else delete json.required;
  }
  for (const [key, property] of Object.entries(properties)) {
    const field = shape[key];
    if (!accepts(field, null) || allowsNull(property)) continue;
    properties[key] = { anyOf: [property, { type: "null" }] };
  }
}

/** The shape of a (possibly preprocessed or refined) zod object, or undefined for other kinds. */
function objectShape(schema: z.core.$ZodType): Record<string, z.core.$ZodType> | undefined {
  const def = schema._zod.def as {
    type: string;
    shape?: Record<string, z.core.$ZodType>;
    out?: z.core.$ZodType;
  };
  if (def.type === "object") return def.shape;
  if (def.type === "pipe" && def.out) return objectShape(def.out);
  return undefined;
}

function accepts(schema: z.core.$ZodType | undefined, value: unknown): boolean {
  return schema !== undefined && z.safeParse(schema, value).success;
}

function allowsNull(json: JsonObject): boolean {
  if (json.type === "null") return true;
  return Array.isArray(json.anyOf) && (json.anyOf as JsonObject[]).some((s) => s.type === "null");
}

/** A number, boolean or constrained string may also be written as a `${VAR}` reference. */
function acceptEnvReference(json: JsonObject): void {
  const constrainedString = json.type === "string" && (json.pattern !== undefined || json.enum !== undefined);
  if (!(SCALAR_TYPES.has(json.type as string) || constrainedString)) return;
  const typed = { ...json };
  for (const key of Object.keys(json)) delete json[key];
  json.anyOf = [typed, ENV_REFERENCE_REF];
}
