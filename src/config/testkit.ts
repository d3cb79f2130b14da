/**
 * Test helpers for the config modules. Used by tests only (the build leaves testkit files out).
 */
import { expect } from "vitest";
import { ConfigError } from "./errors.js";

/** The ConfigError `promise` rejects with; fails the test otherwise. */
export async function failure(promise: Promise<unknown>): Promise<ConfigError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
}
