/**
 * A section's camelCase settings, derived from its shape: each snake_case key in camelCase, and
 * a duration field's name (fields.ts `durationField`, parsed to milliseconds) ending in `Ms`
 * (`policy_interval` -> `policyIntervalMs`). A section whose settings are its keys renamed
 * declares its shape only; one that computes a setting keeps a transform of its own.
 */
import type * as z from "zod";
import { DURATION } from "./fields.js";
import { section } from "./schemaKit.js";

/** `import_jobs` -> `importJobs`, as a type. */
export type CamelKey<K extends string> = K extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelKey<Tail>>}`
  : K;

/** `import_jobs` -> `importJobs`. */
export function camelKey(key: string): string {
  return key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** A schema with its wrappers (a default, optional) taken off. */
type Unwrapped<S> =
  S extends z.ZodDefault<infer I>
    ? Unwrapped<I>
    : S extends z.ZodOptional<infer I>
      ? Unwrapped<I>
      : S extends z.ZodPrefault<infer I>
        ? Unwrapped<I>
        : S;

/** The camelCase name of the setting that `key`, of schema `S`, parses to. */
type SettingName<K extends string, S> =
  Unwrapped<S> extends { readonly [DURATION]: true } ? `${CamelKey<K>}Ms` : CamelKey<K>;

/** The settings of a section of shape `Shape` that parses to `Out`: optional stays optional. */
export type CamelSettings<Shape, Out> = {
  [K in keyof Out as K extends string & keyof Shape ? SettingName<K, Shape[K]> : never]: Out[K];
};

/** The schema wrapped in `schema`'s defaults and optionals, as zod keeps it. */
function innermost(schema: unknown): unknown {
  let s = schema;
  for (;;) {
    const def = (s as { readonly def?: { readonly type?: string; readonly innerType?: unknown } }).def;
    if (def?.type !== "default" && def?.type !== "optional" && def?.type !== "prefault") return s;
    s = def.innerType;
  }
}

/** Whether `schema` (a value of a section's shape) is a duration field. */
export function isDurationField(schema: unknown): boolean {
  const def = (innermost(schema) as { readonly def?: object } | undefined)?.def;
  return def !== undefined && DURATION in def;
}

/**
 * `parsed`, a section parsed with `shape`, under its settings' names. A key `omit` names, or
 * whose value is absent, is left out: with exactOptionalPropertyTypes an optional setting is
 * absent, never present as undefined.
 */
export function camelSettings<
  Shape extends z.core.$ZodLooseShape,
  Out extends object,
  O extends string = never,
>(shape: Shape, parsed: Out, omit: readonly O[] = []): CamelSettings<Shape, Omit<Out, O>> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value === undefined || (omit as readonly string[]).includes(key)) continue;
    out[isDurationField(shape[key]) ? `${camelKey(key)}Ms` : camelKey(key)] = value;
  }
  return out as CamelSettings<Shape, Omit<Out, O>>;
}

/**
 * A strict section (schemaKit.ts `section`: absent or empty means all defaults) whose output is
 * its settings under their camelCase names.
 */
export function settingsSection<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return section(shape).transform((parsed) =>
    camelSettings(shape, parsed as z.output<z.ZodObject<Shape, z.core.$strict>>),
  );
}
