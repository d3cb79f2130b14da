/**
 * YAML text to plain data, with syntax errors as `FILE:LINE:COL: message` problems. A message
 * never quotes the file's text: the library's messages for some errors end with a piece of the
 * source (an alias name, a tag, an escape), which may be a key written in the wrong place.
 */
import { LineCounter, parseDocument } from "yaml";
import { ExporterError } from "../shared/errors.js";
import { ConfigError, type ConfigProblem } from "./errors.js";

/** The library's codes whose messages quote source text, worded here without it. */
const OWN_WORDING: Readonly<Record<string, string>> = {
  MULTIPLE_DOCS: "the file must hold a single YAML document",
  TAG_RESOLVE_FAILED: "unknown tag (the exporter reads plain YAML: no tags)",
  BAD_COLLECTION_TYPE: "a tag does not fit the collection it is on",
  BAD_DQ_ESCAPE:
    "invalid escape sequence in a double-quoted string (use single quotes for literal backslashes)",
  BAD_SCALAR_START: "a plain value cannot start with this character: quote the value",
  BAD_PROP_ORDER: "anchors and tags must come after the indicator",
  UNEXPECTED_TOKEN: "unexpected text here (check indentation, quotes and brackets)",
};

/** Codes whose library messages name only the YAML construct, never source text. */
const QUOTES_NOTHING = new Set([
  "MISSING_CHAR",
  "DUPLICATE_KEY",
  "BAD_INDENT",
  "MULTILINE_IMPLICIT_KEY",
  "BLOCK_AS_IMPLICIT_KEY",
  "TAB_AS_INDENT",
  "KEY_OVER_1024_CHARS",
  "BLOCK_IN_FLOW",
  "MULTIPLE_ANCHORS",
  "MULTIPLE_TAGS",
  "ALIAS_PROPS",
  "NON_STRING_KEY",
]);

/**
 * A library message without any source text: the code's own wording, the message as it is for a
 * code that quotes nothing, else the message cut before the first colon (where the library
 * appends what it quotes).
 */
function safeMessage(code: string, message: string): string {
  const own = OWN_WORDING[code];
  if (own !== undefined) return own;
  if (QUOTES_NOTHING.has(code)) return message;
  const colon = message.indexOf(":");
  return colon < 0 ? message : message.slice(0, colon);
}

/** What a YAML problem keeps as its cause: where and which, never the library's quoting message. */
class YamlProblem extends ExporterError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "YamlProblem";
  }
}

/**
 * Parses one YAML document (YAML 1.2 core schema: `yes`/`on` stay strings, keys must be
 * unique, a single document only). `source` names the file in problems.
 * @throws ConfigError with code `config_syntax`, listing every syntax error.
 */
export function parseYaml(text: string, source: string): unknown {
  const lineCounter = new LineCounter();
  // prettyErrors would append a source excerpt to each message; positions come from the
  // line counter instead, so problems stay one line each.
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter });
  if (doc.errors.length > 0) {
    const problems: ConfigProblem[] = doc.errors.map((err) => {
      const { line, col } = lineCounter.linePos(err.pos[0]);
      return { path: `${source}:${line}:${col}`, message: safeMessage(err.code, err.message) };
    });
    const first = problems[0];
    throw new ConfigError("config_syntax", problems, {
      cause: new YamlProblem(doc.errors[0]?.code ?? "", first?.message ?? ""),
    });
  }
  try {
    return doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    // Alias problems (undefined anchors, alias bombs) surface only when building values, and
    // the library's message quotes the alias: the name may be anything, a key included.
    const text = (err as Error).message ?? "";
    const message = text.startsWith("Unresolved alias")
      ? "an alias (*name) refers to no anchor set before it (the name is not repeated here)"
      : safeMessage("", text);
    throw new ConfigError("config_syntax", [{ path: source, message }], {
      cause: new YamlProblem("BAD_ALIAS", message),
    });
  }
}
