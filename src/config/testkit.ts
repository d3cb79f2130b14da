/**
 * Test helpers for the config modules. Used by tests only (the build leaves testkit files out).
 */
import { expect } from "vitest";
import { ConfigError } from "./errors.js";
import { buildConfig } from "./load.js";

/** The ConfigError `promise` rejects with; fails the test otherwise. */
export async function failure(promise: Promise<unknown>): Promise<ConfigError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
}

/** The smallest raw config `buildConfig` accepts with an empty environment. */
export const MINIMAL_RAW = { api: { api_key: "k" } } as const;

/**
 * The problems `buildConfig` reports for `raw` over MINIMAL_RAW, each as "path: message"; empty
 * when it accepts it.
 */
async function problems(raw: Record<string, unknown>): Promise<string[]> {
  try {
    await buildConfig({ ...MINIMAL_RAW, ...raw }, { env: {} });
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.map((p) => `${p.path}: ${p.message}`);
    throw err;
  }
  return [];
}

/** Fails unless one of the problems `buildConfig` reports for `raw` contains `expected`. */
export async function expectProblem(raw: Record<string, unknown>, expected: string): Promise<void> {
  const found = await problems(raw);
  expect(
    found.some((p) => p.includes(expected)),
    found.join("\n"),
  ).toBe(true);
}
