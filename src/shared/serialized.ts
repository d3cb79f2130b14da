/**
 * Wraps `task` so that runs never overlap and no request is lost: a call while a run is going
 * waits for one follow-up run, which every call in the meantime shares. Used for config
 * reloads, where a change seen during a reload may have been read too early by it.
 */
export function serialized<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let queued: Promise<T> | undefined;
  const start = (): Promise<T> => {
    running = task().finally(() => {
      running = undefined;
    });
    return running;
  };
  return () => {
    if (running === undefined) return start();
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return start();
      });
    return queued;
  };
}
