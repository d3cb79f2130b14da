/**
 * Label values in lower snake case, as the families name upstream enums: "GREATER_THAN",
 * "GreaterThan" and "greater than" are all "greater_than".
 */

/**
 * `text` in lower snake case: a lower-to-upper case change starts a word, every run of anything
 * but letters and digits becomes one "_", and none leads or trails.
 */
export function lowerSnakeCase(text: string): string {
  return text
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}
