import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { DurationError, parseDuration } from "./duration.js";
import { ExporterError } from "./errors.js";

const SRC = resolve(import.meta.dirname, "..");

/** Folders beside this layer, which import nothing of the exporter: they keep their own errors. */
const OWN_ERRORS = ["runtime/", "simulator/"];

describe("ExporterError", () => {
  it("is the root of every error class of src/ (the runtime settings and the simulator aside)", () => {
    const outside: string[] = [];
    const files = readdirSync(SRC, { recursive: true, encoding: "utf8" })
      .map((f) => f.split("\\").join("/"))
      .filter(
        (f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !OWN_ERRORS.some((d) => f.startsWith(d)),
      );
    for (const file of files) {
      const text = readFileSync(join(SRC, file), "utf8");
      for (const m of text.matchAll(/\bclass\s+(\w+)\s+extends\s+(\w*Error)\b/g))
        if (m[2] === "Error" && m[1] !== "ExporterError") outside.push(`${file}: ${m[1]}`);
    }
    expect(files.length).toBeGreaterThan(100);
    expect(outside).toEqual([]);
  });

  it("keeps a subclass an Error, with its stable code, its message and its cause", () => {
    const cause = new RangeError("years");
    const err = new DurationError("has years", { cause });
    expect(err).toBeInstanceOf(Error);
    expect(err).toBeInstanceOf(ExporterError);
    expect(err).toMatchObject({
      code: "duration_invalid",
      message: "has years",
      name: "DurationError",
      cause,
    });
    let thrown: unknown;
    try {
      parseDuration("P1Y");
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ExporterError);
    expect((thrown as ExporterError).code).toBe("duration_invalid");
  });
});
