/**
 * The normalized result of Describe On-Demand Compute (v2), re-exported by types.ts. Like every
 * shape there, it knows nothing of the wire's variants or of Prometheus.
 */

/**
 * Whether on-demand compute is on for one project in one region: the compute the service's
 * on-demand clusters run on. `status` is the raw upstream value (the reference: disabled,
 * enabling, enabled, abnormal), null when the answer left it out or sent it unreadable (no state
 * is known, so none is shown). `projectId` and `regionId` are what the answer names, or the ones
 * asked when it names none.
 */
export interface OnDemandCompute {
  readonly projectId: string;
  readonly regionId: string;
  readonly status: string | null;
}
