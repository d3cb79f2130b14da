/**
 * `${VAR}` / `${VAR:-default}` substitution in the string values of an already-parsed YAML
 * document. Working on parsed values (not on the text) means a variable can only ever become
 * (part of) one string: it cannot inject YAML structure, keys or other fields.
 */
import { type ConfigProblem, formatPath } from "./errors.js";

/** The substituted document and every problem found (an empty list means success). */
interface InterpolationResult {
  readonly value: unknown;
  readonly problems: ConfigProblem[];
}

type Env = Readonly<Record<string, string | undefined>>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Fields whose value is a credential (`api_key`, `token`, `password`, `client_secret`, ...), by
 * their last key; `api_key_file`, `token_file` and `key_id` are not. A key pasted inside `${}`
 * by mistake is a valid variable name, so in these fields even the name is never repeated.
 */
const SECRET_FIELD = /(?:^|_)(?:key|token|password|passwd|secret|credentials?)$/i;

/** Whether the field at `path` holds a credential (see SECRET_FIELD). */
export function isSecretPath(path: readonly PropertyKey[]): boolean {
  for (let i = path.length - 1; i >= 0; i--) {
    const key = path[i];
    if (typeof key === "string") return SECRET_FIELD.test(key);
  }
  return false;
}

/** How interpolateString may word its problems. */
interface InterpolateOptions {
  /** The field holds a credential: problems name no variable either. */
  readonly secret?: boolean;
}

/**
 * Substitutes variables in one string. Rules: `$$` is a literal `$`; `${NAME}` is the value of
 * NAME (an unset variable is an error; a set but empty one gives ""); `${NAME:-default}` gives
 * the default when NAME is unset or empty, as in POSIX shells; a `$` followed by anything else
 * is kept as is. Defaults are literal text (not substituted again).
 * Problems are messages without a path. They never contain a variable's value, nor the text of
 * a reference that is not a valid name (a key pasted as `${...}` would be echoed otherwise);
 * with `secret`, not even a valid name.
 */
export function interpolateString(
  text: string,
  env: Env,
  opts: InterpolateOptions = {},
): { value: string; problems: string[] } {
  const problems: string[] = [];
  let out = "";
  let i = 0;
  while (i < text.length) {
    const dollar = text.indexOf("$", i);
    if (dollar < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, dollar);
    const next = text[dollar + 1];
    if (next === "$") {
      out += "$";
      i = dollar + 2;
      continue;
    }
    if (next !== "{") {
      out += "$";
      i = dollar + 1;
      continue;
    }
    const close = text.indexOf("}", dollar + 2);
    if (close < 0) {
      problems.push(`unterminated "\${" at character ${dollar + 1} (write "$$" for a literal dollar)`);
      out += text.slice(dollar);
      break;
    }
    const inner = text.slice(dollar + 2, close);
    const sep = inner.indexOf(":-");
    const name = sep < 0 ? inner : inner.slice(0, sep);
    if (!NAME.test(name)) {
      problems.push(
        `the "\${" at character ${dollar + 1} is not a valid variable reference (names are letters, digits and _; the text is not repeated here)`,
      );
    } else {
      const value = env[name];
      if (sep >= 0) {
        out += value === undefined || value === "" ? inner.slice(sep + 2) : value;
      } else if (value === undefined) {
        problems.push(
          opts.secret
            ? `the environment variable referred to at character ${dollar + 1} is not set (a secret field: its name is not repeated here)`
            : `environment variable ${name} is not set (write \${${name}:-default} to give a default)`,
        );
      } else {
        out += value;
      }
    }
    i = close + 1;
  }
  return { value: out, problems };
}

/**
 * Walks a parsed document and substitutes variables in every string value (keys are left
 * alone). Returns a new document; the input is not modified. Each problem carries the path of
 * the field it was found in, e.g. `api.api_key: environment variable KEY is not set`.
 */
export function interpolate(value: unknown, env: Env): InterpolationResult {
  const problems: ConfigProblem[] = [];
  const walk = (node: unknown, path: PropertyKey[]): unknown => {
    if (typeof node === "string") {
      const result = interpolateString(node, env, { secret: isSecretPath(path) });
      for (const message of result.problems) problems.push({ path: formatPath(path), message });
      return result.value;
    }
    if (Array.isArray(node)) return node.map((item, index) => walk(item, [...path, index]));
    if (node !== null && typeof node === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(node)) {
        // defineProperty, not assignment: a "__proto__" key must stay data, not a prototype.
        Object.defineProperty(out, key, {
          value: walk(item, [...path, key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return node;
  };
  const result = walk(value, []);
  return { value: result, problems };
}
