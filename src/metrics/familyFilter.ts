/**
 * Which families the exporter exposes: `families.allow` and `families.deny` of the config, regular
 * expressions each matched against a WHOLE family name (as kube-state-metrics' allow and deny
 * lists are). A family is exposed when the allow list is empty or one of its rules matches, and
 * no deny rule matches. The health families (HEALTH_FAMILY_NAMES) are always exposed: the config
 * check refuses lists that would remove one (`healthProblems`), so a filter never meets one.
 */
import { HEALTH_FAMILY_NAMES } from "./selfFamilies.js";

/** The two lists as the config gives them: JavaScript regular expressions, as written. */
export interface FamilyLists {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

/**
 * A rule compiled to match whole names only: "vdbcloud_import_job" matches that name and no
 * longer one, and "a|b" means "a" or "b" (the alternation is grouped before it is anchored).
 */
export function wholeName(source: string): RegExp {
  return new RegExp(`^(?:${source})$`);
}

/** The rule that keeps a family from being exposed: a deny rule, or the allow list as a whole. */
export type Denial = { readonly list: "deny"; readonly index: number } | { readonly list: "allow" };

// Names come from the collectors' declarations and from configured metric names; the bound only
// guards against an unexpected source of names.
const MEMO_LIMIT = 4096;

/**
 * The compiled lists. `exposes` is memoized per name: the sample store asks it for each family of
 * each poll's result, never per scrape.
 */
export class FamilyFilter {
  readonly #allow: readonly RegExp[];
  readonly #deny: readonly RegExp[];
  readonly #memo = new Map<string, boolean>();
  /** True when neither list has a rule: every family is exposed, and nothing needs asking. */
  readonly everything: boolean;

  /** `lists` must hold valid regular expressions (the config schema checks them). */
  constructor(lists: FamilyLists) {
    this.#allow = lists.allow.map(wholeName);
    this.#deny = lists.deny.map(wholeName);
    this.everything = this.#allow.length === 0 && this.#deny.length === 0;
  }

  /** Whether the family `name` is exposed. */
  exposes(name: string): boolean {
    if (this.everything) return true;
    let exposed = this.#memo.get(name);
    if (exposed === undefined) {
      exposed = this.denial(name) === undefined;
      if (this.#memo.size >= MEMO_LIMIT) this.#memo.clear();
      this.#memo.set(name, exposed);
    }
    return exposed;
  }

  /** Why `name` is not exposed (the first deny rule that matches it, else the allow list), or undefined. */
  denial(name: string): Denial | undefined {
    const index = this.#deny.findIndex((re) => re.test(name));
    if (index >= 0) return { list: "deny", index };
    if (this.#allow.length > 0 && !this.#allow.some((re) => re.test(name))) return { list: "allow" };
    return undefined;
  }
}

/** The filter of no rule: every family exposed. */
export const EVERY_FAMILY = new FamilyFilter({ allow: [], deny: [] });

const compiled = new WeakMap<FamilyLists, FamilyFilter>();

/** The filter of `lists`, compiled once per lists object (a loaded config's stays the same). */
export function familyFilter(lists: FamilyLists): FamilyFilter {
  let filter = compiled.get(lists);
  if (filter === undefined) {
    filter = new FamilyFilter(lists);
    compiled.set(lists, filter);
  }
  return filter;
}

/** A problem of the lists: where (`["deny", 2]`, `["allow"]`) and what is wrong. */
export interface FamilyListProblem {
  readonly path: readonly ("allow" | "deny" | number)[];
  readonly message: string;
}

/** "a", "a and b", "a, b and c". */
function inWords(names: readonly string[]): string {
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Compiles `source`, or undefined when it is no valid expression (the schema reports that itself). */
function compiles(source: string): RegExp | undefined {
  try {
    return wholeName(source);
  } catch {
    return undefined;
  }
}

/**
 * The rules that would hide a health family: each deny rule that matches one, named by its
 * index, and an allow list that admits not every one of them.
 */
export function healthProblems(lists: FamilyLists): FamilyListProblem[] {
  const problems: FamilyListProblem[] = [];
  lists.deny.forEach((source, index) => {
    const re = compiles(source);
    const hit = re === undefined ? [] : HEALTH_FAMILY_NAMES.filter((name) => re.test(name));
    if (hit.length > 0) {
      problems.push({
        path: ["deny", index],
        message: `${JSON.stringify(source)} would deny ${inWords(hit)}, which cannot be denied (the exporter's health families)`,
      });
    }
  });
  const allow = lists.allow.map(compiles);
  if (allow.length > 0 && allow.every((re) => re !== undefined)) {
    const missed = HEALTH_FAMILY_NAMES.filter((name) => !allow.some((re) => re?.test(name)));
    if (missed.length > 0) {
      problems.push({
        path: ["allow"],
        message: `does not admit ${inWords(missed)}, which cannot be denied (the exporter's health families): add the rule ${JSON.stringify(missed.join("|"))}`,
      });
    }
  }
  return problems;
}

/**
 * The rules that match none of `known` (every family the exporter can write, process metrics
 * included): likely a name written as a prefix, since rules match whole names. A problem to warn
 * about, not an error: a rule may name a family of another version.
 */
export function unmatchedRules(lists: FamilyLists, known: Iterable<string>): FamilyListProblem[] {
  const names = [...known];
  const problems: FamilyListProblem[] = [];
  for (const list of ["allow", "deny"] as const) {
    lists[list].forEach((source, index) => {
      const re = compiles(source);
      if (re === undefined || names.some((name) => re.test(name))) return;
      problems.push({
        path: [list, index],
        message: `${JSON.stringify(source)} matches no family the exporter knows (a rule matches whole names: ${JSON.stringify(`${source}.*`)} matches those it begins)`,
      });
    });
  }
  return problems;
}

/** "families.deny[2]", "families.allow": where a problem is, as the config names it. */
export function familyListPath(path: FamilyListProblem["path"]): string {
  return path.reduce<string>(
    (at, part) => (typeof part === "number" ? `${at}[${part}]` : `${at}.${part}`),
    "families",
  );
}
