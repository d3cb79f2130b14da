/**
 * The `slo` section (docs/design.md section 4): the objectives and the alert windows the
 * error-budget rules are rendered from (`vdbcloud-exporter slo-rules`, and `npm run rules` for
 * the shipped config/prometheus/rules/slo.yml; docs/slo.md). The exporter polls nothing for it:
 * it validates the section, so a wrong objective or window fails `--check-config` as any key does.
 *
 * Windows follow the SRE workbook's multiwindow, multi-burn-rate alerts: an alert fires while the
 * error ratio over both windows of a pair is above `burn_rate` times the error budget
 * (1 - objective). The defaults are the workbook's: page at 14.4x over 1h and 5m and at 6x over
 * 6h and 30m, ticket at 3x over 1d and 2h and at 1x over 3d and 6h.
 */
import * as z from "zod";
import { CANARY_BUCKETS } from "../collectors/canary/families.js";
import { durationField, numberField } from "../config/fields.js";
import { DAY, HOUR, MINUTE, SECOND } from "../config/schema/common.js";
import {
  always,
  type Ctx,
  type DeepReadonly,
  isRecord,
  list,
  nullAsAbsent,
  section,
} from "../config/schemaKit.js";
import { configSection, type SectionSettings } from "../config/section.js";
import { formatDuration } from "../shared/duration.js";

/** The workbook's window pairs, as the schema outputs them (durations in milliseconds). */
const DEFAULT_WINDOWS = {
  page: [
    { burn_rate: 14.4, long: HOUR, short: 5 * MINUTE },
    { burn_rate: 6, long: 6 * HOUR, short: 30 * MINUTE },
  ],
  ticket: [
    { burn_rate: 3, long: DAY, short: 2 * HOUR },
    { burn_rate: 1, long: 3 * DAY, short: 6 * HOUR },
  ],
} as const;

/** An objective: the share of good events, strictly between 0 and 1 (0.999 is 99.9%). */
const objectiveField = () =>
  numberField({ gt: 0, lt: 1 }, "must be a number between 0 and 1, both excluded (0.999 is 99.9%)");

/** A burn rate: how many times the rate the objective allows; above 0. */
const burnRateField = () =>
  numberField({ gt: 0 }, "must be a number above 0 (times the error rate the objective allows)");

/** A window of a rule: whole seconds, since Prometheus names and ranges are written in them. */
const windowField = () => durationField({ min: SECOND, max: 365 * DAY });

const windowPair = section({
  burn_rate: burnRateField(),
  long: windowField(),
  short: windowField(),
});

const windowList = (defaults: ReadonlyArray<{ burn_rate: number; long: number; short: number }>) =>
  nullAsAbsent(list(windowPair).default(() => defaults.map((w) => ({ ...w }))));

const DEFAULT_THRESHOLD_MS = 500;

const sloSchema = section({
  period: durationField({ min: SECOND, max: 365 * DAY }).default(30 * DAY),
  canary: section({
    availability: objectiveField().default(0.999),
    latency: section({
      threshold: durationField({ min: 1 }).default(DEFAULT_THRESHOLD_MS),
      objective: objectiveField().default(0.99),
    }),
  }),
  service: section({
    availability: objectiveField().default(0.999),
  }),
  windows: section({
    page: windowList(DEFAULT_WINDOWS.page),
    ticket: windowList(DEFAULT_WINDOWS.ticket),
  }),
})
  .check(z.superRefine(checkSlo, always))
  .transform((slo) => ({
    /** The budget's period: the error ratio over it is what the budget is spent against. */
    periodMs: slo.period,
    canary: {
      /** Share of canary probes that succeed. */
      availability: slo.canary.availability,
      latency: {
        /** A probe slower than this is bad; a bound of the canary's histogram (CANARY_BUCKETS), whose bucket the latency SLI reads. */
        thresholdMs: slo.canary.latency.threshold,
        /** Share of probes no slower than the threshold. */
        objective: slo.canary.latency.objective,
      },
    },
    service: {
      /** Share of the service's requests that do not fail (its own failure ratio). */
      availability: slo.service.availability,
    },
    windows: {
      /** Pairs that page (severity critical). */
      page: slo.windows.page.map(windowOf),
      /** Pairs that open a ticket (severity warning). */
      ticket: slo.windows.ticket.map(windowOf),
    },
  }));

function windowOf(w: { burn_rate: number; long: number; short: number }) {
  return { burnRate: w.burn_rate, longMs: w.long, shortMs: w.short };
}

/** A duration (ms) when the partially parsed value is one. */
function ms(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** "PT0.005S, PT0.01S, ..." as the file writes durations. */
function boundsText(): string {
  return CANARY_BUCKETS.map((s) => formatDuration(Math.round(s * 1000))).join(", ");
}

/** The objectives of a partially parsed section, by where the file sets them. */
function objectivesOf(slo: Record<string, unknown>): Array<{ path: string; value: number }> {
  const out: Array<{ path: string; value: number }> = [];
  const at = (v: unknown, path: string): void => {
    if (typeof v === "number" && v > 0 && v < 1) out.push({ path, value: v });
  };
  const canary = isRecord(slo.canary) ? slo.canary : {};
  at(canary.availability, "slo.canary.availability");
  at(isRecord(canary.latency) ? canary.latency.objective : undefined, "slo.canary.latency.objective");
  at(isRecord(slo.service) ? slo.service.availability : undefined, "slo.service.availability");
  return out;
}

const issue = (ctx: Ctx, path: PropertyKey[], message: string): void => {
  ctx.addIssue({ code: "custom", message, path, input: undefined });
};

/**
 * The rules across keys: the threshold is a bucket bound; every window is whole seconds; in each
 * pair the short window is shorter than the long one and the long one fits in the period; and a
 * burn rate times an error budget stays below 1, since an error ratio above 1 cannot happen and
 * the alert would never fire.
 */
function checkSlo(value: unknown, ctx: Ctx): void {
  if (!isRecord(value)) return;
  const canary = isRecord(value.canary) ? value.canary : {};
  const threshold = ms(isRecord(canary.latency) ? canary.latency.threshold : undefined);
  if (threshold !== undefined && !CANARY_BUCKETS.some((b) => Math.round(b * 1000) === threshold)) {
    issue(
      ctx,
      ["canary", "latency", "threshold"],
      `must be one of the canary latency histogram's bucket bounds (${boundsText()}), got ${formatDuration(threshold)}`,
    );
  }
  const period = ms(value.period);
  if (period !== undefined && period % SECOND !== 0)
    issue(ctx, ["period"], `must be whole seconds, got ${formatDuration(period)}`);
  const objectives = objectivesOf(value);
  const windows = isRecord(value.windows) ? value.windows : {};
  for (const severity of ["page", "ticket"] as const) {
    const pairs = Array.isArray(windows[severity]) ? (windows[severity] as unknown[]) : [];
    pairs.forEach((pair, i) => {
      if (!isRecord(pair)) return;
      const at = (key: string): PropertyKey[] => ["windows", severity, i, key];
      const long = ms(pair.long);
      const short = ms(pair.short);
      for (const [key, w] of [
        ["long", long],
        ["short", short],
      ] as const) {
        if (w !== undefined && w % SECOND !== 0)
          issue(ctx, at(key), `must be whole seconds (a Prometheus range), got ${formatDuration(w)}`);
      }
      if (long !== undefined && short !== undefined && short >= long)
        issue(ctx, at("short"), `must be shorter than long (${formatDuration(long)})`);
      if (long !== undefined && period !== undefined && long > period)
        issue(ctx, at("long"), `must not be longer than slo.period (${formatDuration(period)})`);
      const burn = pair.burn_rate;
      if (typeof burn !== "number") return;
      for (const o of objectives) {
        const threshold = burn * (1 - o.value);
        if (threshold >= 1)
          issue(
            ctx,
            at("burn_rate"),
            `${burn} times the error budget of ${o.path} (${round(1 - o.value)}) is ${round(threshold)}: an error ratio never exceeds 1, so the alert could never fire`,
          );
      }
    });
  }
}

/** A ratio without binary noise (1 - 0.999 = 0.001, not 0.0010000000000000009). */
export function round(value: number): number {
  return Number(value.toPrecision(12));
}

export const SLO_SECTION = configSection("slo", () => sloSchema);

/** The `slo` settings as the config holds them. */
export type SloSettings = DeepReadonly<z.output<typeof sloSchema>>;

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof SLO_SECTION> {}
}

/** The section alone, for the shipped rules rendered from config/example.yaml's `slo:`. */
export function parseSloSection(raw: unknown): z.ZodSafeParseResult<z.output<typeof sloSchema>> {
  return sloSchema.safeParse(raw);
}
