/**
 * What the image runs, read from the Dockerfile as Docker reads its last stage: the exec-form
 * ENTRYPOINT, the ENV variables (later ones win) and the WORKDIR. There is no Docker engine
 * here: tests start this command line themselves.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface ImageStart {
  readonly entrypoint: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly workdir: string;
}

/** `a=b "c d"=e f="g h"` as Docker splits an ENV line into pairs. */
function envPairs(text: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const m of text.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:\\.|[^"\\])*"|\S*)/g)) {
    const raw = m[2] ?? "";
    pairs.push([m[1] ?? "", raw.startsWith('"') ? (JSON.parse(raw) as string) : raw]);
  }
  return pairs;
}

/** The image's start: throws when the Dockerfile has no exec-form ENTRYPOINT in its last stage. */
export function imageStart(root: string): ImageStart {
  const text = readFileSync(join(root, "Dockerfile"), "utf8");
  const stage = (text.split(/^FROM /m).at(-1) ?? "").replace(/\\\n/g, " ");
  const env: Record<string, string> = {};
  let workdir = "/";
  let entrypoint: string[] | undefined;
  for (const line of stage.split("\n")) {
    const [, instruction = "", rest = ""] = /^(\w+)\s+(.*)$/.exec(line.trim()) ?? [];
    if (instruction === "ENV") for (const [k, v] of envPairs(rest)) env[k] = v;
    if (instruction === "WORKDIR") workdir = rest.trim();
    if (instruction === "ENTRYPOINT") entrypoint = JSON.parse(rest) as string[];
  }
  if (entrypoint === undefined) throw new Error("Dockerfile: no exec-form ENTRYPOINT in the last stage");
  return { entrypoint, env, workdir };
}
