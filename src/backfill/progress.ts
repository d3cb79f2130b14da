/**
 * Progress of a backfill on standard error: percent of chunks done, calls, refusals and the
 * estimated time left, rewritten in place on a terminal, a line every ten seconds otherwise.
 */

/** Where progress goes. */
export interface ProgressSink {
  write(text: string): void;
  readonly isTTY?: boolean;
}

/** Counts of a run and the line that shows them. */
export class Progress {
  #done: number;
  #doneThisRun = 0;
  #calls = 0;
  #refused = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #started: number;

  constructor(
    readonly total: number,
    alreadyDone: number,
    private readonly sink: ProgressSink | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.#done = alreadyDone;
    this.#started = now();
  }

  get calls(): number {
    return this.#calls;
  }

  get refused(): number {
    return this.#refused;
  }

  chunkDone(): void {
    this.#done += 1;
    this.#doneThisRun += 1;
  }

  call(): void {
    this.#calls += 1;
  }

  refusal(): void {
    this.#refused += 1;
  }

  /** The progress line, e.g. "backfill: 45.0% (540/1200 chunks), 812 calls, about 1m20s left". */
  line(): string {
    const percent = this.total === 0 ? 100 : (100 * this.#done) / this.total;
    const refused = this.#refused > 0 ? `, ${this.#refused} refused as too large and split` : "";
    return `backfill: ${percent.toFixed(1)}% (${this.#done}/${this.total} chunks), ${this.#calls} calls${refused}${this.#eta()}`;
  }

  #eta(): string {
    const elapsed = this.now() - this.#started;
    const left = this.total - this.#done;
    if (this.#doneThisRun === 0 || left <= 0) return "";
    return `, about ${formatSeconds((elapsed / this.#doneThisRun) * left)} left`;
  }

  /** Starts showing progress (nothing without a sink, i.e. with --quiet). */
  start(): void {
    if (this.sink === undefined) return;
    const tty = this.sink.isTTY === true;
    this.#timer = setInterval(() => this.#show(tty), tty ? 1000 : 10_000);
    this.#timer.unref();
  }

  /** Stops, leaving the last line shown. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.sink === undefined) return;
    this.sink.write(this.sink.isTTY === true ? `\r${this.line()}\x1b[K\n` : `${this.line()}\n`);
  }

  #show(tty: boolean): void {
    this.sink?.write(tty ? `\r${this.line()}\x1b[K` : `${this.line()}\n`);
  }
}

/** 95000 -> "1m35s", 3_725_000 -> "1h2m". */
function formatSeconds(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
