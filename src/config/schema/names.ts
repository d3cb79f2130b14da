/**
 * Metric names must be catalog names unless `metrics.allow_unknown_names` says the service knows
 * more than the catalog (config/queries.ts `checkQueryName`: a typo gets "did you mean").
 */
import { checkQueryName, METRIC_NAME } from "../queries.js";
import { type Ctx, isRecord, text } from "../schemaKit.js";

function addNameIssues(queries: unknown, allowUnknown: boolean, at: (string | number)[], ctx: Ctx): void {
  if (!Array.isArray(queries)) return;
  queries.forEach((q: unknown, i) => {
    const name = isRecord(q) ? text(q.name) : undefined;
    if (name === undefined || !METRIC_NAME.test(name)) return;
    for (const problem of checkQueryName(name, allowUnknown)) {
      ctx.addIssue({
        code: "custom",
        message: problem.message,
        path: [...at, i, problem.field],
        input: name,
      });
    }
  });
}

/** `metrics.queries[].name` (a check on the raw `metrics` section). */
export function checkMetricNames(metrics: unknown, ctx: Ctx): void {
  if (!isRecord(metrics)) return;
  addNameIssues(metrics.queries, metrics.allow_unknown_names === true, ["queries"], ctx);
}

/**
 * Scope query names follow `metrics.allow_unknown_names` too; checked over the whole file,
 * whose sections are already parsed (a failed section may still be raw: both are read).
 */
export function checkScopeMetricNames(file: unknown, ctx: Ctx): void {
  if (!isRecord(file) || !Array.isArray(file.clusters)) return;
  const m = file.metrics;
  const allowUnknown = isRecord(m) && (m.allowUnknownNames === true || m.allow_unknown_names === true);
  file.clusters.forEach((entry: unknown, c) => {
    const cluster = isRecord(entry) && isRecord(entry.settings) ? entry.settings : entry;
    if (!isRecord(cluster) || !Array.isArray(cluster.scopes)) return;
    cluster.scopes.forEach((scope: unknown, s) => {
      if (isRecord(scope))
        addNameIssues(scope.queries, allowUnknown, ["clusters", c, "scopes", s, "queries"], ctx);
    });
  });
}
