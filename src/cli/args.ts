import { parseArgs } from "node:util";

export const USAGE = `Usage:
  vdbcloud-exporter --config FILE                 run the exporter
  vdbcloud-exporter --config FILE --check-config  validate the config and print the polling plan
  vdbcloud-exporter --demo                        run against an embedded simulator (no account needed)

Options:
  --listen HOST:PORT       listen address (default from the config, else 0.0.0.0:9474)
  --log-level LEVEL        fatal, error, warn, info, debug or trace (default info)
  --shard I                this replica's shard, 0-based (default 0)
  --total-shards N         number of replicas splitting the targets (default 1)
  --help, --version

Environment:
  VDBCLOUD_API_KEY         API key, used when the config names none

Exit codes: 0 ok, 2 bad config or arguments, 1 anything else.`;

export type Mode = "run" | "check" | "demo" | "help" | "version";

/** Parsed command line. */
export interface CliArgs {
  readonly mode: Mode;
  readonly configPath?: string;
  readonly listen?: string;
  readonly logLevel: string;
  readonly shard: { readonly index: number; readonly total: number };
}

/** Bad command line: the message says what is wrong; main prints it with the usage, exit 2. */
export class ArgsError extends Error {
  readonly code = "bad_arguments";
}

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** Parses argv (without node and script). Throws ArgsError. */
export function parseCli(argv: readonly string[]): CliArgs {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (err) {
    throw new ArgsError((err as Error).message, { cause: err });
  }
  if (values.help) return { mode: "help", logLevel: "info", shard: { index: 0, total: 1 } };
  if (values.version) return { mode: "version", logLevel: "info", shard: { index: 0, total: 1 } };
  const logLevel = values["log-level"] ?? "info";
  if (!LEVELS.includes(logLevel)) throw new ArgsError(`--log-level: must be one of ${LEVELS.join(", ")}`);
  const index = integer(values.shard ?? "0", "--shard");
  const total = integer(values["total-shards"] ?? "1", "--total-shards");
  if (total < 1) throw new ArgsError("--total-shards: must be at least 1");
  if (index >= total) throw new ArgsError(`--shard: must be below --total-shards (${total})`);
  let mode: Mode;
  if (values.demo) {
    if (values["check-config"]) throw new ArgsError("--check-config: needs --config, not --demo");
    mode = "demo";
  } else {
    if (values.config === undefined) throw new ArgsError("--config: required (or use --demo)");
    mode = values["check-config"] ? "check" : "run";
  }
  return {
    mode,
    ...(values.config !== undefined ? { configPath: values.config } : {}),
    ...(values.listen !== undefined ? { listen: values.listen } : {}),
    logLevel,
    shard: { index, total },
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      config: { type: "string" },
      "check-config": { type: "boolean" },
      demo: { type: "boolean" },
      listen: { type: "string" },
      "log-level": { type: "string" },
      shard: { type: "string" },
      "total-shards": { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" },
    },
  });
}

function integer(text: string, flag: string): number {
  if (!/^\d+$/.test(text)) throw new ArgsError(`${flag}: must be a non-negative integer, got "${text}"`);
  return Number(text);
}
