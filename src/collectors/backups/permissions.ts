/**
 * A credential without backup permission is a setting, not an outage: it is logged once per
 * collector and credential (the label, never the key) when the service starts refusing, and
 * once when it stops, however many targets and cycles share it.
 */
import type { Logger } from "pino";
import { stateSlot } from "../../polling/model.js";

/** Per process: which (collector, credential) pairs the service refuses. */
export class PermissionLog {
  readonly #refused = new Set<string>();

  /** Records a refusal; logs a warning only when the pair was not refused before. */
  refused(logger: Pick<Logger, "warn"> | undefined, collector: string, credential: string): void {
    const key = `${collector}\u0000${credential}`;
    if (this.#refused.has(key)) return;
    this.#refused.add(key);
    logger?.warn(
      { collector, credential },
      "credential lacks the permission this collector needs (backups: a project admin, the organization owner or a role with backup permission); its data is not collected",
    );
  }

  /** Records an accepted call; logs once when the pair was refused before. */
  permitted(logger: Pick<Logger, "info"> | undefined, collector: string, credential: string): void {
    if (this.#refused.delete(`${collector}\u0000${credential}`)) {
      logger?.info({ collector, credential }, "credential permitted again");
    }
  }
}

/** The exporter's one PermissionLog (shared by the backup collectors). */
export const PERMISSION_LOG = stateSlot("permission log", () => new PermissionLog());
