/**
 * "Log once per state change", written once. A condition seen every cycle (a failing target, a
 * refused key, a name the service refuses) is worth a line when it starts, when it changes and
 * when it ends, not once per cycle: a line repeated every minute hides the one that matters.
 * Where the same change reaches the exporter piece by piece (targets find a refused key each in
 * its own poll), a coalescing window gathers the pieces so that one line says all of them.
 */

/** Options of a {@link ChangeLog}. */
export interface ChangeLogOptions<S> {
  /**
   * The state of a key nothing was logged for (nothing wrong, nothing to say). Contract: a key
   * never logged is taken to be in it, and a key back in it is forgotten, so the memory holds
   * only keys with something to say. Without it, a key never logged differs from every state.
   */
  readonly quiet?: S;
}

/**
 * The state last logged per key. Contract: `changed(key, s)` is true exactly when `s` differs
 * (`Object.is`) from the state last logged for `key`, and then `s` is that state from now on;
 * the caller writes its line on true, and only then. The memory holds one entry per key not in
 * the quiet state, until `forget` or `retain` drops it (the caller's bound: the keys it still
 * knows).
 */
export class ChangeLog<S> {
  readonly #logged = new Map<string, S>();
  readonly #hasQuiet: boolean;
  readonly #quiet: S | undefined;

  constructor(options: ChangeLogOptions<S> = {}) {
    this.#hasQuiet = "quiet" in options;
    this.#quiet = options.quiet;
  }

  /** Whether `state` is news for `key`; when it is, it becomes the state logged for `key`. */
  changed(key: string, state: S): boolean {
    const same = this.#logged.has(key) ? Object.is(this.#logged.get(key), state) : this.#isQuiet(state);
    if (same) return false;
    this.record(key, state);
    return true;
  }

  /** Takes `state` as logged for `key` without a line (a change nobody needs to hear of). */
  record(key: string, state: S): void {
    if (this.#isQuiet(state)) this.#logged.delete(key);
    else this.#logged.set(key, state);
  }

  /** The state last logged for `key`; undefined when none is remembered (or it is quiet). */
  last(key: string): S | undefined {
    return this.#logged.get(key);
  }

  /** Whether something is remembered for `key`. */
  has(key: string): boolean {
    return this.#logged.has(key);
  }

  /** Forgets `key`: its next state is news again (unless quiet). */
  forget(key: string): void {
    this.#logged.delete(key);
  }

  /** Forgets every key `keep` says no to. */
  retain(keep: (key: string) => boolean): void {
    for (const key of this.#logged.keys()) if (!keep(key)) this.#logged.delete(key);
  }

  /** Keys remembered (for tests and bounds). */
  get size(): number {
    return this.#logged.size;
  }

  #isQuiet(state: S): boolean {
    return this.#hasQuiet && Object.is(state, this.#quiet);
  }
}

/** Timers, injectable so that tests decide when a window closes. */
export interface WindowTimers {
  /** Calls `fn` once, `ms` from now; returns a handle for `clear`. Must not keep the process alive. */
  readonly set: (fn: () => void, ms: number) => unknown;
  readonly clear: (handle: unknown) => void;
}

const NODE_TIMERS: WindowTimers = {
  set: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    // A pending line must not keep a stopping process alive.
    timer.unref?.();
    return timer;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Options of a {@link CoalescingWindow}. */
export interface WindowOptions {
  /**
   * Whether each change pushes the close `ms` further (close once changes have settled for
   * `ms`); otherwise the window closes `ms` after the change that opened it, however many follow.
   */
  readonly restart?: boolean | undefined;
  readonly timers?: WindowTimers | undefined;
}

/**
 * Gathers changes for a while before they are compared with what was logged. Contract: `touch`
 * says something changed and opens the window if it is closed; `onClose` runs once when an open
 * window closes (see {@link WindowOptions.restart}), and whenever `close` is called.
 */
export class CoalescingWindow {
  #handle: unknown;
  readonly #restart: boolean;
  readonly #timers: WindowTimers;

  constructor(
    private readonly ms: number,
    private readonly onClose: () => void,
    options: WindowOptions = {},
  ) {
    this.#restart = options.restart ?? false;
    this.#timers = options.timers ?? NODE_TIMERS;
  }

  /** Something changed: it is looked at when the window closes. */
  touch(): void {
    if (this.#handle !== undefined) {
      if (!this.#restart) return;
      this.#timers.clear(this.#handle);
    }
    this.#handle = this.#timers.set(() => {
      this.#handle = undefined;
      this.onClose();
    }, this.ms);
  }

  /** Closes the window now (`onClose` runs even when no change was pending). */
  close(): void {
    if (this.#handle !== undefined) this.#timers.clear(this.#handle);
    this.#handle = undefined;
    this.onClose();
  }
}
