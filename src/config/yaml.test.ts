import { describe, expect, it } from "vitest";
import { ConfigError } from "./errors.js";
import { parseYaml } from "./yaml.js";

function syntaxError(text: string): ConfigError {
  try {
    parseYaml(text, "f.yaml");
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).code).toBe("config_syntax");
    return err as ConfigError;
  }
  throw new Error("expected a syntax error");
}

describe("parseYaml", () => {
  it("uses the YAML 1.2 core schema: yes/on stay strings, durations are strings", () => {
    expect(parseYaml("a: yes\nb: on\nc: PT30S\nd: 20\ne: null\n", "f.yaml")).toEqual({
      a: "yes",
      b: "on",
      c: "PT30S",
      d: 20,
      e: null,
    });
  });

  it("returns null for an empty document", () => {
    expect(parseYaml("", "f.yaml")).toBeNull();
  });

  it.each([
    ["a: 1\na: 2\n", "f.yaml:2:1: Map keys must be unique"],
    ["a: [1,\nb: 2\n", "f.yaml:2:1: "],
    ["a: 1\n---\nb: 2\n", "f.yaml:2:1: the file must hold a single YAML document"],
    ["a: *missing\n", "f.yaml: "],
  ])("reports %j at its position", (text, expected) => {
    const err = syntaxError(text);
    expect(err.message).toContain(expected);
    expect(err.message.split("\n")).toHaveLength(err.problems.length);
  });

  it("refuses alias bombs", () => {
    const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 0; i < 6; i++) {
      const prev = String.fromCharCode(97 + i);
      const next = String.fromCharCode(98 + i);
      lines.push(
        `${next}: &${next} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`,
      );
    }
    expect(syntaxError(lines.join("\n")).message).toContain("f.yaml: Excessive alias count");
  });
});
