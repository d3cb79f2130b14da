import { hostname as osHostname } from "node:os";
import { DEMO_METRIC_CATALOGS, type DemoMetricCatalog } from "../app/demo.js";
import { ListenAddressError, parseListen } from "../config/listen.js";
import { ExporterError } from "../shared/errors.js";
import { parseFlags } from "../shared/flags.js";

export const USAGE = `Usage:
  vdbcloud-exporter --config FILE                 run the exporter
  vdbcloud-exporter --config FILE --check-config  validate the config and print the polling schedule
  vdbcloud-exporter --config FILE --probe         one small read-only call per endpoint and target: is the key
                                                  accepted, does each cluster answer, which metric queries
                                                  are refused (exit 0 ok, 1 refused or unreachable)
  vdbcloud-exporter --demo                        run against an embedded simulator (no account needed)
      [--demo-metric-catalog current|2024|permissive]   the reference the simulator's metric names follow:
                                                  current (the default, name only), 2024 (stat required: the
                                                  exporter learns that form), or every name the exporter
                                                  knows (permissive: every panel has data)
      [--demo-simulator-listen HOST:PORT]         where the demo's simulator listens (default: a free loopback
                                                  port); the exporter, and the Prometheus its /sd/native-export
                                                  sends to the simulated endpoint, reach it there
  vdbcloud-exporter backfill --config FILE --from TIME [--to TIME] [--granularity DURATION] --output FILE|-
                                                  past windows as OpenMetrics for promtool (backfill --help)
  vdbcloud-exporter slo-rules --config FILE [--runbook-base-url URL]
                                                  print the error-budget rules of the config's slo section as a
                                                  Prometheus rules file (slo-rules --help)

Options (each also set by the environment variable after it; the flag wins):
  --config FILE            VDBCLOUD_CONFIG        the configuration file
  --listen HOST:PORT       VDBCLOUD_LISTEN        listen address (default from the config, else 0.0.0.0:9474)
  --log-level LEVEL        VDBCLOUD_LOG_LEVEL     fatal, error, warn, info, debug, trace or silent (default info)
  --shard I                VDBCLOUD_SHARD         this replica's shard, 0-based, or "from-hostname" to take
                                                  the ordinal N of a host name ending in -N (StatefulSet pods)
  --total-shards N         VDBCLOUD_TOTAL_SHARDS  number of replicas splitting the targets (default 1); above 1
                                                  without a shard, the shard comes from the host name
  --web.enable-lifecycle                          let POST /-/reload reload the config (off: 403; SIGHUP and
                                                  an edit of the file reload either way)
  --help, --version

Environment:
  VDBCLOUD_API_KEY         API key, used when the config names none
  VDBCLOUD_RUNTIME=off, VDBCLOUD_NODE_FLAGS, VDBCLOUD_RUNTIME_ENV
                           turn off or replace the node flags and malloc variables a run or the demo
                           starts node with (docs/runtime.md); --check-config shows them
  An empty variable counts as unset.

Exit codes: 0 ok, 2 bad config or arguments, 1 anything else.`;

type Mode = "run" | "check" | "probe" | "demo" | "help" | "version";

/** Parsed command line. */
export interface CliArgs {
  readonly mode: Mode;
  readonly configPath?: string;
  readonly listen?: string;
  readonly logLevel: string;
  /** `--demo-metric-catalog`: which names the demo's simulator accepts (demo mode only). */
  readonly demoMetricCatalog?: DemoMetricCatalog;
  /** `--demo-simulator-listen`: where the demo's simulator listens (demo mode only). */
  readonly demoSimulatorListen?: string;
  readonly shard: { readonly index: number; readonly total: number };
  /** `--web.enable-lifecycle`: POST /-/reload is served (as in Prometheus, off by default). */
  readonly enableLifecycle?: boolean;
}

/** Bad command line: the message says what is wrong; main prints it with the usage, exit 2. */
export class ArgsError extends ExporterError {
  readonly code = "bad_arguments";
}

/** Where parseCli reads settings that are not on the command line. */
interface CliEnvironment {
  /** Environment variables; default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** This host's name, for `--shard from-hostname`; default $HOSTNAME, else the OS's. */
  readonly hostname?: string;
}

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** The `--shard` value that takes the ordinal from the host name. */
const SHARD_FROM_HOSTNAME = "from-hostname";

/** Each option that may also come from the environment, and its variable. */
const ENV_OF = {
  config: "VDBCLOUD_CONFIG",
  listen: "VDBCLOUD_LISTEN",
  "log-level": "VDBCLOUD_LOG_LEVEL",
  shard: "VDBCLOUD_SHARD",
  "total-shards": "VDBCLOUD_TOTAL_SHARDS",
} as const;

type Setting = keyof typeof ENV_OF;

/** A setting's value and the name to quote in messages about it (the flag, or the variable). */
interface Sourced {
  readonly value: string;
  readonly name: string;
}

/**
 * Parses argv (without node and script), completing it from the environment: each option of
 * ENV_OF not given as a flag is read from its variable. Throws ArgsError naming the flag or
 * variable that is wrong.
 */
export function parseCli(argv: readonly string[], from: CliEnvironment = {}): CliArgs {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (err) {
    throw new ArgsError((err as Error).message, { cause: err });
  }
  if (values.help) return { mode: "help", logLevel: "info", shard: { index: 0, total: 1 } };
  if (values.version) return { mode: "version", logLevel: "info", shard: { index: 0, total: 1 } };
  const env = from.env ?? process.env;
  const setting = (key: Setting): Sourced | undefined => {
    const flag = values[key];
    if (flag !== undefined) return { value: flag, name: `--${key}` };
    const variable = env[ENV_OF[key]];
    return variable === undefined || variable === "" ? undefined : { value: variable, name: ENV_OF[key] };
  };
  const level = setting("log-level");
  const logLevel = level?.value ?? "info";
  if (level && !LEVELS.includes(logLevel))
    throw new ArgsError(`${level.name}: must be one of ${LEVELS.join(", ")}`);
  const shard = parseShard(
    setting("shard"),
    setting("total-shards"),
    () => from.hostname ?? env.HOSTNAME ?? osHostname(),
  );
  const config = setting("config");
  const listen = setting("listen");
  if (listen) {
    try {
      parseListen(listen.value);
    } catch (err) {
      if (!(err instanceof ListenAddressError)) throw err;
      throw new ArgsError(`${listen.name}: ${err.message}`, { cause: err });
    }
  }
  let mode: Mode;
  if (values["check-config"] && values.probe) throw new ArgsError("--probe: not with --check-config");
  const catalog = values["demo-metric-catalog"];
  if (catalog !== undefined && !values.demo) throw new ArgsError("--demo-metric-catalog: only with --demo");
  if (catalog !== undefined && !DEMO_METRIC_CATALOGS.some((c) => c === catalog)) {
    throw new ArgsError(
      `--demo-metric-catalog: must be one of ${DEMO_METRIC_CATALOGS.join(", ")}, got "${catalog}"`,
    );
  }
  const simulatorListen = values["demo-simulator-listen"];
  if (simulatorListen !== undefined) {
    if (!values.demo) throw new ArgsError("--demo-simulator-listen: only with --demo");
    try {
      parseListen(simulatorListen);
    } catch (err) {
      if (!(err instanceof ListenAddressError)) throw err;
      throw new ArgsError(`--demo-simulator-listen: ${err.message}`, { cause: err });
    }
  }
  if (values.demo) {
    if (values["check-config"]) throw new ArgsError("--check-config: needs --config, not --demo");
    if (values.probe) throw new ArgsError("--probe: needs --config, not --demo");
    mode = "demo";
  } else {
    if (config === undefined) throw new ArgsError("--config: required (or VDBCLOUD_CONFIG, or --demo)");
    mode = values["check-config"] ? "check" : values.probe ? "probe" : "run";
  }
  return {
    mode,
    ...(config !== undefined && mode !== "demo" ? { configPath: config.value } : {}),
    ...(listen !== undefined ? { listen: listen.value } : {}),
    ...(catalog !== undefined ? { demoMetricCatalog: catalog as DemoMetricCatalog } : {}),
    ...(simulatorListen !== undefined ? { demoSimulatorListen: simulatorListen } : {}),
    logLevel,
    shard,
    ...(values["web.enable-lifecycle"] ? { enableLifecycle: true } : {}),
  };
}

/**
 * The shard: given as a number, or the host name's ordinal when asked for (`from-hostname`) or
 * when there are several shards and none was given. Several replicas silently sharing shard 0
 * would poll the same third twice and the rest never, so a missing ordinal is an error.
 */
function parseShard(
  shard: Sourced | undefined,
  totalShards: Sourced | undefined,
  hostname: () => string,
): { index: number; total: number } {
  const total = totalShards ? integer(totalShards) : 1;
  if (totalShards && total < 1) throw new ArgsError(`${totalShards.name}: must be at least 1`);
  let index: number;
  if (shard !== undefined && shard.value !== SHARD_FROM_HOSTNAME) {
    index = integer(shard);
  } else if (shard !== undefined || total > 1) {
    const host = hostname();
    const ordinal = /-(\d+)$/.exec(host)?.[1];
    if (ordinal === undefined) {
      const why = shard
        ? `${shard.name}: ${SHARD_FROM_HOSTNAME}`
        : `${totalShards?.name} above 1 without a shard`;
      throw new ArgsError(
        `${why} needs a host name ending in -N (a StatefulSet pod), got "${host}"; set --shard or VDBCLOUD_SHARD`,
      );
    }
    index = Number(ordinal);
  } else {
    index = 0;
  }
  if (index >= total) {
    const name = shard?.name ?? "the host name's ordinal";
    throw new ArgsError(`${name}: must be below the total shards (${total}), got ${index}`);
  }
  return { index, total };
}

function parse(argv: readonly string[]) {
  return parseFlags(argv, {
    config: { type: "string" },
    "check-config": { type: "boolean" },
    probe: { type: "boolean" },
    demo: { type: "boolean" },
    "demo-metric-catalog": { type: "string" },
    "demo-simulator-listen": { type: "string" },
    listen: { type: "string" },
    "log-level": { type: "string" },
    shard: { type: "string" },
    "total-shards": { type: "string" },
    "web.enable-lifecycle": { type: "boolean" },
    help: { type: "boolean", short: "h" },
    version: { type: "boolean" },
  });
}

function integer(setting: Sourced): number {
  if (!/^\d+$/.test(setting.value))
    throw new ArgsError(`${setting.name}: must be a non-negative integer, got "${setting.value}"`);
  return Number(setting.value);
}
