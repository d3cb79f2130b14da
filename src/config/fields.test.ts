import { describe, expect, it } from "vitest";
import type * as z from "zod";
import {
  boolField,
  durationField,
  httpUrlField,
  intField,
  listenField,
  regionUrlTemplateField,
  textField,
} from "./fields.js";

function messageOf(schema: z.ZodType, input: unknown): string | undefined {
  const result = schema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe("leaf fields", () => {
  it.each<[name: string, schema: z.ZodType, input: unknown, output: unknown]>([
    ["integer", intField(1, 10), 5, 5],
    ["integer from a substituted string", intField(1, 10), " 7 ", 7],
    ["boolean", boolField(), false, false],
    ["boolean from a string", boolField(), "true", true],
    ["text", textField(), "x", "x"],
    ["duration", durationField({ min: 1000 }), "PT1M", 60_000],
    ["URL without trailing slash", httpUrlField(), "https://api.example.com/", "https://api.example.com"],
    ["URL with a path", httpUrlField(), "http://127.0.0.1:8080/base", "http://127.0.0.1:8080/base"],
    [
      "region URL template",
      regionUrlTemplateField(),
      "https://c.{region}.example.com/",
      "https://c.{region}.example.com",
    ],
    ["listen", listenField(), "127.0.0.1:0", { host: "127.0.0.1", port: 0 }],
  ])("accepts %s", (_name, schema, input, output) => {
    expect(schema.parse(input)).toEqual(output);
  });

  it.each<[name: string, schema: z.ZodType, input: unknown, message: string]>([
    ["missing integer", intField(1, 10), undefined, "is required"],
    ["integer out of range", intField(1, 10), 11, "must be an integer from 1 to 10"],
    ["fraction", intField(1, 10), 1.5, "must be an integer from 1 to 10"],
    ["decimal string", intField(1, 10), "1.5", "must be an integer from 1 to 10"],
    ["boolean spelt yes", boolField(), "yes", "must be true or false"],
    ["empty text", textField(), "", "must not be empty"],
    ["pattern", textField({ regex: /^a+$/, description: "only a's" }), "b", "must be only a's"],
    ["short duration", durationField({ min: 30_000 }), "PT10S", "must be at least PT30S (got PT10S)"],
    ["long duration", durationField({ min: 0, max: 60_000 }), "PT2M", "must be at most PT1M (got PT2M)"],
    [
      "duration as number",
      durationField({ min: 0 }),
      30,
      "must be an ISO 8601 duration such as PT30S (a string)",
    ],
    [
      "URL without host",
      httpUrlField(),
      "https://",
      "must be an http(s) URL such as https://api.example.com",
    ],
    ["template without {region}", regionUrlTemplateField(), "https://c.example.com", "must contain {region}"],
    ["template that is no URL", regionUrlTemplateField(), "c.{region}", "must be an http(s) URL template"],
    ["listen as number", listenField(), 9474, "must be HOST:PORT (a string)"],
  ])("rejects %s", (_name, schema, input, message) => {
    expect(messageOf(schema, input)).toContain(message);
  });
});
