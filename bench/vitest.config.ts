/**
 * Runs the harness's own unit tests (`npx vitest run --config bench/vitest.config.ts`): the
 * project config only includes src/ and test/. Same setup and pool as the project's tests.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["bench/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    testTimeout: 30_000,
    pool: "forks",
  },
});
