/**
 * What the `bench` and `soak` entry points share: progress lines on stderr, and the main
 * wrapper that maps bad flags to exit 2, a failed target to 1 and a crash to 1 with its stack.
 */
import { BenchError } from "./errors.js";

/** A progress printer: `[label   12 s] message` on stderr, seconds since it was made. */
export function progressPrinter(label: string): (message: string) => void {
  const t0 = Date.now();
  return (message) =>
    process.stderr.write(`[${label} ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
}

/** Resolves after `ms` (at once when `ms` is not positive: deadlines may have passed). */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * Parses argv with `parse` (which throws BenchError on bad flags), prints `usage` on --help,
 * otherwise runs `body`, writes its report to stdout and exits 0 when it holds, 1 when not.
 */
export function runEntry<A extends { readonly help: boolean }>(entry: {
  readonly name: string;
  readonly usage: string;
  readonly parse: (argv: readonly string[]) => A;
  readonly body: (args: A) => Promise<{ text: string; ok: boolean }>;
}): void {
  const main = async (argv: readonly string[]): Promise<number> => {
    let args: A;
    try {
      args = entry.parse(argv);
    } catch (err) {
      if (err instanceof BenchError) {
        process.stderr.write(`${err.message}\n${entry.usage}\n`);
        return 2;
      }
      throw err;
    }
    if (args.help) {
      process.stdout.write(`${entry.usage}\n`);
      return 0;
    }
    const { text, ok } = await entry.body(args);
    process.stdout.write(text);
    return ok ? 0 : 1;
  };
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(
        `${entry.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}
