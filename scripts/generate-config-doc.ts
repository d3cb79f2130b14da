/**
 * Rewrites the generated key reference of docs/configuration.md from the config's JSON Schema
 * and config/example.yaml (see scripts/configDoc.ts): part of `npm run generate`. A test fails
 * when the committed file differs from what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
// The registry registers the collectors' config sections, which the schema is made of.
import "../src/collectors/registry.js";
import { configJsonSchema } from "../src/config/jsonSchema.js";
import { CONFIG_DOC_FILE, EXAMPLE_FILE, renderConfigDoc } from "./configDoc.js";

const root = join(import.meta.dirname, "..");
const path = join(root, CONFIG_DOC_FILE);
const example = readFileSync(join(root, EXAMPLE_FILE), "utf8");
writeFileSync(path, renderConfigDoc(readFileSync(path, "utf8"), configJsonSchema(), example));
process.stdout.write(`wrote ${path}\n`);
