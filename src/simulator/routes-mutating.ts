/**
 * Every mutating endpoint (drop, delete, create, update, migrate, release...) at once: one
 * catch-all per method and API version after the read routes. It answers an empty success
 * without changing anything, and the request path records the call in `stats.mutatingCalls`, so a
 * test can assert the exporter makes none. The spec's mutating endpoints need no behaviour of
 * their own here: the exporter must never call them.
 */
import type { RouteDef } from "./route.js";

const METHODS = ["POST", "DELETE", "PUT", "PATCH"] as const;

/** The catch-all routes: every writing method under /v1 (also through the controller URL) and /v2. */
export function mutatingRoutes(): RouteDef[] {
  return METHODS.flatMap((method) =>
    ([1, 2] as const).map(
      (version): RouteDef => ({
        method,
        path: `/v${version}/{*rest}`,
        template: `${method} /v${version}/*`,
        version,
        mutating: true,
        dataShape: "object",
        handle: () => ({}),
      }),
    ),
  );
}
