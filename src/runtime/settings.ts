/**
 * The exporter's runtime settings: the node flags and environment variables it runs with, however
 * it is started (docs/runtime.md). This is their one definition. The launcher (main.ts: the bin,
 * `npm start`, `npm run demo`, `node dist/main.js`) adds what a process lacks; `npm run manifests`
 * writes them into the Dockerfile's ENV and ENTRYPOINT, which the Kubernetes manifests keep; the
 * bench and the soak start the exporter with them. Measured in docs/performance.md.
 *
 * This module and the rest of src/runtime/ import nothing but Node's own modules: the launcher
 * loads them before the exporter's modules, in a process that may only start another.
 */

/** Node flags and environment variables, as a process is started with them. */
export interface RuntimeSettings {
  /**
   * Node flags, each `--name=value` or `--name`. They go on node's command line: Node refuses
   * some of them (--heap-growing-percent) in NODE_OPTIONS.
   */
  readonly nodeFlags: readonly string[];
  /** Environment variables; glibc's malloc reads these before a process runs any code. */
  readonly env: Readonly<Record<string, string>>;
}

export const RUNTIME_SETTINGS: RuntimeSettings = {
  nodeFlags: [
    // A 2 MiB young generation (default 16 MiB per semi-space) is collected more often; the
    // exporter's garbage is short-lived, so this trades a little CPU for resident memory.
    "--max-semi-space-size=2",
    // A full collection once the old generation is 25% over what the last one left live: V8's
    // own factor let the heap grow far past what was live, mostly garbage, in a fault
    // episode of the soak (docs/performance.md). Node refuses this flag in NODE_OPTIONS.
    "--heap-growing-percent=25",
    // V8's memory-first mode (it compacts the old generation and gives back its free pages at
    // each full collection): a smaller heap and process in the steady state, for a little more
    // collection a cycle (docs/performance.md).
    "--optimize-for-size",
  ],
  env: {
    // glibc keeps one malloc arena per thread that ever allocated (zlib and fs run on the
    // thread pool) and returns little of their free memory: two arenas cap that slack.
    MALLOC_ARENA_MAX: "2",
    // Blocks from 128 KiB up are mmap'd and so returned to the system when freed, instead of
    // the dynamic threshold that climbs to 32 MiB after the first large free.
    MALLOC_MMAP_THRESHOLD_: "131072",
  },
};

/** The variables a user changes the settings with (docs/runtime.md); an empty one counts as unset. */
export const RUNTIME_CONTROLS = {
  /** `off`: none of the settings (the launcher removes them and adds none); `on`: the default. */
  switch: "VDBCLOUD_RUNTIME",
  /** The node flags instead of the built-in ones, space-separated; `none` for no flag. */
  nodeFlags: "VDBCLOUD_NODE_FLAGS",
  /** The environment variables instead of the built-in ones, `NAME=value` space-separated; `none`. */
  env: "VDBCLOUD_RUNTIME_ENV",
} as const;

/**
 * Set by the launcher on the process it starts, so that process never starts another (no
 * relaunch loop). Its value says how to tell the launcher that the process catches SIGHUP.
 */
export const RELAUNCH_MARKER = "VDBCLOUD_RUNTIME_LAUNCHED";
