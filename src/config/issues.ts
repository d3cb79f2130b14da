/**
 * Turns zod issues into config problems in the file's own terms: `path.to.field: message`,
 * one problem per unknown key, with a "did you mean" hint for likely typos.
 */
import type * as z from "zod";
import { type ConfigProblem, formatPath } from "./errors.js";

interface Def {
  readonly type: string;
  readonly shape?: Record<string, unknown>;
  readonly element?: unknown;
  readonly innerType?: unknown;
  readonly in?: unknown;
  readonly out?: unknown;
}

function defOf(schema: unknown): Def | undefined {
  return (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;
}

/**
 * The keys a strict object accepts at `path` inside `schema`, looking through wrappers
 * (default, optional, preprocess, ...). Undefined when the path does not lead to an object.
 */
export function knownKeysAt(schema: unknown, path: readonly PropertyKey[]): string[] | undefined {
  const def = defOf(schema);
  if (def === undefined) return undefined;
  if (def.innerType !== undefined) return knownKeysAt(def.innerType, path);
  if (def.type === "pipe") return knownKeysAt(def.in, path) ?? knownKeysAt(def.out, path);
  if (def.type === "object" && def.shape !== undefined) {
    if (path.length === 0) return Object.keys(def.shape);
    const [head, ...rest] = path;
    return typeof head === "string" && head in def.shape ? knownKeysAt(def.shape[head], rest) : undefined;
  }
  if (def.type === "array" && typeof path[0] === "number") return knownKeysAt(def.element, path.slice(1));
  return undefined;
}

/** Edit distance, for typo hints. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** "unknown key" plus the closest allowed key when it is a plausible typo, else the allowed keys. */
export function describeUnknownKey(key: string, known: readonly string[] | undefined): string {
  if (known === undefined || known.length === 0) return "unknown key";
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // A third of the length catches transpositions and dropped letters without suggesting
  // unrelated words for short keys.
  if (best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 3))) {
    return `unknown key (did you mean "${best}"?)`;
  }
  return `unknown key (allowed: ${known.join(", ")})`;
}

/** Converts the issues of a failed parse of `schema` into problems, in issue order. */
export function issuesToProblems(issues: readonly z.core.$ZodIssue[], schema: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      const known = knownKeysAt(schema, issue.path);
      for (const key of issue.keys) {
        problems.push({ path: formatPath([...issue.path, key]), message: describeUnknownKey(key, known) });
      }
    } else {
      problems.push({ path: formatPath(issue.path), message: issue.message });
    }
  }
  return problems;
}
