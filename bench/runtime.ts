/**
 * The process settings the exporter is deployed with (Dockerfile, Kubernetes manifests), so the
 * benchmark measures what runs in production; `--runtime node-defaults` measures without them.
 * test/kubernetes.test.ts and bench/runtime.test.ts check that the deployment files carry
 * exactly these.
 */
export interface Runtime {
  readonly name: "deployed" | "node-defaults";
  readonly env: Readonly<Record<string, string>>;
  readonly nodeFlags: readonly string[];
}

export const DEPLOYED_RUNTIME: Runtime = {
  name: "deployed",
  env: {
    // glibc keeps one malloc arena per thread that ever allocated (zlib and fs run on the
    // thread pool) and returns little of their free memory: two arenas cap that slack.
    MALLOC_ARENA_MAX: "2",
    // Blocks from 128 KiB up are mmap'd and so returned to the system when freed, instead of
    // the dynamic threshold that climbs to 32 MiB after the first large free.
    MALLOC_MMAP_THRESHOLD_: "131072",
  },
  // A 2 MiB young generation (default 16 MiB per semi-space) is collected more often; the
  // exporter's garbage is short-lived, so this trades a little CPU for resident memory.
  // A full collection once the old generation is 25% over what the last one left live: V8's own
  // factor let ~40 MiB live reach 105 MiB of heap, mostly garbage, in a fault episode of the soak.
  // Node refuses this flag in NODE_OPTIONS: it goes on the command line (the Dockerfile's
  // ENTRYPOINT), the other in NODE_OPTIONS (runtime.test.ts checks both files).
  nodeFlags: ["--max-semi-space-size=2", "--heap-growing-percent=25"],
};

export const NODE_DEFAULTS: Runtime = { name: "node-defaults", env: {}, nodeFlags: [] };

export const RUNTIMES = [DEPLOYED_RUNTIME, NODE_DEFAULTS] as const;
