/**
 * `vdbcloud-exporter slo-rules --config FILE`: the error-budget rules of the file's `slo`
 * section as a Prometheus rules file on standard output (docs/slo.md). The whole file is
 * validated as `--check-config` does, but no key is read and nothing is called.
 */
import type { Writable } from "node:stream";
import { reportConfigError } from "../config/errors.js";
import { loadConfigSettings } from "../config/load.js";
import { EXIT_OK, EXIT_USAGE } from "../shared/exitCodes.js";
import { parseFlags } from "../shared/flags.js";
import { DEFAULT_RUNBOOK_BASE_URL, renderSloRules } from "./rules.js";

export const SLO_RULES_USAGE = `Usage:
  vdbcloud-exporter slo-rules --config FILE [--runbook-base-url URL]

  Prints the error-budget rules of the config's slo section (objectives, period, alert windows)
  as a Prometheus rules file: load it beside alerts.yml and recording.yml.

  --config FILE            the configuration file (or VDBCLOUD_CONFIG); no API key is needed
  --runbook-base-url URL   each alert's runbook_url is URL#<alert name in lower case>
                           (default ${DEFAULT_RUNBOOK_BASE_URL})

Exit codes: 0 printed, 2 bad arguments or config, 1 anything else.`;

/** What the command writes to and reads from. */
interface SloRulesIo {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Runs `slo-rules` with the arguments after the word; resolves with the exit code. */
export async function runSloRules(argv: readonly string[], io: SloRulesIo): Promise<number> {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (err) {
    return usageError(io, (err as Error).message);
  }
  if (values.help) {
    io.stdout.write(`${SLO_RULES_USAGE}\n`);
    return EXIT_OK;
  }
  const configPath = values.config ?? (io.env.VDBCLOUD_CONFIG || undefined);
  if (configPath === undefined) return usageError(io, "--config: required (or VDBCLOUD_CONFIG)");
  const runbookBaseUrl = values["runbook-base-url"] ?? DEFAULT_RUNBOOK_BASE_URL;
  if (!/^https?:\/\/\S+$/.test(runbookBaseUrl))
    return usageError(io, "--runbook-base-url: must be an http(s) URL without spaces");
  try {
    const settings = await loadConfigSettings(configPath);
    io.stdout.write(renderSloRules(settings.slo, { runbookBaseUrl, source: configPath }));
    return EXIT_OK;
  } catch (err) {
    return reportConfigError(err, io.stderr);
  }
}

function usageError(io: SloRulesIo, message: string): number {
  io.stderr.write(`error: ${message}\n\n${SLO_RULES_USAGE}\n`);
  return EXIT_USAGE;
}

function parse(argv: readonly string[]) {
  return parseFlags(argv, {
    config: { type: "string" },
    "runbook-base-url": { type: "string" },
    help: { type: "boolean", short: "h" },
  });
}
