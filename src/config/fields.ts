/**
 * Leaf schemas of the config file: one builder per kind of value, each with a message that
 * says what is expected. Numbers and booleans also accept their string spelling ("20",
 * "true") because `${VAR}` substitution always yields strings.
 */
import * as z from "zod";
import { formatDuration, parseDuration } from "../shared/duration.js";
import { ListenAddressError, parseListen } from "./listen.js";

type Issue = { readonly input?: unknown };

/** Message for a missing value vs. a value of the wrong kind. */
function expecting(what: string): (issue: Issue) => string {
  return (issue) => (issue.input === undefined ? "is required" : what);
}

const INTEGER_TEXT = /^\s*-?\d+\s*$/;

/** An integer in [min, max]. */
export function intField(min: number, max: number) {
  const message = `must be an integer from ${min} to ${max}`;
  return z.preprocess(
    (v) => (typeof v === "string" && INTEGER_TEXT.test(v) ? Number(v) : v),
    z
      .number({ error: expecting(message) })
      .int({ error: message })
      .min(min, { error: message })
      .max(max, { error: message }),
  );
}

/**
 * A number above `gt` (and below `lt` when given), both excluded; `message` says what the file
 * must give, in the words of the setting (an objective, a burn rate).
 */
export function numberField(bounds: { readonly gt: number; readonly lt?: number }, message: string) {
  const above = z.number({ error: expecting(message) }).gt(bounds.gt, { error: message });
  return z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v),
    bounds.lt === undefined ? above : above.lt(bounds.lt, { error: message }),
  );
}

/** true or false. */
export function boolField() {
  return z.preprocess(
    (v) => (v === "true" ? true : v === "false" ? false : v),
    z.boolean({ error: expecting("must be true or false") }),
  );
}

/** A non-empty string, optionally restricted to a pattern described in words. */
export function textField(pattern?: { readonly regex: RegExp; readonly description: string }) {
  const base = z.string({ error: expecting("must be a string") }).min(1, { error: "must not be empty" });
  return pattern ? base.regex(pattern.regex, { error: `must be ${pattern.description}` }) : base;
}

/** A regular expression (JavaScript syntax), checked to compile. */
export function regexField() {
  return textField().superRefine((source, ctx) => {
    try {
      new RegExp(source);
    } catch (err) {
      ctx.addIssue({
        code: "custom",
        message: `is not a valid regular expression (${(err as Error).message})`,
        input: source,
      });
    }
  });
}

/** Bounds of a duration field, in milliseconds. */
interface DurationBounds {
  readonly min: number;
  readonly max?: number;
}

/**
 * What marks a duration field, for the type system and at run time: its setting's camelCase name
 * ends in `Ms` (camelSettings.ts).
 */
export const DURATION: unique symbol = Symbol("duration");

/**
 * An ISO 8601 duration text, output in milliseconds. Bounds are inclusive; the messages
 * quote them as durations ("must be at least PT30S").
 */
export function durationField(bounds: DurationBounds) {
  const schema = durationText(bounds);
  // On the definition, which zod copies into the schema a `.refine()` or `.describe()` makes;
  // the schema object itself is not carried over.
  Object.assign(schema.def, { [DURATION]: true });
  return schema as typeof schema & { readonly [DURATION]: true };
}

function durationText(bounds: DurationBounds) {
  return z
    .string({ error: expecting("must be an ISO 8601 duration such as PT30S (a string)") })
    .transform((text, ctx) => {
      let ms: number;
      try {
        ms = parseDuration(text);
      } catch (err) {
        ctx.issues.push({ code: "custom", message: (err as Error).message, input: text });
        return z.NEVER;
      }
      if (ms < bounds.min) {
        ctx.issues.push({
          code: "custom",
          message: `must be at least ${formatDuration(bounds.min)} (got ${text})`,
          input: text,
        });
        return z.NEVER;
      }
      if (bounds.max !== undefined && ms > bounds.max) {
        ctx.issues.push({
          code: "custom",
          message: `must be at most ${formatDuration(bounds.max)} (got ${text})`,
          input: text,
        });
        return z.NEVER;
      }
      return ms;
    });
}

/** An absolute http(s) URL; the output has no trailing slash so paths can be appended. */
export function httpUrlField() {
  return z.string({ error: expecting("must be an http(s) URL (a string)") }).transform((text, ctx) => {
    if (!isHttpUrl(text)) {
      ctx.issues.push({
        code: "custom",
        message: "must be an http(s) URL such as https://api.example.com",
        input: text,
      });
      return z.NEVER;
    }
    return text.replace(/\/+$/, "");
  });
}

/** Like httpUrlField, but a template that must contain `{region}` (the cluster's region). */
export function regionUrlTemplateField() {
  return z
    .string({ error: expecting("must be an http(s) URL template (a string)") })
    .transform((text, ctx) => {
      if (!text.includes("{region}")) {
        ctx.issues.push({
          code: "custom",
          message: "must contain {region}, which is replaced by each cluster's region",
          input: text,
        });
        return z.NEVER;
      }
      if (!isHttpUrl(text.replaceAll("{region}", "region"))) {
        ctx.issues.push({
          code: "custom",
          message: "must be an http(s) URL template such as https://controller.api.{region}.example.com",
          input: text,
        });
        return z.NEVER;
      }
      return text.replace(/\/+$/, "");
    });
}

function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}

/** `HOST:PORT`, output as `{ host, port }`. */
export function listenField() {
  return z.string({ error: expecting("must be HOST:PORT (a string)") }).transform((text, ctx) => {
    try {
      return parseListen(text);
    } catch (err) {
      if (!(err instanceof ListenAddressError)) throw err;
      ctx.issues.push({ code: "custom", message: err.message, input: text });
      return z.NEVER;
    }
  });
}
