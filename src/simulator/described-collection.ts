/**
 * Describe Collection's answer as the REST reference's sample shows it, but for what each
 * collection has of its own (its name, its vector field, its load state): what the simulator's
 * canary answers (canary.ts). The reference's sample itself is kept apart, as the page gives it
 * (upstream/samples/describe-collection-v2.json): canary.test.ts checks this answer against it.
 */

/** What the sample says of every collection beside its name, fields and load state. */
export const DESCRIBED_COLLECTION = {
  aliases: [],
  autoId: false,
  consistencyLevel: "Bounded",
  description: "",
  enableDynamicField: true,
  partitionsNum: 1,
  properties: [],
} as const;

/** The sample's first field: the primary key `id`, an Int64 the service does not generate. */
export const DESCRIBED_ID_FIELD = {
  autoId: false,
  description: "",
  id: 100,
  name: "id",
  partitionKey: false,
  primaryKey: true,
  type: "Int64",
} as const;
