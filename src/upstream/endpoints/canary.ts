/**
 * What a read-only canary asks a cluster's data plane (docs/design.md section 7): Describe
 * Collection (the vector fields and their dimensions), Search (one unit vector, limit 1, no
 * output fields) and Query (limit 1, an optional filter). Nothing here writes.
 *
 * Describe Collection's field `params` is a key/value array in the reference's sample
 * ([{key: "dim", value: "5"}]) and an object in its schema ({dim: 5}): both give the dimension.
 * Search and Query answer `cost` (the vCU billed on free and serverless clusters) beside `data`,
 * so their schema reads the whole envelope.
 */
import { z } from "zod";
import { lenient, lenientTextOrEmpty as text } from "../lenient.js";
import { numeric, stringish } from "../wire.js";
import type { CollectionRef } from "./dataPlane.js";
import { DATA_PLANE, defineEndpoint, type EndpointDef, type EndpointFacts, type Template } from "./define.js";

/** A vector field of a collection. */
export interface VectorField {
  readonly name: string;
  /** The service's type name: FloatVector, BinaryVector, Float16Vector, SparseFloatVector, ... */
  readonly type: string;
  /** Its `dim` parameter; null when the field has none (a sparse field) or it is unreadable. */
  readonly dim: number | null;
  /**
   * Whether a function derives it (`isFunctionOutput`, or a function's `outputFieldNames`): a
   * BM25 field's search takes text, not a vector. Absent: not derived.
   */
  readonly functionOutput?: boolean;
}

/** What the canary needs of a collection's schema: its vector fields, in schema order. */
export interface CollectionSchema {
  readonly vectorFields: readonly VectorField[];
}

/** One search of one vector: the field searched and the vector, already built for its type. */
export interface SearchArgs extends CollectionRef {
  readonly annsField: string;
  /** A dense vector's numbers, or a sparse vector's index -> value map. */
  readonly vector: readonly number[] | Readonly<Record<string, number>>;
}

/** One query of at most one entity. */
export interface QueryArgs extends CollectionRef {
  /** A boolean expression; absent: any entity. */
  readonly filter?: string;
}

/** What a Search or Query answered: the vCU it cost (when the service says) and the hits. */
export interface ProbeAnswer {
  /** `cost`: vCU billed for the request on free and serverless clusters; null when not given. */
  readonly cost: number | null;
  /** Entities returned (at most 1: limit 1). */
  readonly hits: number;
}

const FACTS: EndpointFacts = { scope: "data plane", paging: "none" };

/** A field parameter's value: the sample's string, or a number. */
const paramValue = lenient(stringish);

/** `params` as the sample sends it (key/value pairs) or as the schema documents it (an object). */
const paramsSchema = lenient(
  z.union([
    z
      .array(z.object({ key: stringish, value: z.unknown() }))
      .transform((pairs) => Object.fromEntries(pairs.map((p) => [p.key, p.value]))),
    z.record(z.string(), z.unknown()),
  ]),
);

const fieldSchema = z.object({
  name: text,
  type: text,
  params: paramsSchema,
  // A server that names the vector's parameters as the create request does.
  elementTypeParams: paramsSchema,
  isFunctionOutput: lenient(z.boolean()),
});

const functionSchema = z.object({ outputFieldNames: lenient(z.array(lenient(stringish))) });

type Field = z.infer<typeof fieldSchema>;

/** The dimension `dim` a field's parameters give, or null. */
function dimOf(field: Field): number | null {
  const raw = field.params?.dim ?? field.elementTypeParams?.dim;
  const parsed = paramValue.safeParse(raw);
  const dim = parsed.success && parsed.data !== null ? Number(parsed.data) : Number.NaN;
  return Number.isSafeInteger(dim) && dim > 0 ? dim : null;
}

const describeSchema = z.object({
  fields: z
    .array(fieldSchema)
    .nullish()
    .transform((f) => f ?? []),
  functions: lenient(z.array(lenient(functionSchema))),
});

/** The vector fields of Describe Collection's `data` (every field whose type ends in "Vector"). */
export function normalizeCollectionSchema(data: z.infer<typeof describeSchema>): CollectionSchema {
  const derived = new Set((data.functions ?? []).flatMap((f) => f?.outputFieldNames ?? []));
  return {
    vectorFields: data.fields
      .filter((f) => f.name !== "" && /Vector$/i.test(f.type))
      .map((f) => ({
        name: f.name,
        type: f.type,
        dim: dimOf(f),
        ...(f.isFunctionOutput === true || derived.has(f.name) ? { functionOutput: true } : {}),
      })),
  };
}

/** Describe Collection: a collection's fields, of which the canary keeps the vector fields. */
export const describeCollectionEndpoint = defineEndpoint("POST /v2/vectordb/collections/describe", FACTS).as<
  CollectionRef,
  z.infer<typeof describeSchema>,
  CollectionSchema
>({
  request: (r) => ({ target: DATA_PLANE, body: { dbName: r.dbName, collectionName: r.collectionName } }),
  schema: describeSchema,
  normalize: normalizeCollectionSchema,
});

/** Search's and Query's whole answer: `cost` beside `data` (the hits). */
const answerSchema = z
  .object({
    cost: lenient(numeric),
    data: z
      .array(z.unknown())
      .nullish()
      .transform((d) => d ?? []),
  })
  .transform(
    (a): ProbeAnswer => ({ cost: a.cost !== null && a.cost >= 0 ? a.cost : null, hits: a.data.length }),
  );

/**
 * A probe of at most one entity (limit 1) and no output fields, whose answer is read whole: its
 * body names the collection, then what `ask` adds (what to search or query), then the limit.
 */
function probeEndpoint<const T extends Template, A extends CollectionRef>(
  endpoint: T,
  ask: (args: A) => Readonly<Record<string, unknown>>,
): EndpointDef<A, ProbeAnswer, ProbeAnswer, T> {
  return defineEndpoint(endpoint, FACTS).as<A, ProbeAnswer, ProbeAnswer>({
    request: (r) => ({
      target: DATA_PLANE,
      body: { dbName: r.dbName, collectionName: r.collectionName, ...ask(r), limit: 1, outputFields: [] },
    }),
    schema: answerSchema,
    normalize: (answer) => answer,
    envelope: "whole",
  });
}

/** Search: one vector, the nearest entity only, no output fields (the least a search can cost). */
export const searchEndpoint = probeEndpoint("POST /v2/vectordb/entities/search", (r: SearchArgs) => ({
  data: [r.vector],
  annsField: r.annsField,
}));

/** Query: at most one entity matching the filter (any entity with an empty one), no output fields. */
export const queryEndpoint = probeEndpoint("POST /v2/vectordb/entities/query", (r: QueryArgs) => ({
  // The reference's body always names a filter; an empty one with a limit matches any entity.
  filter: r.filter ?? "",
}));
