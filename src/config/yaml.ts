/**
 * YAML text to plain data, with syntax errors as `FILE:LINE:COL: message` problems.
 */
import { LineCounter, parseDocument } from "yaml";
import { ConfigError, type ConfigProblem } from "./errors.js";

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
      // The library's wording for this one addresses its own API users.
      const message =
        err.code === "MULTIPLE_DOCS" ? "the file must hold a single YAML document" : err.message;
      return { path: `${source}:${line}:${col}`, message };
    });
    throw new ConfigError("config_syntax", problems, { cause: doc.errors[0] });
  }
  try {
    return doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    // Alias problems (undefined anchors, alias bombs) surface only when building values.
    throw new ConfigError("config_syntax", [{ path: source, message: (err as Error).message }], {
      cause: err,
    });
  }
}
