/**
 * Zod building blocks for fields a reader can do without. The tolerant reader of wire.ts
 * accepts the documented type and its known variants and rejects anything else; these go one
 * step further for fields whose loss must not cost the rest of the answer: a value of any other
 * JSON type reads as null, so one odd field never rejects a whole job.
 */
import { z } from "zod";
import { FIRST_ISSUE, stringish, timestampMs } from "./wire.js";

/**
 * `schema`, or null when the field is absent, null, or anything `schema` does not accept.
 * Use it only where null is a meaningful reading ("not known"), never for identity fields.
 */
export function lenient<Out>(schema: z.ZodType<Out>): z.ZodType<Out | null> {
  return z
    .unknown()
    .transform((value): Out | null => {
      if (value === undefined || value === null) return null;
      const parsed = schema.safeParse(value, FIRST_ISSUE);
      return parsed.success ? parsed.data : null;
    })
    .optional()
    .transform((value) => value ?? null);
}

/** A boolean, or the strings "true"/"false" in any case: yields a boolean. */
export const boolish = z.union([
  z.boolean(),
  z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.enum(["true", "false"]))
    .transform((s) => s === "true"),
]);

/** A string, or a number sent where a string is documented; anything else reads as null. */
export const lenientText = lenient(stringish);

/**
 * `lenientText` for a field the normalized type keeps as text: a value not known reads as ""
 * (a label value, never null).
 */
export const lenientTextOrEmpty = lenientText.transform((text) => text ?? "");

/**
 * `lenientText` for free text worth showing only when it says something (a job's failure
 * reason): trimmed, and a blank one reads as null, as an absent one does.
 */
export const lenientNote = lenientText.transform((text) => {
  const trimmed = text?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
});

/**
 * The ID an answer about one object gives, or `asked` (the ID the request named) when the
 * answer leaves it out or empty: such an answer is about the object asked for.
 */
export function idOrAsked(answered: string | null | undefined, asked: string): string {
  return answered == null || answered === "" ? asked : answered;
}

/**
 * A timestamp (ISO 8601 string or epoch number), or null: an empty string, an unparsable
 * string, or another JSON type read as "not known", as a null timestamp does.
 */
export const lenientTimestampMs = lenient(timestampMs);
