/**
 * What the rendered error-budget rules must hold, spelled out once for the renderer's tests and
 * the shipped file's: the alerts, a page (critical) and a ticket (warning) per SLI, in order.
 * Used by tests only; production code never imports this module.
 */
export const EXPECTED_SLO_ALERTS: readonly string[] = [
  "VdbcloudCanaryAvailabilityBudgetBurn critical",
  "VdbcloudCanaryAvailabilityBudgetBurn warning",
  "VdbcloudCanaryLatencyBudgetBurn critical",
  "VdbcloudCanaryLatencyBudgetBurn warning",
  "VdbcloudServiceAvailabilityBudgetBurn critical",
  "VdbcloudServiceAvailabilityBudgetBurn warning",
];
