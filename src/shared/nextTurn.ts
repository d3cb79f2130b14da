/**
 * Resolves on a later turn of the event loop, after the I/O and timers already due: long work
 * split by it lets a scrape, a probe or another target's answer in between its slices.
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
