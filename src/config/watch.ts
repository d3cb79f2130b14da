import { type StatsListener, unwatchFile, watchFile } from "node:fs";

/** How often the config file is checked; with Kubernetes' ConfigMap updates, well within 10 s. */
export const CONFIG_WATCH_INTERVAL_MS = 2000;

/**
 * Calls `onChange` when the file at `path` changes: its content, or which file the path leads to.
 * Stat polling rather than inotify, because Kubernetes updates a mounted ConfigMap by swapping
 * the `..data` symlink to a new directory: the file the path resolves to is replaced, never
 * written, and an inotify watch on the old file sees nothing. The stat follows symlinks, so a
 * swap shows as a new inode. Returns a function that stops watching; the watch never keeps the
 * process alive.
 */
export function watchPath(path: string, intervalMs: number, onChange: () => void): () => void {
  const listener: StatsListener = (current, previous) => {
    // Stat polling reports access-time changes too; only what a reload would see matters.
    if (
      current.ino === previous.ino &&
      current.dev === previous.dev &&
      current.size === previous.size &&
      current.mtimeMs === previous.mtimeMs &&
      current.ctimeMs === previous.ctimeMs
    )
      return;
    onChange();
  };
  watchFile(path, { interval: intervalMs, persistent: false }, listener);
  return () => unwatchFile(path, listener);
}
