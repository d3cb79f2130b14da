/**
 * SIGHUP is caught from the first moment the process runs its own code. Node's default action
 * for SIGHUP ends the process, and a SIGHUP can come while the exporter is still starting (a
 * configuration tool that signals every exporter after writing their files). Until the run can
 * reload, a SIGHUP is remembered; one reload follows as soon as it can.
 *
 * This module imports nothing, and main.ts imports it first, so the handler is in place before
 * the other modules (the slow part of start-up) load.
 */
let handler: (() => void) | undefined;
let pending = false;

process.on("SIGHUP", () => {
  if (handler === undefined) pending = true;
  else handler();
});

/** Routes SIGHUP to `reload` from now on; runs it once at once if a SIGHUP came before. */
export function onSighup(reload: () => void): void {
  handler = reload;
  if (pending) {
    pending = false;
    reload();
  }
}
