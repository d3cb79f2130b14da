/**
 * A credential without backup permission is a setting, not an outage: it is logged once per
 * collector and credential (the label, never the key) when the service starts refusing, and
 * once when it stops, however many targets and cycles share it.
 */
import type { Logger } from "pino";
import { stateSlot } from "../../polling/model.js";

/**
 * Per process: which calls (`call`: the listing, the policies) the service refuses, per
 * collector and credential. The pair is refused while any of its calls is, so a role that may
 * read one and not the other gives one line, not one per cycle.
 */
export class PermissionLog {
  readonly #refused = new Map<string, Set<string>>();

  /** Records a refusal; logs a warning only when none of the pair's calls was refused before. */
  refused(
    logger: Pick<Logger, "warn"> | undefined,
    collector: string,
    credential: string,
    call: string,
  ): void {
    const key = `${collector}\u0000${credential}`;
    const calls = this.#refused.get(key) ?? new Set<string>();
    const first = calls.size === 0;
    calls.add(call);
    this.#refused.set(key, calls);
    if (!first) return;
    logger?.warn(
      { collector, credential },
      "credential lacks the permission this collector needs (backups: a project admin, the organization owner or a role with backup permission); its data is not collected",
    );
  }

  /** Records an accepted call; logs once when the pair's last refused call is accepted. */
  permitted(
    logger: Pick<Logger, "info"> | undefined,
    collector: string,
    credential: string,
    call: string,
  ): void {
    const key = `${collector}\u0000${credential}`;
    const calls = this.#refused.get(key);
    if (!calls?.delete(call) || calls.size > 0) return;
    this.#refused.delete(key);
    logger?.info({ collector, credential }, "credential permitted again");
  }
}

/** The exporter's one PermissionLog (shared by the backup collectors). */
export const PERMISSION_LOG = stateSlot("permission log", () => new PermissionLog());
