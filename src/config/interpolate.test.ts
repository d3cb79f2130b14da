// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in plain strings is the config syntax under test.
import { describe, expect, it } from "vitest";
import { interpolate, interpolateString } from "./interpolate.js";

const env = { HOST: "example.com", EMPTY: "", KEY: "s3cr3t-value" };

describe("interpolateString", () => {
  it.each([
    ["plain", "plain"],
    ["https://${HOST}/v2", "https://example.com/v2"],
    ["${HOST}${HOST}", "example.comexample.com"],
    ["${MISSING:-fallback}", "fallback"],
    ["${EMPTY:-fallback}", "fallback"],
    ["${HOST:-fallback}", "example.com"],
    ["${MISSING:-}", ""],
    ["${EMPTY}", ""],
    ["$${HOST}", "${HOST}"],
    ["price $$5", "price $5"],
    ["a$b", "a$b"],
    ["end$", "end$"],
    ["${MISSING:-a:-b}", "a:-b"],
  ])("%j -> %j", (text, expected) => {
    expect(interpolateString(text, env)).toEqual({ value: expected, problems: [] });
  });

  it.each([
    ["${MISSING}", "environment variable MISSING is not set"],
    ["x${HOST", 'unterminated "${"'],
    ["${1BAD}", "not a valid variable reference"],
    ["${}", "not a valid variable reference"],
  ])("%j is a problem (%s)", (text, message) => {
    const result = interpolateString(text, env);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toContain(message);
  });

  it("reports every unset variable of a string", () => {
    expect(interpolateString("${A}-${B}", {}).problems).toEqual([
      expect.stringContaining("A is not set"),
      expect.stringContaining("B is not set"),
    ]);
  });
});

describe("interpolate", () => {
  it("substitutes string values at any depth and leaves keys and other scalars alone", () => {
    const doc = { "${HOST}": "${HOST}", list: ["${HOST}", 5, true, null], nested: { deep: "k=${KEY}" } };
    const result = interpolate(doc, env);
    expect(result.problems).toEqual([]);
    expect(result.value).toEqual({
      "${HOST}": "example.com",
      list: ["example.com", 5, true, null],
      nested: { deep: "k=s3cr3t-value" },
    });
    expect(doc.list[0]).toBe("${HOST}");
  });

  it("cannot inject structure: a value that looks like YAML stays one string", () => {
    const result = interpolate({ api: { base_url: "${V}" } }, { V: "x\nclusters: [{id: evil}]" });
    expect(result.value).toEqual({ api: { base_url: "x\nclusters: [{id: evil}]" } });
  });

  it("names the field and the variable, never a value", () => {
    const result = interpolate({ clusters: [{ id: "a" }, { api_key: "${TEAM_KEY}" }] }, env);
    expect(result.problems).toEqual([
      {
        path: "clusters[1].api_key",
        message: "environment variable TEAM_KEY is not set (write ${TEAM_KEY:-default} to give a default)",
      },
    ]);
  });

  it("keeps a __proto__ key as data", () => {
    const doc = JSON.parse('{"__proto__": {"polluted": "${HOST}"}}') as unknown;
    const result = interpolate(doc, env);
    expect(Object.keys(result.value as object)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
