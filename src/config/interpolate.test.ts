// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in plain strings is the config syntax under test.
import { describe, expect, it } from "vitest";
import { interpolate, interpolateString, isSecretPath } from "./interpolate.js";

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
    const result = interpolate({ clusters: [{ id: "a" }, { region: "${TEAM_REGION}" }] }, env);
    expect(result.problems).toEqual([
      {
        path: "clusters[1].region",
        message:
          "environment variable TEAM_REGION is not set (write ${TEAM_REGION:-default} to give a default)",
      },
    ]);
  });

  it("in a secret field names the field only: a key pasted inside ${} is a valid name", () => {
    const key = "sk_live_0123456789abcdef";
    const doc = {
      api: { api_key: `\${${key}}` },
      billing: { api_key: "${X}" },
      clusters: [{ token: "${T}" }],
    };
    const result = interpolate(doc, env);
    expect(result.problems.map((p) => p.path)).toEqual([
      "api.api_key",
      "billing.api_key",
      "clusters[0].token",
    ]);
    expect(result.problems[0]?.message).toBe(
      "the environment variable referred to at character 1 is not set (a secret field: its name is not repeated here)",
    );
    expect(JSON.stringify(result.problems)).not.toContain(key);
  });

  it.each([["api.api_key"], ["api.base_url"]])("never repeats an invalid reference (%s)", (field) => {
    const [section, name] = field.split(".") as [string, string];
    const result = interpolate({ [section]: { [name]: "x${abc-secret-123}" } }, env);
    expect(result.problems).toEqual([
      {
        path: field,
        message:
          'the "${" at character 2 is not a valid variable reference (names are letters, digits and _; the text is not repeated here)',
      },
    ]);
    expect(JSON.stringify(result.problems)).not.toContain("abc-secret-123");
  });

  it.each([
    [["api", "api_key"], true],
    [["billing", "api_key"], true],
    [["clusters", 0, "data_plane", "token"], true],
    [["x", "password"], true],
    [["x", "client_secret"], true],
    [["api", "api_key_file"], false],
    [["api", "key_id"], false],
    [["clusters", 0, "data_plane", "token_file"], false],
    [["clusters", 0, "id"], false],
  ])("isSecretPath(%j) is %s", (path, want) => {
    expect(isSecretPath(path)).toBe(want);
  });

  it("keeps a __proto__ key as data", () => {
    const doc = JSON.parse('{"__proto__": {"polluted": "${HOST}"}}') as unknown;
    const result = interpolate(doc, env);
    expect(Object.keys(result.value as object)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
