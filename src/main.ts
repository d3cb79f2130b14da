#!/usr/bin/env node
// First, before anything slower loads: from here on a SIGHUP cannot end the process (app/sighup.ts).
import "./app/sighup.js";

import { launch } from "./runtime/launch.js";

// The runtime settings (docs/runtime.md): a long-running exporter started without them starts
// node once more with them (runtime/launch.ts). Only the process that runs the command loads the
// exporter's modules, so a launcher that waits on its child stays small.
const outcome = launch(process.argv.slice(2));
if (outcome.kind === "exit") process.exit(outcome.code);
if (outcome.kind === "run") {
  const { main } = await import("./cli/main.js");
  main(process.argv.slice(2), outcome.start).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`fatal: ${(err as Error)?.message ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
