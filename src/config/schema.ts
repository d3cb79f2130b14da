/**
 * The strict zod schema of the YAML config file (docs/design.md section 4, snake_case), and the
 * single description of the camelCase `Config` (types.ts derives the framework's types from it;
 * each collector section's type comes from its own schema, section.ts). It
 * checks shapes, ranges and cross-field rules, applies defaults (including the ones that depend
 * on other fields), turns durations into milliseconds and, in each section's transform, renames
 * to camelCase. It reads no files: API keys are only located here (see secrets.ts).
 * Cross-field rules run even when unrelated fields are wrong, so one run reports every
 * problem: they read the partially parsed value defensively.
 *
 * This file is the whole file's schema: the framework's sections (a module each in schema/,
 * shared pieces in schema/common.ts) and the collectors' sections it is handed, each declared
 * in its collector's folder (collectors/<name>/config.ts).
 */
import { resolve } from "node:path";
import * as z from "zod";
import { intField } from "./fields.js";
import { scopeQueries } from "./queries.js";
import { apiSchema } from "./schema/api.js";
import { clustersSchema } from "./schema/clusters.js";
import type { ResolvePath } from "./schema/common.js";
import { familiesSchema } from "./schema/families.js";
import { metricsSchema } from "./schema/metrics.js";
import { checkScopeMetricNames } from "./schema/names.js";
import { nativeExportSchema } from "./schema/nativeExport.js";
import { serverSchema } from "./schema/server.js";
import { always, type DeepReadonly, isRecord, optional, sectionError } from "./schemaKit.js";
import {
  type CollectorSections,
  type ConfigSection,
  type ParsedCore,
  registeredSections,
} from "./section.js";

export type { MetricQuery } from "./schema/queries.js";

/** Where one credential comes from: an inline value, an absolute file path to read, or nothing. */
export interface SecretSlot {
  /** The section it is given in, for messages ("api", "clusters[0]", "billing"). */
  readonly at: string;
  readonly value?: string | undefined;
  readonly file?: string | undefined;
}

/** The framework's own sections, the targets' before the collectors' and the rest after. */
function coreShape(resolvePath: ResolvePath) {
  return {
    targets: {
      api: apiSchema(resolvePath),
      clusters: clustersSchema(resolvePath),
      metrics: metricsSchema,
    },
    rest: {
      native_export: nativeExportSchema,
      families: familiesSchema,
      server: serverSchema(resolvePath),
      staleness_intervals: intField(2, 100).default(5),
    },
  };
}

type Shape = ReturnType<typeof coreShape>;
type Core = z.output<z.ZodObject<Shape["targets"] & Shape["rest"]>>;

/** A parsed section with its own credential: its settings and where its key comes from. */
const withKey = (v: unknown): { settings: unknown; key: Omit<SecretSlot, "at"> } =>
  v as { settings: unknown; key: Omit<SecretSlot, "at"> };

/**
 * The whole file: the framework's sections and `sections` (the collectors', from the registry),
 * with relative paths (key files, list files, `server.web_config_file`) resolved against
 * `baseDir`, the config file's directory. An empty document is a valid file (every default, key
 * from the environment). Output: a `ConfigDraft`, the camelCase config without its credentials
 * plus where each credential comes from.
 */
export function configSchema(baseDir: string, sections: readonly ConfigSection[]) {
  const resolvePath: ResolvePath = (path) => resolve(baseDir, path);
  const core = coreShape(resolvePath);
  const own = Object.fromEntries(sections.map((s) => [s.key, s.schema({ resolvePath })]));
  let file = z.strictObject(
    { ...core.targets, ...own, ...core.rest },
    { error: sectionError },
  ) as unknown as z.ZodType<Core & Record<string, unknown>>;
  file = file.check(z.superRefine(checkScopeMetricNames, always));
  for (const s of sections) {
    const check = s.check;
    if (check !== undefined)
      file = file.check(z.superRefine((v: unknown, ctx) => check(isRecord(v) ? v : {}, ctx), always));
  }
  return z
    .preprocess((v) => (v === null || v === undefined ? {} : v), file)
    .transform((parsed) => {
      const settingsOf = (s: ConfigSection): unknown => {
        const value = s.credential ? withKey(parsed[s.key]).settings : parsed[s.key];
        return s.finish === undefined ? value : s.finish(value as never, parsed as ParsedCore);
      };
      return {
        config: {
          api: parsed.api.settings,
          // A scope's own list is expanded against the cluster-wide one.
          clusters: parsed.clusters.map(({ settings }) => ({
            ...settings,
            scopes: settings.scopes.map(({ queries, ...scope }) => ({
              ...scope,
              ...optional(
                "queries",
                queries === undefined ? undefined : scopeQueries(parsed.metrics.queries, queries),
              ),
            })),
          })),
          metrics: parsed.metrics,
          ...(Object.fromEntries(sections.map((s) => [s.field, settingsOf(s)])) as unknown as SectionDrafts),
          nativeExport: parsed.native_export,
          families: parsed.families,
          server: parsed.server,
          /** A series older than this many intervals of its collector disappears. Default 5. */
          stalenessIntervals: parsed.staleness_intervals,
        },
        /** The default credential (`api.api_key` / `api.api_key_file`). */
        apiKey: { at: "api", ...parsed.api.key } as SecretSlot,
        /** Each section's own credential (`<section>.api_key` / `api_key_file`); none: the default. */
        sectionKeys: sections
          .filter((s) => s.credential)
          .map((s) => ({ field: s.field, slot: { at: s.key, ...withKey(parsed[s.key]).key } as SecretSlot })),
        /** One source per cluster, same order as `config.clusters`. */
        clusterKeys: parsed.clusters.map(
          ({ key }, index) => ({ at: `clusters[${index}]`, ...key }) as SecretSlot,
        ),
        /** Each cluster's data-plane token file, same order as `config.clusters`. */
        dataPlaneTokenFiles: parsed.clusters.map(({ tokenFile }) => tokenFile),
      };
    });
}

/**
 * The file's schema for questions about its shape (JSON Schema, known keys, tests), with the
 * registered sections; relative paths resolve against the working directory.
 */
export function configFileSchema() {
  return configSchema(process.cwd(), registeredSections());
}

/** The collectors' sections as drafts: a section's own `apiKey` is added by secrets.ts. */
type SectionDrafts = { [K in keyof CollectorSections]: Omit<CollectorSections[K], "apiKey"> };

/**
 * A validated file: every camelCase setting except the credentials, and where to find those.
 * secrets.ts turns it into the final `Config`.
 */
export type ConfigDraft = DeepReadonly<z.output<ReturnType<typeof configSchema>>>;
