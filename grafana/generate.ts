/**
 * Regenerates grafana/dashboards/*.json from the TypeScript specs in grafana/boards/:
 * `npx tsx grafana/generate.ts`. The JSON is committed (users import it as is), and a test
 * fails when it no longer matches what this script would write.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderAll } from "./boards/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, "dashboards");
mkdirSync(outDir, { recursive: true });

const written: string[] = [];
for (const [file, json] of renderAll()) {
  const path = join(outDir, file);
  writeFileSync(path, `${JSON.stringify(json, null, 2)}\n`);
  written.push(path);
}

// Format as the repository's formatter would, so `biome check` stays clean on committed JSON.
const biome = join(here, "..", "node_modules", ".bin", "biome");
if (existsSync(biome)) {
  const result = spawnSync(biome, ["format", "--write", ...written], { stdio: "inherit" });
  if (result.status !== 0) process.exitCode = 1;
}
for (const path of written) process.stdout.write(`wrote ${path}\n`);
