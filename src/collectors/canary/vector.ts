/**
 * What a canary search sends, from the collection's schema: the first vector field the canary
 * can build a vector for, and a fixed unit vector of its dimension (1 then zeros: a zero vector
 * has no direction, which a COSINE index refuses). And how a failed probe is told apart: the
 * service refused the vector (re-read the schema, search once more), refused the credential,
 * timed out, or failed otherwise.
 */

import type { CollectionSchema, VectorField } from "../../upstream/dataPlane.js";
import { CloudError } from "../../upstream/errors.js";
import { refusalOf } from "../../upstream/refusals.js";

/** Dense vector types the REST body takes as a list of numbers, the canary's unit vector among them. */
const DENSE_TYPES: ReadonlySet<string> = new Set([
  "floatvector",
  "float16vector",
  "bfloat16vector",
  "int8vector",
]);

/** The sparse type, whose REST body is an index -> value map (the reference's sparse-vector guide). */
const SPARSE_TYPE = "sparsefloatvector";

/** Largest dimension the service documents for a dense vector field. */
const MAX_DIM = 32_768;

/** What a search of the collection sends, or why the canary queries it instead. */
export type ProbePlan =
  | {
      readonly kind: "search";
      readonly field: string;
      readonly vector: readonly number[] | Readonly<Record<string, number>>;
    }
  | { readonly kind: "query"; readonly reason: string };

/** A unit vector for `field`, or why none can be built. */
function vectorFor(field: VectorField): ProbePlan {
  if (field.functionOutput) {
    return {
      kind: "query",
      reason: `vector field ${field.name} is a function's output, whose search takes text the canary does not send`,
    };
  }
  const type = field.type.toLowerCase();
  if (type === SPARSE_TYPE) return { kind: "search", field: field.name, vector: { "0": 1 } };
  if (!DENSE_TYPES.has(type)) {
    // BinaryVector among them: the reference shows no REST body of a binary query vector.
    return {
      kind: "query",
      reason: `vector field ${field.name} is a ${field.type}, which the canary cannot build a vector for`,
    };
  }
  if (field.dim === null || field.dim > MAX_DIM) {
    return { kind: "query", reason: `vector field ${field.name} has no dimension the canary can read` };
  }
  const vector = new Array<number>(field.dim).fill(0);
  vector[0] = 1;
  return { kind: "search", field: field.name, vector };
}

/**
 * The search the canary makes of a collection: the first vector field it can build a vector for
 * (dense fields before a sparse one), or a query, with the reason, when there is none.
 */
export function probePlan(schema: CollectionSchema): ProbePlan {
  if (schema.vectorFields.length === 0)
    return { kind: "query", reason: "the collection has no vector field" };
  const plans = schema.vectorFields.map(vectorFor);
  const dense = plans.find(
    (p, i) => p.kind === "search" && schema.vectorFields[i]?.type.toLowerCase() !== SPARSE_TYPE,
  );
  return dense ?? plans.find((p) => p.kind === "search") ?? (plans[0] as ProbePlan);
}

/**
 * Engine codes of a request refused for what it sent: 1100 invalid parameter and 1101 missing
 * parameter (Milvus), 1801 incorrect parameter format and 1802 missing required parameters (its
 * REST layer; the reference's failure sample of Search answers 1802).
 */
const REFUSED_REQUEST_CODES: ReadonlySet<number> = new Set([1100, 1101, 1801, 1802]);

/** Words of a refusal of the vector itself: its dimension, its field, its type. */
const VECTOR_REFUSAL =
  /\bdim(ension)?s?\b|\banns_?field\b|\bvector (field|type)\b|\bfield\b.*\bnot (exist|found)/i;

/**
 * Whether a search was refused for the vector it sent (the collection's dimension or vector
 * field changed since it was read): a request the service refused as invalid, never a refused
 * credential.
 */
export function isRefusedSearch(err: unknown): boolean {
  if (!(err instanceof CloudError) || refusalOf(err) !== undefined) return false;
  if (err.apiCode !== undefined && REFUSED_REQUEST_CODES.has(err.apiCode)) return true;
  if (err.code === "invalid_request" || err.httpStatus === 400) return true;
  return (err.code === "api_error" || err.code === "http_error") && VECTOR_REFUSAL.test(err.message);
}

/** The outcomes of a probe: the `outcome` label values of vdbcloud_canary_requests_total. */
export const CANARY_OUTCOMES = ["success", "error", "timeout", "refused"] as const;

/** One of {@link CANARY_OUTCOMES}. */
export type CanaryOutcome = (typeof CANARY_OUTCOMES)[number];

/**
 * The outcome of a failed probe: `timeout` without a complete answer in time, `refused` when
 * the service refused the credential (the one refusal rule: an invalid key, a missing role or
 * permission), `error` for anything else.
 */
export function failedOutcome(err: unknown): Exclude<CanaryOutcome, "success"> {
  if (err instanceof CloudError && err.code === "timeout") return "timeout";
  const refusal = refusalOf(err);
  return refusal === "key_refused" || refusal === "not_permitted" ? "refused" : "error";
}
