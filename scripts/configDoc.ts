/**
 * The key reference of docs/configuration.md: every key the config file's JSON Schema (derived
 * from the exporter's own validation) accepts, with its type and range from the schema and its
 * default and meaning from config/example.yaml, which shows every key with a comment. The
 * section between the markers is rewritten by `npm run generate`; the prose around it is edited
 * by hand. Rendering fails on a key the schema accepts but the example does not explain, so a
 * key cannot be added undocumented.
 */

/** Where the reference is published, relative to the repository root. */
export const CONFIG_DOC_FILE = "docs/configuration.md";
export const EXAMPLE_FILE = "config/example.yaml";
export const BEGIN = "<!-- BEGIN generated: config keys (npm run generate; edit config/example.yaml) -->";
export const END = "<!-- END generated: config keys -->";

/** What config/example.yaml says about one key. */
export interface ExampleKey {
  /** Dotted path, lists as `[]`: `clusters[].scopes[].db_name`. */
  readonly path: string;
  /** The value as written ("" for a block), without its comment. */
  readonly value: string;
  /** Shown only as a comment (`# api_key: ...`): an optional key with no default. */
  readonly commented: boolean;
  /** Its comment: trailing, its continuation lines, or else the comment lines above it. */
  readonly comment: string;
}

const KEY_LINE = /^(\s*)(- )?([a-z_][a-z0-9_]*):(?:\s+(.*))?$/;
const FLOW_ITEM = /^(\s*)- (\{[^}]*\})(.*)$/;
const COMMENT_LINE = /^(\s*)#\s?(.*)$/;

/** Splits `value   # comment` (values of the example hold no " #"). */
function splitComment(rest: string): { value: string; comment: string; at: number } {
  const m = /(?:^|\s+)#\s?/.exec(rest);
  if (m === null) return { value: rest.trim(), comment: "", at: -1 };
  return {
    value: rest.slice(0, m.index).trim(),
    comment: rest.slice(m.index + m[0].length).trim(),
    at: m.index,
  };
}

/** Keys of a flow mapping or a flow sequence of mappings: `{ a: 1, b: 2 }`, `[{ a: 1 }]`. */
function flowKeys(flow: string): string[] {
  return [...flow.matchAll(/([a-z_][a-z0-9_]*):/g)].map((m) => m[1] as string);
}

/**
 * Every key config/example.yaml shows, in order, commented-out ones included. A line parser
 * rather than a YAML parser: it keeps which comment sits beside which key, and reads the keys
 * the example shows only in comments.
 */
export function exampleKeys(yaml: string): ExampleKey[] {
  const out = new Map<string, { value: string; commented: boolean; comment: string[]; before: string[] }>();
  const stack: Array<{ indent: number; name: string }> = [];
  let before: string[] = [];
  let last: { key: string; column: number } | undefined;

  const pathAt = (indent: number, item: boolean): string[] => {
    while (stack.length > 0 && (stack.at(-1)?.indent ?? -1) >= indent) stack.pop();
    if (item) stack.push({ indent, name: "[]" });
    return stack.map((s) => s.name);
  };
  const join = (parts: readonly string[]): string => parts.join(".").replace(/\.\[\]/g, "[]");
  const record = (path: string, value: string, commented: boolean, comment: string, column: number): void => {
    const known = out.get(path);
    if (known === undefined) {
      out.set(path, { value, commented, comment: comment === "" ? [] : [comment], before });
    } else if (known.comment.length === 0 && comment !== "") {
      known.comment.push(comment);
    }
    before = [];
    last = comment === "" ? undefined : { key: path, column };
  };

  for (const raw of yaml.split("\n")) {
    let line = raw;
    let commented = false;
    const c = COMMENT_LINE.exec(raw);
    if (c) {
      const uncommented = `${c[1]}${c[2]}`;
      if (KEY_LINE.test(uncommented) || FLOW_ITEM.test(uncommented)) {
        line = uncommented;
        commented = true;
      } else {
        const column = (c[1] as string).length;
        if (last !== undefined && column === last.column)
          out.get(last.key)?.comment.push((c[2] as string).trim());
        else {
          before.push((c[2] as string).trim());
          last = undefined;
        }
        continue;
      }
    }
    if (line.trim() === "") {
      before = [];
      last = undefined;
      continue;
    }
    const flow = FLOW_ITEM.exec(line);
    if (flow) {
      const parts = pathAt((flow[1] as string).length, true);
      // A flow item is an example entry: its comment speaks of that entry, not of its keys.
      for (const key of flowKeys(flow[2] as string)) record(join([...parts, key]), "", commented, "", -1);
      stack.pop();
      continue;
    }
    const m = KEY_LINE.exec(line);
    if (!m) continue;
    const item = m[2] !== undefined;
    const indent = (m[1] as string).length + (item ? 2 : 0);
    const parts = pathAt((m[1] as string).length, item);
    while (stack.length > 0 && (stack.at(-1)?.indent ?? -1) >= indent) stack.pop();
    const key = m[3] as string;
    const { value, comment } = splitComment(m[4] ?? "");
    const column = comment === "" ? -1 : raw.indexOf("#", raw.indexOf(key) + key.length);
    const path = join([...parts, key]);
    record(path, value, commented, comment, column);
    for (const inner of value.startsWith("[") || value.startsWith("{") ? flowKeys(value) : []) {
      record(join([...parts, key, ...(value.startsWith("[") ? ["[]"] : []), inner]), "", commented, "", -1);
    }
    stack.push({ indent, name: key });
  }
  return [...out.entries()].map(([path, k]) => ({
    path,
    value: k.value,
    commented: k.commented,
    comment: (k.comment.length > 0 ? k.comment : k.before).join(" "),
  }));
}

type Json = Record<string, unknown>;

/** One key the schema accepts. */
export interface SchemaKey {
  readonly path: string;
  /** Required within its list item (a top-level key never is: an empty file is valid). */
  readonly required: boolean;
  readonly default?: unknown;
}

/** The variants of a node, without YAML null and `${VAR}` references (both allowed everywhere). */
function variants(node: Json): Json[] {
  const list = Array.isArray(node.anyOf) ? (node.anyOf as Json[]).flatMap(variants) : [node];
  return list
    .map((v) => (Array.isArray(v.type) ? { ...v, type: (v.type as string[]).find((t) => t !== "null") } : v))
    .filter((v) => v.type !== "null" && v.$ref === undefined);
}

function typeOf(node: Json, example: string): string {
  const types = variants(node).map((v) => {
    if (Array.isArray(v.enum)) return `one of ${(v.enum as unknown[]).join(", ")}`;
    if (v.type === "array") return `list of ${typeOf((v.items ?? {}) as Json, "")}s`.replace(/ss$/, "s");
    if (v.type === "object") return "map";
    if (v.type === "integer" || v.type === "number") {
      const range = v.minimum !== undefined || v.maximum !== undefined;
      return range ? `${v.type} ${v.minimum ?? ""}..${v.maximum ?? ""}` : String(v.type);
    }
    if (v.type === "string" && /^-?P(\d|T\d)/.test(example)) return "duration (ISO 8601)";
    return String(v.type ?? "any");
  });
  return [...new Set(types)].join(" or ");
}

/** Every key of the JSON Schema, depth first in the schema's order. */
export function schemaKeys(schema: Json): SchemaKey[] {
  const out: SchemaKey[] = [];
  const walk = (node: Json, prefix: string, item: boolean): void => {
    for (const v of variants(node)) {
      if (v.type === "array" && v.items !== undefined) walk(v.items as Json, `${prefix}[]`, true);
      if (v.type !== "object" || v.properties === undefined) continue;
      const required = new Set((v.required as string[] | undefined) ?? []);
      for (const [key, child] of Object.entries(v.properties as Record<string, Json>)) {
        const path = prefix === "" ? key : `${prefix}.${key}`;
        const withDefault = variants(child).find((c) => c.default !== undefined);
        out.push({
          path,
          required: required.has(key) && item,
          ...(withDefault ? { default: withDefault.default } : {}),
        });
        walk(child, path, false);
      }
    }
  };
  walk(schema, "", false);
  return out;
}

/** A "(default: X)" or "(default: X; more)" note of a comment. */
const DEFAULT_NOTE = /\s*\(default:? ([^;)]*)(?:;\s*([^)]*))?\)/;

/** A comment without its default note ("(default: X; see Y)" leaves "(see Y)"). */
function withoutDefault(comment: string): string {
  return comment
    .replace(DEFAULT_NOTE, (_all, _value, rest: string | undefined) => (rest ? ` (${rest})` : ""))
    .replace(/\s+([;,.])/g, "$1")
    .trim();
}

/** The default column: the comment's "(default: ...)" note, else the example's value where it is one. */
function defaultOf(key: SchemaKey, example: ExampleKey): string {
  if (key.required) return "required";
  const noted = DEFAULT_NOTE.exec(example.comment);
  if (noted) return (noted[1] ?? "").trim();
  if (example.commented) return "none";
  if (key.default !== undefined) return `\`${JSON.stringify(key.default)}\``;
  if (key.path.includes("[]")) return "none";
  if (example.value === "" || example.value === "null") return example.value === "null" ? "none" : "";
  return `\`${example.value}\``;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

/**
 * The generated key reference: one table per top-level section. Throws on a key the schema
 * accepts but config/example.yaml does not show with a comment.
 */
export function renderConfigKeys(schema: Json, exampleYaml: string): string {
  const examples = new Map(exampleKeys(exampleYaml).map((k) => [k.path, k]));
  const keys = schemaKeys(schema).map((k) => ({
    ...k,
    type: typeOf(findNode(schema, k.path), examples.get(k.path)?.value ?? ""),
  }));
  // A key shown only in an example entry (a list item written inline), or not at all in one list,
  // means what the same key of a list of the same name means elsewhere:
  // clusters[].scopes[].queries[].stat as metrics.queries[].stat.
  const tail = (path: string): string => path.split(".").slice(-2).join(".");
  const twinOf = (path: string): ExampleKey | undefined =>
    [...examples.values()].find(
      (e) => e.comment !== "" && e.path.includes("[]") && tail(e.path) === tail(path),
    );
  const missing = keys
    .filter((k) => examples.get(k.path) === undefined && twinOf(k.path) === undefined)
    .map((k) => k.path);
  if (missing.length > 0) {
    throw new Error(
      `${EXAMPLE_FILE} does not show these keys (add each with a comment): ${missing.join(", ")}`,
    );
  }
  const meaning = (path: string): string => {
    const own = withoutDefault(examples.get(path)?.comment ?? "");
    return own !== "" ? own : withoutDefault(twinOf(path)?.comment ?? "");
  };
  // A section (a map) is explained by its keys; every other key needs its own comment.
  const unexplained = keys.filter((k) => meaning(k.path) === "" && k.type !== "map").map((k) => k.path);
  if (unexplained.length > 0) {
    throw new Error(`${EXAMPLE_FILE} shows these keys without a comment: ${unexplained.join(", ")}`);
  }
  const sections = [...new Set(keys.map((k) => k.path.split(/[.[]/)[0] as string))];
  const lines: string[] = [];
  for (const section of sections) {
    const rows = keys.filter(
      (k) => k.path === section || k.path.startsWith(`${section}.`) || k.path.startsWith(`${section}[]`),
    );
    lines.push(`### ${section}`, "", "| key | type | default | meaning |", "|---|---|---|---|");
    for (const k of rows) {
      const example = examples.get(k.path) ?? { path: k.path, value: "", commented: true, comment: "" };
      const text = meaning(k.path) || "the section of the keys below";
      lines.push(`| \`${k.path}\` | ${cell(k.type)} | ${cell(defaultOf(k, example))} | ${cell(text)} |`);
    }
    lines.push("");
  }
  return lines.join("\n").trimEnd();
}

/** The schema node of a key path (first matching variant at each step). */
function findNode(schema: Json, path: string): Json {
  let node: Json = schema;
  for (const part of path.split(".")) {
    const [name, ...lists] = part.split("[]");
    const object = variants(node).find((v) => v.type === "object");
    node = ((object?.properties as Record<string, Json> | undefined)?.[name as string] ?? {}) as Json;
    for (let i = 0; i < lists.length; i++) {
      const array = variants(node).find((v) => v.type === "array");
      node = (array?.items ?? {}) as Json;
    }
  }
  return node;
}

/** docs/configuration.md with its generated section replaced. */
export function renderConfigDoc(current: string, schema: Json, exampleYaml: string): string {
  const begin = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${CONFIG_DOC_FILE} lacks the markers ${BEGIN} ... ${END}`);
  return `${current.slice(0, begin + BEGIN.length)}\n\n${renderConfigKeys(schema, exampleYaml)}\n\n${current.slice(end)}`;
}
