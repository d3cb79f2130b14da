/**
 * The canary of `--probe` (dataPlane.ts `probeCanary`) as report data, and its lines of the
 * report (report.ts): one probe per target, as a run makes it.
 */

/** One canary target's probe: its outcome, and its time on the wire and cost when it succeeded. */
export interface CanaryProbe {
  readonly clusterId: string;
  /** "<db>/<collection>". */
  readonly collection: string;
  readonly operation: string;
  /** success, error, timeout or refused (the `outcome` label of vdbcloud_canary_requests_total). */
  readonly outcome: string;
  readonly seconds?: number;
  /** vCU the answer cost, when it said. */
  readonly cost?: number;
  /** The error's code and message of a failed probe. */
  readonly code?: string;
  readonly message?: string;
}

/** Whether a canary probe failed: the probe then exits 1, as for a cluster that does not answer. */
export function canaryFailed(c: CanaryProbe): boolean {
  return c.outcome !== "success";
}

/** The report's canary lines: one per target, then nothing else (failures are listed with the others). */
export function canaryLines(probes: readonly CanaryProbe[]): string[] {
  if (probes.length === 0) return [];
  return [
    "",
    "Canary (one probe per target; each search or query is billed in vCU on free and serverless clusters):",
    ...probes.map((c) => {
      const head = `  ${c.clusterId} ${c.collection} ${c.operation}`;
      if (!canaryFailed(c)) {
        const cost = c.cost === undefined ? "" : `, cost ${c.cost} vCU`;
        return `${head}: ok in ${Math.round((c.seconds ?? 0) * 1000)} ms${cost}`;
      }
      return `${head}: ${c.outcome} (${c.code ?? ""}): ${c.message ?? ""}`;
    }),
  ];
}
