/**
 * The shape every endpoint module exports: a request builder, a response schema for the
 * envelope's `data`, and a normalizer to the types.ts shape. The client runs them in that
 * order; endpoint modules do no I/O.
 */
import type { z } from "zod";
import type { EndpointTemplate } from "./types.js";

/**
 * Which server a request goes to: the v2 base URL, the v1 controller of a region, or the data
 * plane of one cluster (its own endpoint, known to the data-plane client).
 */
type RequestTarget =
  | { readonly plane: "v2" }
  | { readonly plane: "v1"; readonly region: string }
  | { readonly plane: "data" };

/** One HTTP request, before URLs are resolved. `path` has its ID segments encoded already. */
export interface RequestSpec {
  readonly endpoint: EndpointTemplate;
  readonly method: "GET" | "POST";
  readonly target: RequestTarget;
  readonly path: string;
  readonly query?: Readonly<Record<string, string | undefined>>;
  /** Serialized as JSON; its presence adds `Content-Type: application/json`. */
  readonly body?: unknown;
}

/**
 * A read-only endpoint: `build` turns arguments into a request, `schema` validates the
 * envelope's `data` (tolerating every documented variant), `normalize` maps it to the
 * exported type. `normalize` also sees the arguments, to fill what a variant leaves out.
 */
export interface EndpointDef<A, D, R> {
  readonly endpoint: EndpointTemplate;
  /**
   * "optional": a successful (2xx) answer may come as the bare payload, without the `{code,
   * data}` envelope (the reference's samples of some endpoints show none); an envelope is still
   * read as one, and an error status never yields data. Default "required".
   */
  readonly envelope?: "required" | "optional";
  build(args: A): RequestSpec;
  readonly schema: z.ZodType<D>;
  normalize(data: D, args: A): R;
  /**
   * The most items an answer of a listing without paging may hold (its `data` array, or any
   * array field of its `data` object): more is a schema error, found before any item is read.
   * Default DEFAULT_MAX_ITEMS; a paged listing's bound is the page size it asked for.
   */
  readonly maxItems?: number;
}

/** The bound of `maxItems` for a listing that declares none. */
export const DEFAULT_MAX_ITEMS = 100_000;

/** The v2 control plane: every v2 endpoint's `target`. */
export const V2: RequestTarget = { plane: "v2" };

/**
 * Declares a read-only endpoint from its template: the request's `endpoint` and `method` follow
 * from the template ("GET /v2/regions"), so `request` gives only where it goes.
 */
export function defineEndpoint<A, D, R>(
  endpoint: EndpointTemplate,
  def: {
    request(args: A): Omit<RequestSpec, "endpoint" | "method">;
    readonly schema: z.ZodType<D>;
    normalize(data: D, args: A): R;
    readonly envelope?: "required" | "optional";
    readonly maxItems?: number;
  },
): EndpointDef<A, D, R> {
  const method = endpoint.startsWith("POST ") ? "POST" : "GET";
  return {
    endpoint,
    ...(def.envelope === undefined ? {} : { envelope: def.envelope }),
    ...(def.maxItems === undefined ? {} : { maxItems: def.maxItems }),
    build: (args) => ({ endpoint, method, ...def.request(args) }),
    schema: def.schema,
    normalize: (data, args) => def.normalize(data, args),
  };
}
