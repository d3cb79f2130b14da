/**
 * A cheap look at a JSON body's shape before JSON.parse: how deep it nests, how many arrays and
 * objects it holds, and how long its longest array is. Parsing is one synchronous call that
 * cannot yield, and what it builds lives until the answer is read: millions of empty arrays
 * under the body cap take gigabytes of heap and tens of seconds of the event loop
 * (docs/performance.md). One pass over the bytes allocates nothing, so a body no documented
 * answer comes near is refused before it costs anything.
 */

/** How far a body may go in each measure. */
export interface JsonShapeLimits {
  /** Nesting of arrays and objects. */
  readonly maxDepth: number;
  /** Arrays and objects in the whole body. */
  readonly maxContainers: number;
  /** Elements of any one array. */
  readonly maxArrayItems: number;
}

/**
 * The limits of every upstream answer. The largest documented answers stay far below them: a
 * month of daily usage at a thousand clusters is about 80,000 objects, six levels deep; a
 * cluster's data plane lists at most 65,536 collections (the engine's own cap).
 */
export const UPSTREAM_JSON_LIMITS: JsonShapeLimits = {
  maxDepth: 64,
  maxContainers: 500_000,
  maxArrayItems: 100_000,
};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/**
 * Why `raw` (UTF-8 JSON text) exceeds `limits`, in words that quote nothing of it; undefined when
 * it stays within them. Malformed text is not judged here: JSON.parse rejects it after. Bytes
 * of multi-byte UTF-8 characters never equal an ASCII delimiter, so scanning bytes is exact.
 */
export function jsonShapeProblem(raw: Uint8Array, limits: JsonShapeLimits): string | undefined {
  const { maxDepth, maxContainers, maxArrayItems } = limits;
  // Per open container: the commas of an array so far (n commas: n + 1 items), -1 for an object.
  const commas = new Int32Array(maxDepth + 1);
  let depth = 0;
  let containers = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i] as number;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > maxDepth) return `nests deeper than ${maxDepth} levels`;
      if (++containers > maxContainers) return `holds more than ${maxContainers} arrays and objects`;
      commas[depth] = byte === OPEN_ARRAY ? 0 : -1;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      if (depth > 0) depth--;
    } else if (byte === COMMA && depth > 0) {
      const n = commas[depth] as number;
      if (n < 0) continue;
      if (n + 1 >= maxArrayItems) return `has an array of more than ${maxArrayItems} items`;
      commas[depth] = n + 1;
    }
  }
  return undefined;
}
