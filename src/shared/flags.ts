/**
 * Flag parsing shared by the exporter's and the backfill command lines: both take flags only, and
 * an unknown flag or a missing value is an error, not something to pass over.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";

type FlagOptions = NonNullable<ParseArgsConfig["options"]>;

/** Parses `argv` strictly against `options`; throws node's ERR_PARSE_ARGS_* errors on bad input. */
export function parseFlags<const O extends FlagOptions>(argv: readonly string[], options: O) {
  return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options });
}
