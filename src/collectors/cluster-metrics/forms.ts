/**
 * Which request form each API key's server accepts, learned once per key rather than per cycle.
 * The current form (name only) is asked first. When a whole batch in one form is refused and
 * the same questions in the other form are answered, every target of that key sends the other
 * form from then on, so a cycle makes no refused call. A key that fell back to the 2024 form is
 * asked the current form again at most once an hour (one target's batch: one refused call at
 * most), since a server that moves to the current reference should be followed.
 *
 * Until a key's form is confirmed (a batch in it answered, or a switch), its targets take turns:
 * the first cycle starts every target at once, and without turns each of them would pay the
 * refusal the first one already found.
 */
import type { Logger as PinoLogger } from "pino";
import { stateSlot } from "../../polling/model.js";
import { Hold } from "../../shared/hold.js";
import type { QueryForm } from "../../upstream/catalog.js";
import type { MetricQuery } from "../../upstream/types.js";
import type { Resolved } from "./refusedQueries.js";

/** `metrics.form`: `auto` learns each key's form; `current` and `2024` pin it. */
export type FormSetting = "auto" | QueryForm;

/** What one run learned of the form it sent. */
export type FormVerdict =
  /** A batch in the form was answered. */
  | "accepted"
  /** A whole batch in the form was refused and answered in the other form. */
  | "moved"
  /** Nothing conclusive: nothing sent in that form, or refusals of single names only. */
  | "none";

/**
 * What one resolved batch, sent in one form, says of that form: some query answered in it
 * ("accepted"), or none but some in the other form ("moved").
 */
export function verdictOf(sent: readonly MetricQuery[], outcome: Resolved): FormVerdict {
  const notInForm = outcome.switched.size + outcome.refused.length + (outcome.unasked?.length ?? 0);
  if (sent.length > notInForm) return "accepted";
  return outcome.switched.size > 0 ? "moved" : "none";
}

/** How long a key stays in the fallback form before the current form is asked again. */
export const FORM_RETRY_MS = 60 * 60 * 1000;

type Logger = Pick<PinoLogger, "info" | "warn">;

/** What is known of one key. */
interface KeyForm {
  form: QueryForm;
  confirmed: boolean;
  /** The current form's retry: held while the key speaks the 2024 form, asked again when due. */
  readonly retry: Hold;
  /** A run is asking the current form again right now. */
  retrying: boolean;
  /** A run holds the turn (only while the form is not confirmed). */
  busy: boolean;
  /** Runs waiting for the turn, or for the form to be confirmed. */
  readonly waiters: (() => void)[];
}

const other = (form: QueryForm): QueryForm => (form === "current" ? "2024" : "current");

/**
 * Every key's form, by credential label (never the key). One per process (the
 * `METRIC_QUERY_FORMS` state slot): it survives cycles and reloads.
 */
export class QueryForms {
  private readonly keys = new Map<string, KeyForm>();

  /**
   * Runs one target's cycle in the form its key speaks: `run` sends its batches in `form` and
   * says what it learned. A pinned setting is used as is and learns nothing.
   */
  async withForm<T>(
    credential: string,
    setting: FormSetting,
    nowMs: number,
    logger: Logger | undefined,
    run: (form: QueryForm) => Promise<{ readonly value: T; readonly verdict: FormVerdict }>,
  ): Promise<T> {
    if (setting !== "auto") return (await run(setting)).value;
    const key = this.key(credential);
    if (!key.retrying && key.retry.due(nowMs)) {
      key.retrying = true;
      try {
        const { value, verdict } = await run("current");
        if (verdict === "accepted") this.settle(credential, key, "current", nowMs, logger, "again");
        else key.retry.hold(nowMs, FORM_RETRY_MS);
        return value;
      } finally {
        key.retrying = false;
      }
    }
    const holding = await this.turn(key);
    try {
      const form = key.form;
      return this.learn(credential, key, nowMs, logger, await run(form), form);
    } finally {
      if (holding) this.release(key);
    }
  }

  /** Waits until the form is confirmed or no other run asks; true when this run holds the turn. */
  private async turn(key: KeyForm): Promise<boolean> {
    for (;;) {
      if (key.confirmed) return false;
      if (!key.busy) {
        key.busy = true;
        return true;
      }
      await new Promise<void>((resolve) => key.waiters.push(resolve));
    }
  }

  /** Hands the turn on: to every waiter once the form is confirmed, else to the next one. */
  private release(key: KeyForm): void {
    key.busy = false;
    const woken = key.confirmed ? key.waiters.splice(0) : key.waiters.splice(0, 1);
    for (const wake of woken) wake();
  }

  /** The form each key is known to speak, for `vdbcloud_metrics_query_form`. */
  known(): ReadonlyMap<string, QueryForm> {
    return new Map([...this.keys].map(([credential, k]) => [credential, k.form]));
  }

  /** The form `credential` speaks now (the current form while nothing is known). */
  formOf(credential: string): QueryForm {
    return this.keys.get(credential)?.form ?? "current";
  }

  private key(credential: string): KeyForm {
    let key = this.keys.get(credential);
    if (key === undefined) {
      key = {
        form: "current",
        confirmed: false,
        retry: new Hold(),
        retrying: false,
        busy: false,
        waiters: [],
      };
      this.keys.set(credential, key);
    }
    return key;
  }

  private learn<T>(
    credential: string,
    key: KeyForm,
    nowMs: number,
    logger: Logger | undefined,
    outcome: { readonly value: T; readonly verdict: FormVerdict },
    sent: QueryForm = key.form,
  ): T {
    // A verdict about a form the key no longer speaks (a concurrent run switched it) is stale.
    if (sent !== key.form) return outcome.value;
    if (outcome.verdict === "accepted") key.confirmed = true;
    if (outcome.verdict === "moved") this.settle(credential, key, other(sent), nowMs, logger, "refused");
    return outcome.value;
  }

  private settle(
    credential: string,
    key: KeyForm,
    form: QueryForm,
    nowMs: number,
    logger: Logger | undefined,
    why: "refused" | "again",
  ): void {
    const changed = key.form !== form;
    key.form = form;
    key.confirmed = true;
    if (form === "2024") key.retry.hold(nowMs, FORM_RETRY_MS);
    else key.retry.release();
    if (!changed) return;
    const line = {
      credential,
      form,
      event: "metrics_query_form",
    };
    if (why === "refused") {
      logger?.warn(
        line,
        `the service refused the ${other(form)} metric query form for this key and accepted the ${form} form: every query of this key is sent in the ${form} form now${form === "2024" ? " (the current form is asked again hourly)" : ""}`,
      );
    } else {
      logger?.info(line, `the service accepts the current metric query form for this key again`);
    }
  }
}

/** The forms' state slot: one per process, kept across reloads. */
export const METRIC_QUERY_FORMS = stateSlot("metric query forms", () => new QueryForms());
