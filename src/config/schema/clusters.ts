/**
 * The `clusters` section: static targets, each with its region, project, scopes and an
 * optional credential of its own.
 */
import * as z from "zod";
import { RESOURCE_ID } from "../../shared/ids.js";
import { httpUrlField, textField } from "../fields.js";
import { checkScopeQuery } from "../queries.js";
import { always, nullAsAbsent, optional, section, sectionError, text, uniqueList } from "../schemaKit.js";
import { apiKeyFields, keySource, REGION, type ResolvePath, rejectBothKeys } from "./common.js";
import { queriesSchema } from "./queries.js";

const scopeSchema = z
  .strictObject(
    {
      db_name: textField().optional(),
      collection_name: textField().optional(),
      // Absent: every metric of metrics.queries that a scope can carry.
      queries: nullAsAbsent(queriesSchema("queries", checkScopeQuery).optional()),
    },
    { error: sectionError },
  )
  .superRefine((scope, ctx) => {
    if (scope.db_name === undefined && scope.collection_name === undefined) {
      ctx.addIssue({ code: "custom", message: "needs db_name, collection_name or both", input: scope });
    }
    if (scope.queries !== undefined && scope.queries.length === 0) {
      ctx.addIssue({
        code: "custom",
        message:
          "must list at least one query (omit it for every metric of metrics.queries a scope can carry)",
        path: ["queries"],
        input: scope.queries,
      });
    }
  });

// Lists rename their items after the duplicate check, which reads the file's own keys.
const scopesSchema = nullAsAbsent(
  uniqueList(
    scopeSchema,
    (s) => JSON.stringify([text(s.db_name) ?? null, text(s.collection_name) ?? null]),
    (first) => `duplicate of scopes[${first}]`,
  )
    .transform((scopes) =>
      scopes.map((scope) => ({
        ...optional("dbName", scope.db_name),
        ...optional("collectionName", scope.collection_name),
        /**
         * The scope's own query list, already expanded and in second-form names; absent means
         * every metric of `metrics.queries` a scope can carry (config/queries.ts `scopeQueries`).
         * Here still as written: the file's transform expands it against the cluster-wide list.
         */
        ...optional("queries", scope.queries),
      })),
    )
    .default([]),
);

/** A configured cluster ID: the rule every resource ID follows, discovered ones too. */
/** `clusters[].data_plane`: where the cluster's own endpoint is and which credential it takes. */
export const dataPlaneSchema = section({
  endpoint: httpUrlField().optional(),
  token_file: textField().optional(),
});

export const CLUSTER_ID = RESOURCE_ID;

const clusterSchema = z
  .strictObject(
    {
      id: textField({
        regex: CLUSTER_ID,
        description: "a cluster ID of letters, digits and - (in01-0123456789abcdef)",
      }),
      region: textField(REGION).optional(),
      project_id: textField().optional(),
      scopes: scopesSchema,
      data_plane: dataPlaneSchema.optional(),
      ...apiKeyFields,
    },
    { error: sectionError },
  )
  .check(z.superRefine(rejectBothKeys, always));

export function clustersSchema(resolvePath: ResolvePath) {
  return nullAsAbsent(
    uniqueList(
      clusterSchema,
      // Only well-formed IDs are quoted back in the message.
      (c) => {
        const id = text(c.id);
        return id !== undefined && CLUSTER_ID.test(id) ? id : undefined;
      },
      (first, id) => `duplicate cluster id "${id}" (also at clusters[${first}].id)`,
      (index) => [index, "id"],
    )
      .transform((clusters) =>
        clusters.map((cluster) => ({
          settings: {
            id: cluster.id,
            /** Cloud region ID (e.g. aws-us-west-2); needed for v1 calls through the controller URL. */
            ...optional("region", cluster.region),
            ...optional("projectId", cluster.project_id),
            scopes: cluster.scopes,
            /** The cluster's own data-plane endpoint; absent: its connectAddress. */
            ...optional("dataPlaneEndpoint", cluster.data_plane?.endpoint),
          },
          /** Optional per-cluster credential; clusters with another key get their own rate budget. */
          key: keySource(cluster, resolvePath),
          /** The data-plane token file (`username:password` or an API key); absent: the API key. */
          tokenFile:
            cluster.data_plane?.token_file === undefined
              ? undefined
              : resolvePath(cluster.data_plane.token_file),
        })),
      )
      .default([]),
  );
}
