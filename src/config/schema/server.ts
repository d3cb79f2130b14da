/**
 * The `server` section: where to listen and the web config (TLS, basic auth).
 */
import { listenField, textField } from "../fields.js";
import { optional, section } from "../schemaKit.js";
import type { ResolvePath } from "./common.js";
import { DEFAULTS } from "./defaults.js";

/** A null `web_config_file` (e.g. from an unset `${VAR:-}`) means none. */
function webConfigFile(path: string | null | undefined, resolvePath: ResolvePath): string | undefined {
  return path === null || path === undefined ? undefined : resolvePath(path);
}

export function serverSchema(resolvePath: ResolvePath) {
  return section({
    listen: listenField().default(DEFAULTS.listen),
    web_config_file: textField().nullable().optional(),
  }).transform((server) => ({
    host: server.listen.host,
    port: server.listen.port,
    /** Prometheus exporter-toolkit web config (TLS + basic auth), absolute path; absent: plain HTTP. */
    ...optional("webConfigFile", webConfigFile(server.web_config_file, resolvePath)),
  }));
}
