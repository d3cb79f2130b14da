/**
 * The index shapes of the data plane, where the collections collector reads them; List Indexes and
 * Describe Index are declared in endpoints/indexes.ts.
 */
export {
  describeIndexDataSchema,
  type IndexDescription,
  type IndexRef,
  normalizeDescribeIndex,
} from "./endpoints/indexes.js";
