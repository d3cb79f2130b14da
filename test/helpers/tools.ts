/**
 * Locating the real Prometheus tools that some tests run. A developer machine without them
 * skips those tests with a visible message; CI (CI=true) must have them, so there a missing
 * tool fails the run instead of silently passing.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/** The external tools the test suite knows how to install. */
export type ToolName =
  | "promtool"
  | "prometheus"
  | "prometheus-alertmanager"
  | "amtool"
  | "kubectl"
  | "chromium";

/** How to get each tool on the Debian-based machines this project runs on. */
const INSTALL_HINT: Readonly<Record<ToolName, string>> = {
  promtool: "apt-get install -y --no-install-recommends prometheus",
  prometheus: "apt-get install -y --no-install-recommends prometheus",
  // Debian's name for the Alertmanager binary; the package also brings amtool.
  "prometheus-alertmanager": "apt-get install -y --no-install-recommends prometheus-alertmanager",
  amtool: "apt-get install -y --no-install-recommends prometheus-alertmanager",
  // Debian's kubernetes-client (1.20) bundles a kustomize too old for components and replacements.
  kubectl: "kubectl 1.27 or later, which bundles kustomize 5; see kubernetes.io/docs/tasks/tools",
  // The page test drives it through playwright-core, which downloads no browser of its own.
  chromium: "apt-get install -y --no-install-recommends chromium",
};

/** Result of {@link toolOrSkip}: the tool's path, or a skip marker when it is missing. */
export type ToolLookup = { readonly path: string; readonly skip: false } | { readonly skip: true };

/** Raised under CI=true when a required tool is missing. */
export class MissingToolError extends Error {
  readonly code = "MISSING_TOOL";
  constructor(
    readonly tool: ToolName,
    options?: ErrorOptions,
  ) {
    super(`${tool} not installed (${INSTALL_HINT[tool]}); CI must have it`, options);
    this.name = "MissingToolError";
  }
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds `name` on `searchPath` (default: the PATH environment variable), like `which`.
 * Returns the absolute path of the first executable match, or undefined.
 */
export function findTool(
  name: ToolName,
  searchPath: string | undefined = process.env.PATH,
): string | undefined {
  for (const dir of (searchPath ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** Injection points of {@link toolOrSkip}, for its own tests. */
export interface ToolOrSkipOptions {
  readonly searchPath?: string | undefined;
  /** Whether this is a CI run; default: `process.env.CI === "true"`. */
  readonly ci?: boolean;
  /** Where the skip message goes; default: stderr, so it shows in the test output. */
  readonly log?: (message: string) => void;
}

/**
 * Looks `name` up for a test file. Found: `{ path, skip: false }`. Missing: prints
 * "SKIPPED: <name> not installed (<install command>)" and returns `{ skip: true }`, except
 * under CI=true, where it throws {@link MissingToolError}. Use with `it.skipIf(t.skip)`.
 */
export function toolOrSkip(name: ToolName, options: ToolOrSkipOptions = {}): ToolLookup {
  const searchPath = "searchPath" in options ? options.searchPath : process.env.PATH;
  const path = findTool(name, searchPath);
  if (path !== undefined) return { path, skip: false };
  const ci = options.ci ?? process.env.CI === "true";
  if (ci) throw new MissingToolError(name);
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  log(`SKIPPED: ${name} not installed (${INSTALL_HINT[name]})`);
  return { skip: true };
}

/** The tool's path; for use inside a test that `it.skipIf(t.skip)` guards. */
export function toolPath(lookup: ToolLookup): string {
  if (lookup.skip) throw new Error("toolPath called for a skipped tool; guard the test with it.skipIf");
  return lookup.path;
}
