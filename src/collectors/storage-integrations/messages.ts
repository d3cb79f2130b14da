/**
 * What the storage integrations collector remembers between polls: the status and message last
 * logged for each integration, so that the service's message (why an integration is in ERROR)
 * is logged once when it appears or changes, and once more when the integration is well again,
 * never once per cycle. The message is free text of the service's: it goes to the log only,
 * never to a label or /metrics.
 */
import { stateSlot } from "../../polling/model.js";
import { ChangeLog } from "../../shared/changeLog.js";
import type { StorageIntegration } from "../../upstream/types.js";

/** The state of an integration with nothing to say: active (or of unknown status) and no message. */
const QUIET = "";

/**
 * The longest message logged, in characters: the service's text is of any length, and a line
 * per change must stay a line.
 */
export const MAX_MESSAGE_CHARS = 500;

/** One line to log about one integration. */
export interface IntegrationLine {
  readonly level: "warn" | "info";
  readonly fields: {
    readonly project_id: string;
    readonly integration_id: string;
    readonly name: string;
    readonly bucket_name: string;
    readonly status: string;
    readonly message?: string;
  };
  readonly msg: string;
}

const SEPARATOR = "\u0000";

function keyOf(projectId: string, integrationId: string): string {
  return `${projectId}${SEPARATOR}${integrationId}`;
}

/** The text of a message as logged: at most MAX_MESSAGE_CHARS characters. */
function bounded(message: string): string {
  return message.length <= MAX_MESSAGE_CHARS ? message : `${message.slice(0, MAX_MESSAGE_CHARS)}…`;
}

/** An integration's state as compared between polls: QUIET, or its status and message. */
function stateOf(s: StorageIntegration): string {
  const status = s.status?.toLowerCase() ?? "";
  if ((status === "active" || status === "") && s.message === null) return QUIET;
  return `${status}${SEPARATOR}${s.message ?? ""}`;
}

/** Per integration: the status and message last logged. */
export class IntegrationMessages {
  readonly #logged = new ChangeLog<string>({ quiet: QUIET });

  /**
   * The lines one listing of `projectId` is worth, one per integration whose status or message
   * changed since it was last logged: a warning for a status other than active (the message,
   * when there is one, is why), an info line for a message beside an active (or unknown)
   * status, and one for an integration back to active without a message. The project's integrations no longer listed
   * are forgotten (their series go with the next listing; nothing is logged of them).
   */
  lines(projectId: string, integrations: readonly StorageIntegration[]): IntegrationLine[] {
    const out: IntegrationLine[] = [];
    const listed = new Set<string>();
    for (const s of integrations) {
      const key = keyOf(projectId, s.integrationId);
      listed.add(key);
      const state = stateOf(s);
      if (!this.#logged.changed(key, state)) continue;
      const status = s.status?.toLowerCase() ?? "";
      const fields = {
        project_id: projectId,
        integration_id: s.integrationId,
        name: s.name,
        bucket_name: s.bucketName,
        status,
        ...(s.message === null ? {} : { message: bounded(s.message) }),
      };
      if (state === QUIET) {
        out.push({ level: "info", fields, msg: "storage integration is active, with no message" });
      } else if (status === "active" || status === "") {
        out.push({ level: "info", fields, msg: "storage integration has a message" });
      } else {
        out.push({
          level: "warn",
          fields,
          msg: "storage integration is not active: the next backup export or audit-log forward through it fails",
        });
      }
    }
    const prefix = `${projectId}${SEPARATOR}`;
    this.#logged.retain((key) => !key.startsWith(prefix) || listed.has(key));
    return out;
  }

  /** Integrations remembered (for tests and bounds): those with something logged. */
  get size(): number {
    return this.#logged.size;
  }
}

/** The storage integrations collector's memory of what it logged, kept across polls and reloads. */
export const INTEGRATION_MESSAGES = stateSlot(
  "storage integration messages",
  () => new IntegrationMessages(),
);
