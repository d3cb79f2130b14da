/**
 * What the sections of the config file's schema share: time units, how a path in the file is
 * resolved, the region ID rule, and the two ways to give an API key (api and each cluster).
 */
import * as z from "zod";
import { textField } from "../fields.js";
import { always, type Ctx, isRecord, list, optional } from "../schemaKit.js";

/** Durations are parsed to milliseconds: the sections' bounds and defaults use these units. */
export { DAY, HOUR, MINUTE, SECOND } from "../../shared/duration.js";

/** Turns a path written in the file into an absolute one (relative to the file's directory). */
export type ResolvePath = (path: string) => string;

/** A path written in the file, absolute once parsed (resolved against the file's directory). */
export function pathField(resolvePath: ResolvePath) {
  return textField().transform((path) => resolvePath(path));
}

/** A credential is given inline or by file, never both. */
export function rejectBothKeys(value: unknown, ctx: Ctx): void {
  if (isRecord(value) && value.api_key !== undefined && value.api_key_file !== undefined) {
    ctx.addIssue({
      code: "custom",
      message: "set either api_key or api_key_file, not both",
      path: ["api_key_file"],
      input: undefined,
    });
  }
}

/** The two ways to give an API key, in `api` and in each cluster. */
export const apiKeyFields = {
  api_key: textField().optional(),
  api_key_file: textField().optional(),
};

/** Where a credential comes from; secrets.ts reads it after validation. */
export function keySource(
  fields: { api_key?: string | undefined; api_key_file?: string | undefined },
  resolvePath: ResolvePath,
) {
  return {
    /** The key written inline (possibly from a `${VAR}`). */
    ...optional("value", fields.api_key),
    /** Absolute path of the file holding the key. */
    ...optional("file", fields.api_key_file === undefined ? undefined : resolvePath(fields.api_key_file)),
  };
}

export const REGION = {
  regex: /^[a-z0-9-]+$/,
  description: "a region ID of lower-case letters, digits and - (aws-us-west-2)",
};

/**
 * A list of IDs (`groups.ids`, `jobs.ids`, the job IDs file, `native_export.clusters`), each
 * non-empty (and of `pattern`, when given) and listed once; a repeat names the first occurrence
 * as `where[i]`.
 */
export function idList(where: string, pattern?: Parameters<typeof textField>[0]) {
  return list(textField(pattern)).check(
    z.superRefine((ids: unknown, ctx) => {
      if (!Array.isArray(ids)) return;
      const first = new Map<string, number>();
      ids.forEach((id, index) => {
        if (typeof id !== "string") return;
        const at = first.get(id);
        if (at === undefined) first.set(id, index);
        else
          ctx.addIssue({ code: "custom", message: `duplicate of ${where}[${at}]`, path: [index], input: id });
      });
    }, always),
  );
}
