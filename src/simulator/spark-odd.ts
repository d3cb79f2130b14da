/**
 * The `oddSparkFields` quirk: a Describe Spark Job payload as a server may send it within what
 * the spec leaves open. Fields no reader needs come in other JSON types (the spec itself types
 * `input` as an object under `details` and as a string under `precheckReport`), unknown fields
 * appear, null timestamps are empty strings, CANCELLING is spelled CANCELING, a failure reason
 * does not say whether it is retryable, and a precheck that passed carries no `errors` list.
 * Deterministic, so that a test can state the exact exposition it must produce.
 */
import type { WireSparkJob } from "./spark-jobs.js";

/** `view` with every odd field of the quirk; `view` itself is left as it was. */
export function oddSparkJobView(view: WireSparkJob): Record<string, unknown> {
  const { artifact, details, failureReason, precheckReport } = view;
  const emptyIfNull = (ts: string | null): string => ts ?? "";
  let precheck: Record<string, unknown> | null = null;
  if (precheckReport !== null) {
    const { errors, ...rest } = precheckReport;
    precheck = {
      ...rest,
      input: { type: "VOLUME", volumeName: details.input.volumeName, path: details.input.path },
      columnMapping: Object.entries(precheckReport.columnMapping),
      fields: null,
      ...(errors.length > 0 ? { errors } : {}),
    };
  }
  let failure: Record<string, unknown> | null = null;
  if (failureReason !== null) {
    const { retryable: _unsaid, ...rest } = failureReason;
    failure = rest;
  }
  return {
    ...view,
    status: view.status === "CANCELLING" ? "CANCELING" : view.status,
    description: { text: view.description, lang: "en" },
    artifact: artifact.artifactUri,
    details: {
      ...details,
      input: `volume://${details.input.volumeName}/${details.input.path}`,
      fields: details.fields.join(","),
      columnMapping: Object.entries(details.columnMapping),
      mode: 1,
      resourceSize: { cu: 2 },
    },
    failureReason: failure,
    precheckReport: precheck,
    submittedAt: emptyIfNull(view.submittedAt),
    startedAt: emptyIfNull(view.startedAt),
    finishedAt: emptyIfNull(view.finishedAt),
    progress: { percent: view.status === "SUCCEEDED" ? 100 : 0 },
    labels: ["backfill", 7, null],
  };
}
