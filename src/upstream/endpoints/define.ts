/**
 * What one endpoint declaration holds (YACE's `services.go` row, one file per endpoint): the HTTP
 * method and path template, its scope, how it pages, the request builder, a response schema for
 * the envelope's `data` and a normalizer to the results.ts shape, and the facts the framework
 * reads (account-wide, its place in the polling schedule, its run-time note, whether a server may
 * not offer it). The client runs request, schema and normalizer in that order; declarations do no
 * I/O. table.ts is the one table of them.
 */
import type { z } from "zod";
import { segment } from "../urls.js";

/** The HTTP methods of a read-only endpoint. */
export type Method = "GET" | "POST";

/** An endpoint's identity: its method and path template, e.g. "GET /v2/clusters/{id}". */
export type Template = `${Method} /${string}`;

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
  readonly endpoint: Template;
  readonly method: Method;
  readonly target: RequestTarget;
  readonly path: string;
  readonly query?: Readonly<Record<string, string | undefined>>;
  /** Serialized as JSON; its presence adds `Content-Type: application/json`. */
  readonly body?: unknown;
}

/** What an endpoint is asked about: the whole account, one project, one cluster, or its data plane. */
export type Scope = "account" | "project" | "cluster" | "data plane";

/** How a paged listing pages: numbers from `firstPage`, sizes within `pageSize`, its total at `total`. */
export interface Paging {
  readonly firstPage: 1;
  readonly pageSize: { readonly min: number; readonly max: number };
  /** Where the listing's total lives in `data` ("count", "total or count"); null when none is documented. */
  readonly total: string | null;
}

/** How an endpoint's answer is enveloped (see EndpointDef.envelope). */
type Envelope = "required" | "optional" | "whole";

/** The facts of an endpoint the framework reads, beside how it is called. */
export interface EndpointFacts {
  readonly scope: Scope;
  /** "none", or how the listing pages: each paged listing is read through the pager. */
  readonly paging: "none" | Paging;
  /**
   * Account-wide: only shard 0 calls it (the collectors that own the account's global calls), so
   * shard 0 keeps the key's whole budget for it (polling/budgets.ts).
   */
  readonly shardZero?: true;
  /**
   * Its rows' place in the polling schedule of `--check-config` (ascending); rows of an endpoint without one
   * come first, in the order the tasks list them.
   */
  readonly planOrder?: number;
  /** The note printed under the schedule while a task calls it: its number of calls only a run knows. */
  readonly runTimeCount?: string;
  /** The client's method takes no arguments, only the signal. */
  readonly noArgs?: true;
  /**
   * A server may not offer it (an endpoint the service is removing): the client turns the
   * answer that says so into a `not_offered` CloudError (upstream/unknownEndpoint.ts
   * `notOfferedError`), which the one refusal rule reads, so that whoever asked is held, never
   * failed (polling/notOffered.ts).
   */
  readonly absent?: Absent;
}

/**
 * How a server says it does not offer an endpoint that may be absent: as an unknown endpoint
 * (`isUnknownEndpoint`: HTTP 404 or 405, or a message saying so), or by one of `apiCodes` on the
 * endpoint's path (codes that mean something else elsewhere, such as a refused token).
 */
export interface Absent {
  readonly apiCodes: readonly number[];
  /**
   * Other path templates, with the declared one's `{name}` segments, where a server may answer
   * the same endpoint instead (a gateway that routes another spelling than the reference's).
   * Where the path asked is not offered, the client asks these in order, then keeps the one that
   * answered (upstream/caller.ts); the endpoint keeps its template in every metric and log.
   */
  readonly alsoAt?: readonly `/${string}`[];
}

/**
 * A read-only endpoint: `build` turns arguments into a request, `schema` validates the
 * envelope's `data` (tolerating every documented variant), `normalize` maps it to the
 * exported type. `normalize` also sees the arguments, to fill what a variant leaves out.
 */
export interface EndpointDef<A, D, R, T extends Template = Template> extends EndpointFacts {
  readonly endpoint: T;
  /**
   * "optional": a successful (2xx) answer may come as the bare payload, without the `{code,
   * data}` envelope (the reference's samples of some endpoints show none); an envelope is still
   * read as one, and an error status never yields data. "whole": the success envelope itself is
   * what `schema` reads (fields beside `data`, such as Search's `cost`). Default "required".
   */
  readonly envelope?: Envelope;
  /** The request; `at` picks the path: 0 the template's (the default), i the i-th of `absent.alsoAt`. */
  build(args: A, at?: number): RequestSpec;
  /** The paths the endpoint may be answered at: the template's, then `absent.alsoAt`'s. */
  readonly paths: readonly string[];
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

/** A cluster's own data plane. */
export const DATA_PLANE: RequestTarget = { plane: "data" };

/** The paging of the documented control-plane listings: pages from 1, 1..100 items each. */
export const PAGES = (total: string | null): Paging => ({
  firstPage: 1,
  pageSize: { min: 1, max: 100 },
  total,
});

/** Where a request goes and what it carries; `params` fill the template's `{name}` segments. */
interface RequestParts {
  readonly target: RequestTarget;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | undefined>>;
  readonly body?: unknown;
}

/** `path` with each `{name}` replaced by the encoded `params[name]`. */
function filled(template: Template, path: string, params: Readonly<Record<string, string>> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`${template}: no value for {${name}}`);
    return segment(value);
  });
}

/**
 * Declares a read-only endpoint from its template and facts: the request's method and path
 * follow from the template ("GET /v2/clusters/{id}"), so `request` gives only where it goes,
 * the template's parameters, the query and the body.
 */
export function defineEndpoint<const T extends Template>(endpoint: T, facts: EndpointFacts) {
  const method: Method = endpoint.startsWith("POST ") ? "POST" : "GET";
  const paths = [endpoint.slice(endpoint.indexOf(" ") + 1), ...(facts.absent?.alsoAt ?? [])];
  return {
    as<A, D, R>(def: {
      request(args: A): RequestParts;
      readonly schema: z.ZodType<D>;
      normalize(data: D, args: A): R;
      readonly envelope?: Envelope;
      readonly maxItems?: number;
    }): EndpointDef<A, D, R, T> {
      return {
        ...facts,
        endpoint,
        ...(def.envelope === undefined ? {} : { envelope: def.envelope }),
        ...(def.maxItems === undefined ? {} : { maxItems: def.maxItems }),
        build: (args, at = 0) => {
          const { params, ...parts } = def.request(args);
          const path = paths[at];
          if (path === undefined) throw new RangeError(`${endpoint}: no path ${at}`);
          return { endpoint, method, ...parts, path: filled(endpoint, path, params) };
        },
        paths,
        schema: def.schema,
        normalize: (data, args) => def.normalize(data, args),
      };
    },
  };
}
