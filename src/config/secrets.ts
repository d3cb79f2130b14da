/**
 * Reads the API credentials a draft points at. Order for the default key: `api.api_key`,
 * else `api.api_key_file`, else the VDBCLOUD_API_KEY environment variable. Problems name the
 * field and the file, never the secret itself.
 */
import { type ConfigProblem, describeFsError } from "./errors.js";
import type { ConfigDraft, SecretSlot } from "./schema.js";
import type { CollectorSections } from "./section.js";
import type { ClusterConfig, Config } from "./types.js";

/** Environment variable used when the config names no key. */
const API_KEY_ENV = "VDBCLOUD_API_KEY";

/** Reads a text file (injectable for tests). */
export type ReadTextFile = (path: string) => Promise<string>;

/** Outcome: the full config, or the problems that prevent it. */
type SecretsResult =
  | { readonly ok: true; readonly config: Config }
  | { readonly ok: false; readonly problems: ConfigProblem[] };

/**
 * Why `value` cannot be sent in an HTTP header as a key, or undefined when it can. An API key is
 * printable ASCII: whitespace inside it, a control character (a pasted newline) or a non-ASCII
 * character (a smart quote) would make every request fail as "unreachable". A data-plane token
 * (`username:password`) may hold spaces. The message gives a position, never the character.
 */
export function keyProblem(value: string, allowSpaces = false): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const what =
      c < 0x20 || c === 0x7f
        ? "a control character"
        : c > 0x7e
          ? "a non-ASCII character"
          : c === 0x20 && !allowSpaces
            ? "whitespace"
            : undefined;
    if (what !== undefined) {
      return `holds ${what} at character ${i + 1}; ${allowSpaces ? "a token" : "an API key"} is printable ASCII${allowSpaces ? "" : " without spaces"}`;
    }
  }
  return undefined;
}

async function readSlot(
  slot: SecretSlot,
  readFile: ReadTextFile,
  problems: ConfigProblem[],
  fileField = "api_key_file",
): Promise<string | undefined> {
  if (slot.value !== undefined) {
    // Trimmed like a file's key: `${VAR}` from a mounted secret often ends in a newline, which
    // would make every request's Authorization header invalid.
    const key = slot.value.trim();
    if (key === "") problems.push({ path: `${slot.at}.api_key`, message: "is empty" });
    const bad = key === "" ? undefined : keyProblem(key);
    if (bad !== undefined) problems.push({ path: `${slot.at}.api_key`, message: bad });
    return key === "" || bad !== undefined ? undefined : key;
  }
  if (slot.file === undefined) return undefined;
  const path = `${slot.at}.${fileField}`;
  let text: string;
  try {
    text = await readFile(slot.file);
  } catch (err) {
    problems.push({ path, message: `cannot read ${slot.file} (${describeFsError(err)})` });
    return undefined;
  }
  const key = text.trim();
  if (key === "") problems.push({ path, message: `${slot.file} is empty` });
  const bad = key === "" ? undefined : keyProblem(key, fileField === "token_file");
  if (bad !== undefined) problems.push({ path, message: `${slot.file} ${bad}` });
  return key === "" || bad !== undefined ? undefined : key;
}

/**
 * Resolves the default key, each cluster's own key (a cluster without one uses the default)
 * and each section's own key (the default when the section names none). Files are read with `readFile` and trimmed (a trailing newline is not part of a
 * key). Returns every problem found.
 */
export async function resolveSecrets(
  draft: ConfigDraft,
  opts: { readonly env: Readonly<Record<string, string | undefined>>; readonly readFile: ReadTextFile },
): Promise<SecretsResult> {
  const problems: ConfigProblem[] = [];
  let apiKey = await readSlot(draft.apiKey, opts.readFile, problems);
  if (apiKey === undefined && draft.apiKey.file === undefined && draft.apiKey.value === undefined) {
    const fromEnv = opts.env[API_KEY_ENV]?.trim();
    const bad = fromEnv ? keyProblem(fromEnv) : undefined;
    if (bad !== undefined) problems.push({ path: API_KEY_ENV, message: bad });
    else if (fromEnv) apiKey = fromEnv;
    else {
      problems.push({
        path: "api.api_key",
        message: `no API key: set api.api_key (e.g. \${${API_KEY_ENV}}), api.api_key_file, or the ${API_KEY_ENV} environment variable`,
      });
    }
  }
  const clusters: ClusterConfig[] = [];
  for (const [index, cluster] of draft.config.clusters.entries()) {
    const slot = draft.clusterKeys[index];
    const key = slot === undefined ? undefined : await readSlot(slot, opts.readFile, problems);
    const tokenFile = draft.dataPlaneTokenFiles[index];
    const token =
      tokenFile === undefined
        ? undefined
        : await readSlot(
            { at: `clusters[${index}].data_plane`, file: tokenFile },
            opts.readFile,
            problems,
            "token_file",
          );
    clusters.push({
      ...cluster,
      ...(key === undefined ? {} : { apiKey: key }),
      ...(token === undefined ? {} : { dataPlaneToken: token }),
    });
  }
  // Read even when the section is off, so a broken file is reported before it is switched on.
  const own: Record<string, unknown> = {};
  for (const { field, slot } of draft.sectionKeys) {
    const key = await readSlot(slot, opts.readFile, problems);
    own[field] = { ...(draft.config as unknown as Record<string, object>)[field], apiKey: key ?? apiKey };
  }
  if (problems.length > 0 || apiKey === undefined) return { ok: false, problems };
  return {
    ok: true,
    config: {
      ...draft.config,
      ...(own as unknown as CollectorSections),
      api: { ...draft.config.api, apiKey },
      clusters,
    },
  };
}
