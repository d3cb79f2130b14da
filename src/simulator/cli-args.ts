/**
 * Command-line arguments of the standalone simulator (cli.ts), parsed into SimulatorOptions.
 */
import { parseArgs } from "node:util";
import { SimulatorError } from "./errors.js";
import type { SimulatorOptions } from "./options.js";
import { ALL_QUIRKS, type SimQuirks } from "./quirks.js";
import { RATE_LIMIT_MODES } from "./rate-limiter.js";
import { DAY_MS } from "./time.js";

/** Help text printed by --help and after an argument error. */
export const USAGE = `usage: node dist/simulator/cli.js [options]
  --host HOST                      listen address (default 127.0.0.1)
  --port PORT                      listen port (default 0: any free port)
  --clusters N                     generated clusters (default 6)
  --seed N                         world and value seed (default 1)
  --time-scale X                   job timelines run X times faster (default 1)
  --rate-limit N                   requests/s per key and endpoint, 0 disables (default 20)
  --rate-limit-mode MODE           how the second is counted: sliding, fixed or token_bucket
                                   (default sliding: at most N in any one-second window)
  --list-clusters-shape SHAPE      array or object (default object)
  --api-key KEY                    accept only this key (repeatable; default any non-empty key)
  --backup-denied-key KEY          accept this key but refuse it backup permission (repeatable)
  --billing-key KEY                a key with the billing role (repeatable): only such keys read
                                   usage and invoices, and they read nothing else (default: any key)
  --spark-jobs-per-project N       (default 6)
  --import-jobs-per-cluster N      (default 8)
  --collections-per-cluster N      (default 3)
  --metric-retention-days N        metric buckets older than N days are null (default 30)
  --max-metric-points N            refuse a metrics answer of more than N points (buckets x
                                   queries) as "too many data points" (default 0: no limit)
  --quirks LIST                    upstream behaviours to imitate: "all", or a comma list of
                                   openBucket, statlessResults, countUnits, oddSparkFields,
                                   globalClustersEnvelope, importPageCap=N, and per listing
                                   (its endpoint template) pagesIgnored=TEMPLATE (page 1 to
                                   every call) or countless=TEMPLATE (no total), e.g.
                                   "countless=GET /v2/clusters" (default none)
  --metric-catalog MODE            the reference Query Cluster Metrics follows: current
                                   (default: today's enum, name only, names a plan lacks
                                   all-null), 2024 (that reference's enum, stat required;
                                   "strict" is its earlier name) or permissive (every known name)
  --metric-stat POLICY             in the current catalog, a stray stat is ignored (default)
                                   or refused
  --retire-v1                      the v1 control-plane endpoints (List Import Jobs, List
                                   Projects) answer HTTP 404, as removed endpoints
  --remove-v2-import-list          List Import Jobs (V2) answers HTTP 404 (the v1 fallback serves)
  --native-histogram-sum-count     the service's own Prometheus endpoint also sends _sum and _count
                                   of its latency histogram (its documented sample has neither)
  --verbose                        log every request to stderr
  --help`;

/** Parsed arguments: either a request for help, or options to start with. */
type CliArgs = { help: true } | { help: false; verbose: boolean; options: SimulatorOptions };

function retentionMs(days: number | undefined): number | undefined {
  return days === undefined ? undefined : days * DAY_MS;
}

function num(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n))
    throw new SimulatorError("INVALID_OPTION", `--${name} must be a number, got ${raw}`);
  return n;
}

const SWITCHES = [
  "openBucket",
  "statlessResults",
  "countUnits",
  "oddSparkFields",
  "globalClustersEnvelope",
] as const;

/** `--quirks all` or `--quirks openBucket,importPageCap=7`: undefined when absent. */
function parseQuirks(raw: string | undefined): Partial<SimQuirks> | undefined {
  if (raw === undefined) return undefined;
  if (raw.trim() === "all") return ALL_QUIRKS;
  const out: { -readonly [K in keyof SimQuirks]?: SimQuirks[K] } = {};
  for (const item of raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")) {
    const [name = "", value] = item.split("=");
    if (name === "importPageCap") {
      const cap = num("quirks importPageCap", value);
      if (cap === undefined) throw new SimulatorError("INVALID_OPTION", "--quirks importPageCap needs =N");
      out.importPageCap = cap;
    } else if ((name === "pagesIgnored" || name === "countless") && value !== undefined && value !== "") {
      out[name] = [...(out[name] ?? []), value.trim()];
    } else if ((SWITCHES as readonly string[]).includes(name) && value === undefined) {
      out[name as (typeof SWITCHES)[number]] = true;
    } else {
      throw new SimulatorError("INVALID_OPTION", `--quirks: unknown quirk ${item} (see --help)`);
    }
  }
  return out;
}

/** Parses `argv` (without node and script). Throws `SimulatorError` (INVALID_OPTION) on bad input. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        clusters: { type: "string" },
        seed: { type: "string" },
        "time-scale": { type: "string" },
        "rate-limit": { type: "string" },
        "rate-limit-mode": { type: "string" },
        "list-clusters-shape": { type: "string" },
        "api-key": { type: "string", multiple: true },
        "backup-denied-key": { type: "string", multiple: true },
        "billing-key": { type: "string", multiple: true },
        "spark-jobs-per-project": { type: "string" },
        "import-jobs-per-cluster": { type: "string" },
        "collections-per-cluster": { type: "string" },
        "metric-retention-days": { type: "string" },
        "max-metric-points": { type: "string" },
        quirks: { type: "string" },
        "metric-catalog": { type: "string" },
        "metric-stat": { type: "string" },
        "retire-v1": { type: "boolean" },
        "remove-v2-import-list": { type: "boolean" },
        "native-histogram-sum-count": { type: "boolean" },
        verbose: { type: "boolean" },
        help: { type: "boolean" },
      },
    }));
  } catch (err) {
    throw new SimulatorError("INVALID_OPTION", err instanceof Error ? err.message : String(err), {
      cause: err,
    });
  }
  if (values.help) return { help: true };
  const str = (k: string) => (typeof values[k] === "string" ? values[k] : undefined);
  const shape = str("list-clusters-shape");
  if (shape !== undefined && shape !== "array" && shape !== "object") {
    throw new SimulatorError("INVALID_OPTION", `--list-clusters-shape must be array or object, got ${shape}`);
  }
  const mode = str("rate-limit-mode");
  if (mode !== undefined && !(RATE_LIMIT_MODES as readonly string[]).includes(mode)) {
    throw new SimulatorError(
      "INVALID_OPTION",
      `--rate-limit-mode must be one of ${RATE_LIMIT_MODES.join(", ")}, got ${mode}`,
    );
  }
  const entries: Array<[keyof SimulatorOptions, unknown]> = [
    ["host", str("host")],
    ["port", num("port", str("port"))],
    ["clusters", num("clusters", str("clusters"))],
    ["seed", num("seed", str("seed"))],
    ["timeScale", num("time-scale", str("time-scale"))],
    ["rateLimitPerSecond", num("rate-limit", str("rate-limit"))],
    ["rateLimitMode", mode],
    ["listClustersShape", shape],
    ["apiKeys", values["api-key"]],
    ["backupDeniedKeys", values["backup-denied-key"]],
    ["billingKeys", values["billing-key"]],
    ["sparkJobsPerProject", num("spark-jobs-per-project", str("spark-jobs-per-project"))],
    ["importJobsPerCluster", num("import-jobs-per-cluster", str("import-jobs-per-cluster"))],
    ["collectionsPerCluster", num("collections-per-cluster", str("collections-per-cluster"))],
    ["metricRetentionMs", retentionMs(num("metric-retention-days", str("metric-retention-days")))],
    ["maxMetricPoints", num("max-metric-points", str("max-metric-points"))],
    ["quirks", parseQuirks(str("quirks"))],
    ["metricCatalog", str("metric-catalog")],
    ["metricStat", str("metric-stat")],
    ["retireV1", values["retire-v1"] === true ? true : undefined],
    ["removeV2ImportList", values["remove-v2-import-list"] === true ? true : undefined],
    ["nativeHistogramSumCount", values["native-histogram-sum-count"] === true ? true : undefined],
  ];
  const options = Object.fromEntries(entries.filter(([, v]) => v !== undefined)) as SimulatorOptions;
  return { help: false, verbose: values.verbose === true, options };
}
