/**
 * The `backfill` command line and the window it asks for. Every problem is a BackfillArgsError
 * whose message names the flag, printed without the usage and exits 2.
 */

import { DurationError, parseDuration } from "../shared/duration.js";
import { ExporterError } from "../shared/errors.js";
import { parseFlags } from "../shared/flags.js";

export const BACKFILL_USAGE = `Usage:
  vdbcloud-exporter backfill --config FILE --from TIME [--to TIME] [--granularity DURATION] --output FILE|-

  --from TIME              ISO 8601 UTC (2024-05-01T00:00:00Z, 2024-05-01), or a duration back from now (P7D)
  --to TIME                ISO 8601 UTC; default now minus metrics.delay, on a granularity boundary
  --granularity DURATION   bucket size, at least PT30S; default metrics.granularity
  --output FILE|-          the OpenMetrics file (- for standard output)
  --quiet                  no progress on standard error

Run the same command again after an interruption: it finishes the missing chunks.
Exit codes: 0 done, 1 a target failed or the run was interrupted, 2 bad arguments or config.`;

/** The smallest granularity the upstream accepts. */
const MIN_GRANULARITY_MS = 30_000;

/** A bad `backfill` argument; the message starts with the flag it is about. */
export class BackfillArgsError extends ExporterError {
  readonly code = "bad_arguments";
  override readonly name = "BackfillArgsError";
}

/** The `backfill` command line as given (times still as text: resolving them needs the config). */
export interface BackfillArgs {
  readonly help: boolean;
  readonly configPath: string;
  readonly from: string;
  readonly to?: string;
  readonly granularity?: string;
  /** A file path, or "-" for standard output. */
  readonly output: string;
  readonly quiet: boolean;
}

/**
 * Parses the arguments after `backfill`. `--config` may also come from VDBCLOUD_CONFIG, as for
 * the exporter. Throws BackfillArgsError naming the flag.
 */
export function parseBackfillArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): BackfillArgs {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (err) {
    throw new BackfillArgsError((err as Error).message, { cause: err });
  }
  if (values.help) return { help: true, configPath: "", from: "", output: "", quiet: false };
  const configPath = values.config ?? (env.VDBCLOUD_CONFIG || undefined);
  if (configPath === undefined) throw new BackfillArgsError("--config: required (or VDBCLOUD_CONFIG)");
  if (values.from === undefined)
    throw new BackfillArgsError("--from: required (ISO 8601 UTC, or a duration back from now such as P7D)");
  if (values.output === undefined || values.output === "")
    throw new BackfillArgsError("--output: required (a file, or - for standard output)");
  return {
    help: false,
    configPath,
    from: values.from,
    ...(values.to === undefined ? {} : { to: values.to }),
    ...(values.granularity === undefined ? {} : { granularity: values.granularity }),
    output: values.output,
    quiet: values.quiet ?? false,
  };
}

function parse(argv: readonly string[]) {
  return parseFlags(argv, {
    config: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    granularity: { type: "string" },
    output: { type: "string" },
    quiet: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
}

/** The buckets to write: [fromMs, toMs) in steps of `granularityMs`, both ends on boundaries. */
export interface BackfillWindow {
  readonly fromMs: number;
  readonly toMs: number;
  readonly granularityMs: number;
}

// A date, or a date and time with a zone: a time without a zone would be read in the local
// zone by Date.parse, which is never what a UTC contract means.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

function parseTime(flag: string, text: string, nowMs: number, allowDuration: boolean): number {
  if (allowDuration && /^-?P/i.test(text)) {
    try {
      return nowMs - parseDuration(text.toUpperCase());
    } catch (err) {
      if (err instanceof DurationError)
        throw new BackfillArgsError(`${flag}: ${err.message}`, { cause: err });
      throw err;
    }
  }
  const ms = ISO_DATE.test(text)
    ? Date.parse(`${text}T00:00:00Z`)
    : ISO_DATE_TIME.test(text)
      ? Date.parse(text)
      : NaN;
  if (Number.isNaN(ms)) {
    const durations = allowDuration ? ", or a duration back from now such as P7D" : "";
    throw new BackfillArgsError(
      `${flag}: not an ISO 8601 UTC time (2024-05-01T00:00:00Z or 2024-05-01${durations})`,
    );
  }
  return ms;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

/**
 * Resolves the window at `nowMs`: `--granularity` (default the config's, at least PT30S, whole
 * seconds), `--from` rounded up and `--to` rounded down to granularity boundaries, `--to`
 * defaulting to the live exporter's window end (now minus `metrics.delay`). A window that is
 * empty, reversed or reaches into the future is refused.
 */
export function resolveWindow(
  args: Pick<BackfillArgs, "from" | "to" | "granularity">,
  metrics: { readonly granularityMs: number; readonly delayMs: number },
  nowMs: number,
): BackfillWindow {
  let granularityMs = metrics.granularityMs;
  if (args.granularity !== undefined) {
    try {
      granularityMs = parseDuration(args.granularity);
    } catch (err) {
      if (err instanceof DurationError)
        throw new BackfillArgsError(`--granularity: ${err.message}`, { cause: err });
      throw err;
    }
    if (granularityMs < MIN_GRANULARITY_MS)
      throw new BackfillArgsError(`--granularity: must be at least PT30S, got ${args.granularity}`);
    if (granularityMs % 1000 !== 0)
      throw new BackfillArgsError(`--granularity: must be whole seconds, got ${args.granularity}`);
  }
  const fromRaw = parseTime("--from", args.from, nowMs, true);
  const toRaw = args.to === undefined ? nowMs - metrics.delayMs : parseTime("--to", args.to, nowMs, false);
  if (toRaw > nowMs) throw new BackfillArgsError(`--to: ${iso(toRaw)} is in the future`);
  if (fromRaw >= nowMs) throw new BackfillArgsError(`--from: ${iso(fromRaw)} is not in the past`);
  const fromMs = Math.ceil(fromRaw / granularityMs) * granularityMs;
  const toMs = Math.floor(toRaw / granularityMs) * granularityMs;
  if (fromRaw >= toRaw)
    throw new BackfillArgsError(`--from: ${iso(fromRaw)} is not before --to (${iso(toRaw)})`);
  if (fromMs >= toMs)
    throw new BackfillArgsError(
      `--from: no whole bucket of ${args.granularity ?? "the configured granularity"} between ${iso(fromRaw)} and ${iso(toRaw)}`,
    );
  return { fromMs, toMs, granularityMs };
}
