/**
 * Writes the generated Kubernetes manifests (see scripts/manifests.ts): `npm run manifests`.
 * Dashboard copies of dashboards that no longer exist are removed.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DASHBOARD_COPIES, renderManifests } from "./manifests.js";

const root = join(import.meta.dirname, "..");
const files = renderManifests(root);
mkdirSync(join(root, DASHBOARD_COPIES), { recursive: true });
for (const name of readdirSync(join(root, DASHBOARD_COPIES))) {
  if (!files.has(`${DASHBOARD_COPIES}/${name}`)) rmSync(join(root, DASHBOARD_COPIES, name));
}
for (const [path, content] of files) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
  process.stdout.write(`wrote ${path}\n`);
}
