/**
 * Building blocks of the config schema (schema.ts): strict sections that treat an empty `key:`
 * as "all defaults", lists with plain-words errors, duplicate detection that names the first
 * occurrence, and the helpers the sections' transforms use to build the camelCase `Config`.
 */
import * as z from "zod";

export type Ctx = z.core.$RefinementCtx;

/** Runs a check even when other fields of the same object failed, so one run reports all. */
export const always = { when: () => true } as const;

/**
 * The schema's camelCase output as the rest of the exporter sees it: nothing in a loaded
 * config is meant to be changed, so every level is readonly.
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? readonly DeepReadonly<E>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A non-empty string, else undefined (for checks that read a partially parsed value). */
export function text(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/**
 * `{ [key]: value }`, or `{}` when the value is undefined: with exactOptionalPropertyTypes an
 * optional field of `Config` is absent, never present as undefined.
 */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

export function sectionError(issue: { code?: string; input?: unknown }): string | undefined {
  if (issue.code !== "invalid_type") return undefined;
  return issue.input === undefined ? "is required" : "must be a mapping of keys to values";
}

/**
 * A strict mapping (unknown keys are errors). An absent or empty (`key:` with nothing after
 * it) section means "all defaults".
 */
export function section<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.preprocess(
    (v) => (v === null || v === undefined ? {} : v),
    z.strictObject(shape, { error: sectionError }),
  );
}

/** A list with a plain-words type error (wrap in nullAsAbsent to accept an empty `key:`). */
export function list<T extends z.core.$ZodType>(item: T) {
  return z.array(item, {
    error: (issue) => (issue.code === "invalid_type" ? "must be a list" : undefined),
  });
}

/** An empty `key:` (YAML null) counts as absent, so the default applies. */
export function nullAsAbsent<T extends z.core.$ZodType>(schema: T) {
  return z.preprocess((v) => (v === null ? undefined : v), schema);
}

/** Reports the later of two equal items, naming where the first one is. */
function rejectDuplicates(
  items: unknown,
  ctx: Ctx,
  identify: (item: Record<string, unknown>) => string | undefined,
  describe: (firstIndex: number, key: string) => string,
  pathOf: (index: number) => PropertyKey[] = (index) => [index],
): void {
  if (!Array.isArray(items)) return;
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    if (!isRecord(item)) return;
    const key = identify(item);
    if (key === undefined) return;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else ctx.addIssue({ code: "custom", message: describe(first, key), path: pathOf(index), input: item });
  });
}

/**
 * A list refined so that no two items share an identity (see `rejectDuplicates`). `identify`
 * sees each item as its schema outputs it (the raw input if it failed), so items keep the
 * file's keys; rename them in a transform on the list.
 */
export function uniqueList<T extends z.core.$ZodType>(
  item: T,
  identify: (item: Record<string, unknown>) => string | undefined,
  describe: (firstIndex: number, key: string) => string,
  pathOf?: (index: number) => PropertyKey[],
) {
  return list(item).check(
    z.superRefine((items, ctx) => rejectDuplicates(items, ctx, identify, describe, pathOf), always),
  );
}
