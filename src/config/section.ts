/**
 * A collector's config section as its folder declares it (collectors/<name>/config.ts): its key
 * in the file, its schema, and what it needs of the rest of the file. The file's schema
 * (schema.ts) is the framework's own sections plus the sections it is handed, so a new section
 * needs no edit here: its camelCase name in `Config` follows from its key, and its settings'
 * type, from its schema, joins `Config` through `CollectorSections`.
 */
import * as z from "zod";
import { ExporterError } from "../shared/errors.js";
import { type CamelKey, type CamelSettings, camelKey, camelSettings } from "./camelSettings.js";
import { type apiKeyFields, keySource, type ResolvePath, rejectBothKeys } from "./schema/common.js";
import type { MetricQuery } from "./schema/queries.js";
import { always, type Ctx, type DeepReadonly, section } from "./schemaKit.js";

/**
 * Each collector section's settings in `Config`, by camelCase key. Empty here: each collector's
 * config.ts adds its section's (`extends SectionSettings<typeof ITS_SECTION>`, by declaration
 * merging), so the framework's `Config` type carries every section without naming one.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in each collector's folder.
export interface CollectorSections {}

/** The settings of the sections `Sections` by camelCase key, as they join `CollectorSections`. */
export type SectionSettings<Sections extends ConfigSection> = {
  readonly [S in Sections as CamelKey<S["key"]>]: S extends ConfigSection<string, infer T> ? T : never;
};

/** What a section's schema may depend on. */
export interface SectionContext {
  /** Resolves a path written in the file against the file's directory. */
  readonly resolvePath: ResolvePath;
}

/** The framework's sections as parsed, which a section may read to finish its own. */
export interface ParsedCore {
  readonly metrics: { readonly queries: readonly MetricQuery[] };
}

/**
 * The rate of every data-plane client, which one section holds (the data plane documents no
 * limit, so the file sets it); whichever collector calls a data plane is held to it.
 */
export interface DataPlaneRate {
  /** Requests per second per cluster endpoint. */
  readonly rateLimit: number;
  /** Where the file sets it, snake_case ("<section>.rate_limit"): the budget states it. */
  readonly setting: string;
  /** Whether these settings have the data planes polled: the budget lists them only then. */
  readonly inUse: boolean;
}

/**
 * One collector's section of the file. A section counts as on when its settings' `enabled` is
 * true (`sectionOn`, sectionSettings.ts).
 * - `schema` parses the snake_case section into its camelCase settings. A section with
 *   `credential` parses to `{ settings, key }`, `key` being where its own API key comes from
 *   (`keySource`); secrets.ts reads it and sets the settings' `apiKey` (the default key when
 *   the section gives none). Its calls are account-wide: only shard 0 makes them, with a
 *   client of their own at the whole `api.rate_limit`, under the credential label of its key
 *   in the file (polling/credentials.ts).
 * - `finish` completes the settings from the framework's parsed sections (a list expanded
 *   against `metrics.queries`).
 * - `metricQueries` are metric queries the settings add to what the cluster metrics may ask.
 * - `check` is a rule across sections, run over the whole file even when another section is
 *   wrong, so it reads the file defensively (raw or parsed).
 * - `dataPlane` is the data-plane rate its settings hold (at most one section declares one).
 */
export interface ConfigSection<K extends string = string, T = unknown> {
  /** The key in the file, snake_case ("import_jobs"). */
  readonly key: K;
  /** Never set: carries the type of its settings in `Config` (`SectionSettings`). */
  readonly settingsType?: T;
  /** The key in `Config`, camelCase ("importJobs"). */
  readonly field: string;
  readonly schema: (ctx: SectionContext) => z.ZodType;
  readonly credential: boolean;
  readonly finish?: (settings: never, core: ParsedCore) => unknown;
  readonly check?: (file: Readonly<Record<string, unknown>>, ctx: Ctx) => void;
  /** The metric queries its settings add to what the cluster metrics may ask (its scopes' list). */
  readonly metricQueries?: (settings: never) => readonly MetricQuery[];
  /** The data-plane rate its settings hold. */
  readonly dataPlane?: (settings: never) => DataPlaneRate;
}

/** What a section declares besides its key and schema (see `ConfigSection`). */
interface SectionOptions {
  readonly check?: (file: Readonly<Record<string, unknown>>, ctx: Ctx) => void;
  readonly metricQueries?: (settings: never) => readonly MetricQuery[];
  readonly dataPlane?: (settings: never) => DataPlaneRate;
}

/**
 * Declares a section; its `Config` name is its key in camelCase, and its settings' type is its
 * schema's output: with `credential`, the `settings` the schema parses to and the resolved
 * `apiKey`; with `finish`, what `finish` makes.
 */
export function configSection<const K extends string, X>(
  key: K,
  schema: (ctx: SectionContext) => z.ZodType<{ readonly settings: X; readonly key: unknown }>,
  options: SectionOptions & { readonly credential: true },
): ConfigSection<K, DeepReadonly<X> & { readonly apiKey: string }>;
export function configSection<const K extends string, S, F>(
  key: K,
  schema: (ctx: SectionContext) => z.ZodType<S>,
  options: SectionOptions & { readonly finish: (settings: S, core: ParsedCore) => F },
): ConfigSection<K, DeepReadonly<F>>;
export function configSection<const K extends string, S>(
  key: K,
  schema: (ctx: SectionContext) => z.ZodType<S>,
  options?: SectionOptions,
): ConfigSection<K, DeepReadonly<S>>;
export function configSection(
  key: string,
  schema: (ctx: SectionContext) => z.ZodType,
  options: SectionOptions & {
    readonly credential?: boolean;
    readonly finish?: (settings: never, core: ParsedCore) => unknown;
  } = {},
): ConfigSection {
  const declared: ConfigSection = {
    key,
    field: camelKey(key),
    schema,
    credential: options.credential ?? false,
  };
  const finish = options.finish;
  return {
    ...declared,
    ...(finish === undefined ? {} : { finish }),
    ...(options.check === undefined ? {} : { check: options.check }),
    ...(options.metricQueries === undefined ? {} : { metricQueries: options.metricQueries }),
    ...(options.dataPlane === undefined ? {} : { dataPlane: options.dataPlane }),
  };
}

/** The key fields of an own-key section: located for secrets.ts, never among its settings. */
const KEY_FIELDS = ["api_key", "api_key_file"] as const;

/**
 * Declares a section with a key of its own (`credential`; see `ConfigSection`), for a collector
 * whose calls need a role the monitoring key should not have. `shape` places `apiKeyFields`
 * where the file documents them; `api_key` and `api_key_file` are never both given; its
 * settings are its other keys in camelCase (camelSettings.ts), and its key is located here for
 * secrets.ts to read.
 */
export function ownKeySection<const K extends string, F extends typeof apiKeyFields & z.core.$ZodLooseShape>(
  key: K,
  shape: F,
): ConfigSection<
  K,
  DeepReadonly<
    CamelSettings<F, Omit<z.output<z.ZodObject<F, z.core.$strict>>, (typeof KEY_FIELDS)[number]>>
  > & { readonly apiKey: string }
> {
  return configSection(
    key,
    ({ resolvePath }) =>
      section(shape)
        .check(z.superRefine(rejectBothKeys, always))
        .transform((parsed) => ({
          settings: camelSettings(shape, parsed, KEY_FIELDS),
          key: keySource(parsed, resolvePath),
        })),
    { credential: true },
  );
}

let registered: readonly ConfigSection[] | undefined;

/**
 * A config was read before the registry handed its sections over: a programming error (an entry
 * point that does not load the registry), reported as one instead of as unknown keys.
 */
export class SectionsNotRegisteredError extends ExporterError {
  readonly code = "sections_not_registered";
  constructor() {
    super("no collector sections are registered: load collectors/registry.ts before reading a config");
  }
}

/**
 * Registers the collectors' sections: the registry does, as it is loaded, before any config is
 * read (the way a collector registers with a Prometheus registry). Each call replaces the last.
 */
export function registerSections(sections: readonly ConfigSection[]): void {
  registered = sections;
}

/**
 * The registered sections, in registry order.
 * @throws SectionsNotRegisteredError before the registry registered them.
 */
export function registeredSections(): readonly ConfigSection[] {
  if (registered === undefined) throw new SectionsNotRegisteredError();
  return registered;
}

/** The registered sections with a key of their own (`credential`), in registry order. */
export function ownKeySections(): readonly ConfigSection[] {
  return registeredSections().filter((s) => s.credential);
}
