/**
 * The `metrics` section: granularity, interval, window and the cluster-wide metric queries.
 */
import * as z from "zod";
import { QUERY_FORMS } from "../../upstream/catalog.js";
import { boolField, durationField } from "../fields.js";
import { checkQuery, DEFAULT_METRIC_QUERIES, expandQueries } from "../queries.js";
import { always, type Ctx, isRecord, nullAsAbsent, section } from "../schemaKit.js";
import { DAY, HOUR, MINUTE, SECOND } from "./common.js";
import { checkMetricNames } from "./names.js";
import { queriesSchema } from "./queries.js";

/** `metrics.form`: learned per key (`auto`), or one of the two request forms pinned. */
export const METRIC_FORM_SETTINGS = ["auto", ...QUERY_FORMS] as const;

/** Smallest metric granularity the upstream accepts. */
const MIN_GRANULARITY_MS = 30 * SECOND;

/**
 * Default `metrics.lookback`: five minutes, and never less than two buckets, so the window
 * always holds a closed bucket before the newest one (which is often still empty upstream).
 */
function defaultLookbackMs(granularityMs: number): number {
  return Math.max(5 * MINUTE, 2 * granularityMs);
}

function checkMetricWindows(metrics: unknown, ctx: Ctx): void {
  if (!isRecord(metrics)) return;
  const { granularity, interval, lookback, delay, queries, enabled } = metrics;
  if (typeof granularity === "number") {
    if (granularity % SECOND !== 0) {
      ctx.addIssue({
        code: "custom",
        message: "must be a whole number of seconds",
        path: ["granularity"],
        input: granularity,
      });
    }
    const floor = `must be at least the granularity`;
    if (typeof interval === "number" && interval < granularity) {
      ctx.addIssue({ code: "custom", message: floor, path: ["interval"], input: interval });
    }
    if (typeof lookback === "number" && lookback < granularity) {
      ctx.addIssue({ code: "custom", message: floor, path: ["lookback"], input: lookback });
    }
    const effectiveLookback = typeof lookback === "number" ? lookback : defaultLookbackMs(granularity);
    if (typeof delay === "number" && delay >= effectiveLookback) {
      ctx.addIssue({
        code: "custom",
        message: "must be shorter than metrics.lookback (the window would hold no bucket)",
        path: ["delay"],
        input: delay,
      });
    }
  }
  if (enabled !== false && Array.isArray(queries) && queries.length === 0) {
    ctx.addIssue({
      code: "custom",
      message: "must list at least one query (omit it for the default list, or set metrics.enabled: false)",
      path: ["queries"],
      input: queries,
    });
  }
}

export const metricsSchema = section({
  enabled: boolField().default(true),
  granularity: durationField({ min: MIN_GRANULARITY_MS, max: DAY }).default(MINUTE),
  // Absent: the granularity.
  interval: durationField({ min: MIN_GRANULARITY_MS, max: DAY }).optional(),
  // Absent: defaultLookbackMs(granularity).
  lookback: durationField({ min: MIN_GRANULARITY_MS, max: DAY }).optional(),
  delay: durationField({ min: 0, max: HOUR }).default(0),
  queries: nullAsAbsent(queriesSchema("metrics.queries", checkQuery).optional()),
  // How long a query the service refused in every form is left out before it is tried again.
  quarantine: durationField({ min: MINUTE, max: DAY }).default(HOUR),
  // Names outside the catalog are typos unless this says the service knows more than we do.
  allow_unknown_names: boolField().default(false),
  // auto: the current form, learned per key when its server refuses that form.
  form: z.enum(METRIC_FORM_SETTINGS, { error: "must be auto, current or 2024" }).default("auto"),
})
  .check(z.superRefine(checkMetricWindows, always))
  .check(z.superRefine(checkMetricNames, always))
  .transform((metrics) => ({
    enabled: metrics.enabled,
    granularityMs: metrics.granularity,
    intervalMs: metrics.interval ?? metrics.granularity,
    lookbackMs: metrics.lookback ?? defaultLookbackMs(metrics.granularity),
    /** Settle time subtracted from now before the window's end is aligned (late-arriving data). */
    delayMs: metrics.delay,
    /** What the cluster-wide target sends: expanded (config/queries.ts `expandQuery`), each once. */
    queries: metrics.queries === undefined ? DEFAULT_METRIC_QUERIES : expandQueries(metrics.queries),
    /** A refused query is not asked again for this long, then once more (alone). */
    quarantineMs: metrics.quarantine,
    /** Let names outside the upstream catalog through (`metrics.allow_unknown_names`). */
    allowUnknownNames: metrics.allow_unknown_names,
    /** The request form: `auto` (learned per key), or pinned to `current` or `2024`. */
    form: metrics.form,
  }));
