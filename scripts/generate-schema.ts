/**
 * Writes config/vdbcloud.schema.json from the zod schema of the config file: `npm run schema`.
 * A test fails when the committed file differs from what this script writes.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
// The registry registers the collectors' config sections, which the schema is made of.
import "../src/collectors/registry.js";
import { CONFIG_SCHEMA_FILE, configJsonSchema } from "../src/config/jsonSchema.js";

const path = join(import.meta.dirname, "..", CONFIG_SCHEMA_FILE);
writeFileSync(path, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${path}\n`);
