/**
 * The work directory of a backfill, next to its output (`OUTPUT.backfill`; for standard output,
 * one per command in the temporary directory). Its `state.json` records the command and the
 * window it resolved to, so that running the same command again resumes the same window (a
 * `--from P7D` means seven days before the first run), and the chunks finished so far
 * (`ChunkSpool`). Another command with the same output starts afresh.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { MetricsTarget } from "../collectors/cluster-metrics/targets.js";
import type { BackfillArgs, BackfillWindow } from "./args.js";
import type { Span } from "./chunks.js";

const STATE_VERSION = 1;

/** What makes two runs the same command: the arguments as given, the config file by path. */
interface CommandIdentity {
  readonly config: string;
  readonly from: string;
  readonly to: string | null;
  readonly granularity: string | null;
  readonly output: string;
}

interface StateFile {
  readonly version: number;
  readonly command: CommandIdentity;
  readonly window: BackfillWindow;
}

/** The identity of `args`, paths made absolute (the same command from another directory). */
export function commandIdentity(args: BackfillArgs, cwd = process.cwd()): CommandIdentity {
  return {
    config: resolve(cwd, args.configPath),
    from: args.from,
    to: args.to ?? null,
    granularity: args.granularity ?? null,
    output: args.output === "-" ? "-" : resolve(cwd, args.output),
  };
}

/** A short, stable hex digest of `value` (its JSON): work directory and chunk names. */
export function digest(value: unknown, length = 24): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, length);
}

/** The work directory of a command. */
function workDirOf(id: CommandIdentity): string {
  if (id.output === "-") return join(tmpdir(), `vdbcloud-backfill-${digest(id, 16)}`);
  return join(dirname(id.output), `${id.output.slice(dirname(id.output).length + 1)}.backfill`);
}

/**
 * The key of a chunk: its target, the target's queries, the granularity and the span. A changed
 * query list or target gives other keys, so a resumed run never reuses a chunk asked differently.
 */
export function chunkKey(target: MetricsTarget, granularityMs: number, span: Span): string {
  return digest([target.name, target.batches, granularityMs, span.startMs, span.endMs]);
}

/** The opened work directory: the window to backfill and whether an earlier run is resumed. */
interface WorkState {
  readonly dir: string;
  readonly window: BackfillWindow;
  readonly resumed: boolean;
}

/**
 * Opens the work directory of `id`: the recorded window when the same command ran before
 * (`resolved` is then not used), else a fresh directory recording `resolved()`.
 */
export async function openWorkState(id: CommandIdentity, resolved: () => BackfillWindow): Promise<WorkState> {
  const dir = workDirOf(id);
  const statePath = join(dir, "state.json");
  const previous = await readFile(statePath, "utf8").then(
    (text) => JSON.parse(text) as StateFile,
    () => undefined,
  );
  if (previous?.version === STATE_VERSION && JSON.stringify(previous.command) === JSON.stringify(id)) {
    return { dir, window: previous.window, resumed: true };
  }
  const window = resolved();
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const state: StateFile = { version: STATE_VERSION, command: id, window };
  await writeFile(`${statePath}.tmp`, JSON.stringify(state, null, 2));
  await rename(`${statePath}.tmp`, statePath);
  return { dir, window, resumed: false };
}

/** Removes the work directory once its output is complete. */
export async function removeWorkState(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
