/**
 * What the API keys collector says in the log, each once per change (shared/changeLog.ts), never
 * once per cycle: whether the exporter's own key (api.key_id) holds more than monitoring needs,
 * or is not in the listing at all; and which keys are older than `api_keys.max_age`. A line names
 * keys by ID only: nothing of a person is in what it reads, and a key's name stays in /metrics.
 */
import { stateSlot } from "../../polling/model.js";
import { ChangeLog } from "../../shared/changeLog.js";
import { formatDuration } from "../../shared/duration.js";
import type { ApiKey } from "../../upstream/types.js";
import { privilegeOf } from "./privilege.js";

/** The state of a subject with nothing to say. */
const QUIET = "";
const SEPARATOR = "\u0000";
/** The ChangeLog key of the old keys. */
const OLD_KEYS = "old";
/** The most key IDs one line lists. */
export const MAX_IDS_LOGGED = 20;

/** One line to log. */
export interface ApiKeyNotice {
  readonly level: "warn" | "info";
  readonly fields: Readonly<Record<string, string | number | readonly string[]>>;
  readonly msg: string;
}

/** What one listing is compared against. */
export interface NoticeInput {
  /** api.key_id, when set. */
  readonly ownKeyId: string | undefined;
  readonly maxAgeMs: number;
  readonly nowMs: number;
}

/** The ChangeLog key of the own key `id` (a new api.key_id is news of its own). */
const ownKeyOf = (id: string) => `own${SEPARATOR}${id}`;

/** The lines the collector logs, each once per change, across polls and reloads. */
export class ApiKeyNotices {
  readonly #logged = new ChangeLog<string>({ quiet: QUIET });

  /**
   * The lines one listing is worth: for the own key, a warning when it holds more than it needs
   * (and again when what it holds changes), an info line when it is not listed, and one when it
   * is back to no more than it needs; for the keys older than `maxAgeMs`, an info line when
   * which keys they are changes (and one when none is left). Nothing when nothing changed.
   */
  lines(keys: readonly ApiKey[], input: NoticeInput): ApiKeyNotice[] {
    return [...this.#ownKey(keys, input.ownKeyId), ...this.#oldKeys(keys, input)];
  }

  #ownKey(keys: readonly ApiKey[], ownKeyId: string | undefined): ApiKeyNotice[] {
    const current = ownKeyId === undefined ? undefined : ownKeyOf(ownKeyId);
    // A key_id no longer configured (or replaced) is forgotten: its news ended with it.
    this.#logged.retain((k) => !k.startsWith(`own${SEPARATOR}`) || k === current);
    if (ownKeyId === undefined || current === undefined) return [];
    const fields = { api_key_id: ownKeyId };
    const own = keys.find((k) => k.apiKeyId === ownKeyId);
    if (own === undefined) {
      if (!this.#logged.changed(current, "not listed")) return [];
      return [
        {
          level: "info",
          fields,
          msg: "api.key_id is not in List API Keys, which lists customized ACL keys only: what the exporter's own key holds is not checked (no vdbcloud_api_key_excess_privilege)",
        },
      ];
    }
    const { excess, undocumented } = privilegeOf(own);
    const state = excess.length === 0 ? QUIET : excess.join(SEPARATOR);
    if (!this.#logged.changed(current, state)) return [];
    const noted = undocumented.length === 0 ? {} : { undocumented_roles: undocumented };
    if (state === QUIET) {
      return [
        {
          level: "info",
          fields: { ...fields, ...noted },
          msg: "the exporter's own API key holds no more than monitoring needs (no Owner role, no project role above Read-Only)",
        },
      ];
    }
    return [
      {
        level: "warn",
        fields: { ...fields, excess, ...noted },
        msg: "the exporter's own API key holds more than monitoring needs: give it the Member organization role and Read-Only project roles (vdbcloud_api_key_excess_privilege is 1)",
      },
    ];
  }

  #oldKeys(keys: readonly ApiKey[], input: NoticeInput): ApiKeyNotice[] {
    const before = input.nowMs - input.maxAgeMs;
    const old = keys.filter((k) => k.createdAtMs !== null && k.createdAtMs < before).map((k) => k.apiKeyId);
    if (!this.#logged.changed(OLD_KEYS, [...old].sort().join(SEPARATOR))) return [];
    const fields = { max_age: formatDuration(input.maxAgeMs), keys: old.length };
    if (old.length === 0) {
      return [{ level: "info", fields, msg: "no API key is older than api_keys.max_age any more" }];
    }
    return [
      {
        level: "info",
        fields: { ...fields, api_key_ids: old.slice(0, MAX_IDS_LOGGED) },
        msg: "API keys older than api_keys.max_age: rotate them (vdbcloud_api_key_created_timestamp_seconds says which)",
      },
    ];
  }

  /** Subjects remembered (for tests and bounds): at most the own key and the old keys. */
  get size(): number {
    return this.#logged.size;
  }
}

/** The API keys collector's memory of what it logged, kept across polls and reloads. */
export const API_KEY_NOTICES = stateSlot("API key notices", () => new ApiKeyNotices());
