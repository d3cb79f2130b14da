#!/usr/bin/env node
/**
 * Standalone simulator: `node dist/simulator/cli.js --port 8080 --clusters 20`. Prints the URLs
 * to point an exporter at and runs until SIGINT/SIGTERM. Exit codes: 0 ok, 2 bad arguments,
 * 1 anything else.
 */
import { parseCliArgs, USAGE } from "./cli-args.js";
import { SimulatorError } from "./errors.js";
import { startSimulator } from "./index.js";

async function main(): Promise<number> {
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const verbose = args.verbose;
  const sim = await startSimulator({
    ...args.options,
    ...(verbose ? { logger: (line: string) => process.stderr.write(`${line}\n`) } : {}),
  });
  const keys = args.options.apiKeys?.length
    ? `${args.options.apiKeys.length} configured key(s)`
    : "any non-empty key";
  process.stdout.write(
    [
      "vdbcloud upstream simulator listening",
      `  base_url:       ${sim.baseUrl}`,
      `  controller_url: ${sim.controllerUrlTemplate}`,
      `  clusters:       ${sim.clusters.length} in ${sim.projects.length} project(s); list: ${sim.baseUrl}/_sim/world`,
      `  spark jobs:     ${sim.state.sparkJobRefs.length}`,
      `  controls:       ${sim.baseUrl}/_sim/stats  ${sim.baseUrl}/_sim/faults`,
      `  api keys:       ${keys}`,
      "",
    ].join("\n"),
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await sim.close();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const message =
      err instanceof SimulatorError
        ? err.message
        : err instanceof Error
          ? (err.stack ?? err.message)
          : String(err);
    process.stderr.write(`${message}\n`);
    process.exitCode = err instanceof SimulatorError && err.code === "INVALID_OPTION" ? 2 : 1;
  },
);
