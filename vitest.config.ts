import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Tests whose assertions are about pace on the wall clock: a first cycle within 1.25x of the
 * rate budget's minimum, and 0 rate-limit answers from a simulator that counts real seconds.
 * Contention for the CPU bunches their requests and stretches their cycles, so they run first,
 * one at a time, on a quiet machine.
 */
const PACED = [
  "test/integration.firstpass.test.ts",
  "test/integration.replicas.test.ts",
  "test/integration.ratelimit.test.ts",
];

/**
 * The rest spend most of their time waiting (scrape intervals, rate-limited first cycles,
 * Prometheus and Alertmanager starting, the native endpoint's minute), not computing: more
 * workers than cores keeps the suite short. Vitest's own default (cores - 1) would run them one
 * by one on a two-core machine.
 */
const SHARED_WORKERS = Math.max(4, availableParallelism());

export default defineConfig({
  test: {
    setupFiles: ["test/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    reporters: ["default", "./test/summaryReporter.ts"],
    projects: [
      {
        extends: true,
        // Group 1, not 0: vitest runs a single-worker project of group 0 last, not first.
        test: { name: "paced", include: PACED, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: {
          name: "shared",
          include: ["src/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: PACED,
          maxWorkers: SHARED_WORKERS,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
