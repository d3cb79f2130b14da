/**
 * A metric query item and a list of them, shared by `metrics.queries` and each scope's
 * `queries`; the form rules come from config/queries.ts.
 */
import * as z from "zod";
import { STATS } from "../../upstream/catalog.js";
import { textField } from "../fields.js";
import { METRIC_NAME, type QueryProblem, queryKey } from "../queries.js";
import { type DeepReadonly, optional, sectionError, text, uniqueList } from "../schemaKit.js";

type QueryCheck = (q: { name: string; stat?: "AVG" | "P99" }) => QueryProblem[];

/** A metric query item; `check` applies the form rules (cluster-wide or per-scope ones). */
function querySchema(check: QueryCheck) {
  return z
    .strictObject(
      {
        name: textField({
          regex: METRIC_NAME,
          description: "an upper-case metric name such as CU_COMPUTATION",
        }),
        stat: z.enum(STATS, { error: "must be AVG or P99" }).optional(),
      },
      { error: sectionError },
    )
    .transform((query) => ({
      /** Upstream metric name, upper snake case (e.g. CU_COMPUTATION, REQ_SEARCH_LATENCY_P99). */
      name: query.name,
      /** First request form only. P99 is valid only for latency metrics. */
      ...optional("stat", query.stat),
    }))
    .superRefine((query, ctx) => {
      for (const problem of check(query)) {
        ctx.addIssue({ code: "custom", message: problem.message, path: [problem.field], input: query });
      }
    });
}

/** The camelCase output of one metric query (types.ts `MetricQueryConfig`). */
export type MetricQuery = DeepReadonly<z.output<ReturnType<typeof querySchema>>>;

/** A list of metric queries without duplicates; `where` names the list in the duplicate message. */
export function queriesSchema(where: string, check: QueryCheck) {
  return uniqueList(
    querySchema(check),
    (q) => {
      const name = text(q.name);
      if (name === undefined || !METRIC_NAME.test(name)) return undefined;
      return queryKey(q.stat === "AVG" || q.stat === "P99" ? { name, stat: q.stat } : { name });
    },
    (first) => `duplicate of ${where}[${first}]`,
  );
}
