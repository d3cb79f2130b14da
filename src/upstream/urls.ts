/**
 * Request URLs: base URLs may carry a path prefix (a gateway or the simulator mounts the API
 * under one), and the v1 controller URL is a template with the cluster's region in the host.
 */
import { ExporterError } from "../shared/errors.js";

/**
 * Joins `base` (which may end in a path prefix, with or without a trailing slash) and an
 * absolute API `path` whose variable segments are already percent-encoded. The query is
 * built with URLSearchParams; `undefined` values are left out. Any query or fragment of
 * `base` is dropped. Throws TypeError for an unparsable base or a non-HTTP(S) scheme.
 */
export function joinUrl(
  base: string,
  path: string,
  query?: Readonly<Record<string, string | undefined>>,
): URL {
  const url = new URL(base);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`unsupported URL scheme ${url.protocol}`);
  }
  const prefix = url.pathname.replace(/\/+$/, "");
  url.pathname = `${prefix}/${path.replace(/^\/+/, "")}`;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.append(name, value);
  }
  url.search = params.toString();
  url.hash = "";
  return url;
}

/** Substitutes every `{region}` of the controller URL template with the URL-encoded region. */
export function controllerBaseUrl(template: string, region: string): string {
  return template.split("{region}").join(encodeURIComponent(region));
}

/**
 * An ID that cannot be a path segment: empty, "." or "..", which URL resolution turns into
 * another route ("/v2/clusters/.." is "/v2/"). Percent-encoding leaves dots alone.
 */
export class PathSegmentError extends ExporterError {
  override readonly name = "PathSegmentError";
  readonly code = "invalid_id";
  constructor(value: string, options?: { cause?: unknown }) {
    super(`"${value}" is not an ID a request path may carry`, options);
  }
}

/**
 * Percent-encodes one path segment (an ID), so "/" or "?" in it cannot change the route.
 * Throws PathSegmentError for "", "." and "..": the last line behind the ID rule of listings.
 */
export function segment(value: string): string {
  if (value === "" || value === "." || value === "..") throw new PathSegmentError(value);
  return encodeURIComponent(value);
}
