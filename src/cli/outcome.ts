/**
 * What every mode of the command line shares: how a step ends the run with an exit code, how a
 * config error is told to the user, and the version the exporter reports. It lives apart from
 * main.ts so that the modules main.ts delegates to need not import it back.
 */
import { readFileSync } from "node:fs";
import { reportConfigError as reportOnStream } from "../config/errors.js";

/** The exit code of a step that ended the run, or what the step produced. */
export type Step<T> = { readonly exit: number } | { readonly value: T };

export function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version?: string;
    };
    return pkg.version ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** A config the user can fix exits 2 (as bad arguments do); anything else is a failure. */
export function reportConfigError(err: unknown): number {
  return reportOnStream(err, process.stderr);
}
