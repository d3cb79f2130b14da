/**
 * The two parts of undici the exporter uses, a connection Pool and `request`, loaded on their
 * own. undici's index loads all of undici (fetch, WebSocket, caches, mocks), and one of those
 * modules reads `globalThis.Headers`, which makes Node load its own bundled copy of undici as
 * well: the index costs memory at rest that these two files do not (docs/performance.md,
 * "Figures behind the code"). undici's package has no
 * `exports` map, so these paths are importable; `undici.test.ts` fails if an upgrade moves
 * them or if they stop being the index's own classes.
 */
import { createRequire } from "node:module";
import type { Dispatcher, Pool as UndiciPool } from "undici";

const load = createRequire(import.meta.url);

/** undici's Pool class, the very one `import { Pool } from "undici"` gives. */
export const Pool = load("undici/lib/dispatcher/pool.js") as typeof UndiciPool;

type RequestMethod = (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

const requestMethod = load("undici/lib/api/api-request.js") as RequestMethod;

/** Options of `request`: undici's request options without the parts taken from `url`. */
type RequestOptions = Omit<Dispatcher.RequestOptions, "origin" | "path">;

/**
 * Sends one request through `dispatcher` (any undici Dispatcher: a Pool, an Agent, a
 * MockAgent), as undici's `request(url, { dispatcher, ... })` does: the origin and the path
 * with its query come from `url`.
 */
export function request(
  dispatcher: Dispatcher,
  url: URL,
  options: RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return requestMethod.call(dispatcher, {
    ...options,
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
  });
}
