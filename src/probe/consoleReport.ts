/**
 * The console listings of `--probe` (console.ts) as report data, and each as one printed line
 * of the report (report.ts).
 */

/** Each console listing, and what is not collected where the service refuses it. */
const NOT_COLLECTED = {
  "List On-Demand Clusters": "on-demand clusters are",
  "Describe On-Demand Compute": "on-demand compute is",
  "List Alert Rules": "the console's alert rules are",
  "List Private Endpoints": "private endpoints are",
  "List Storage Integrations": "storage integrations are",
  "List API Keys": "API keys are",
  "List Pipelines": "pipelines are",
} as const;

/** Why a server may not offer a listing (its endpoint is declared `absent`), where the report knows. */
const WHY_NOT_OFFERED: Partial<Record<keyof typeof NOT_COLLECTED, string>> = {
  "List Pipelines": " (the service discontinued them)",
};

/** Who the key is not, where the service refuses a listing: a Project Admin, unless named here. */
const NEEDED: Partial<Record<keyof typeof NOT_COLLECTED, string>> = {
  "List API Keys": "an Organization Owner (nor a Project Admin, who sees its projects' keys)",
};

/**
 * One console call of NOT_COLLECTED for the first known project (and region): answered (with
 * how many it listed, or the status it described), not permitted (the key is not a project admin
 * there), refused for the project's plan, failed, or skipped (nothing known to ask).
 */
export interface ConsoleProbe {
  readonly what: keyof typeof NOT_COLLECTED;
  /** The project (and region) asked. */
  readonly where?: string;
  /**
   * `not_offered`: the server has no such listing (the one refusal rule's `not_offered`: pipelines,
   * discontinued by the service); a run holds it a day, not a failure.
   */
  readonly state: "ok" | "not_permitted" | "plan_refused" | "not_offered" | "failed" | "skipped";
  readonly listed?: number;
  /** What Describe On-Demand Compute answered, in place of a count ("none given" without a status). */
  readonly status?: string;
  readonly code?: string;
  /** The service's message when refused or failed, or why it was skipped. */
  readonly message?: string;
}

/** A console listing in one line: what a user needs to know of it, and what is not collected. */
export function consoleLine(c: ConsoleProbe): string {
  const head = `${c.what}${c.where === undefined ? "" : ` (${c.where})`}`;
  const what = NOT_COLLECTED[c.what];
  switch (c.state) {
    case "ok":
      return `${head}: ok, ${c.status === undefined ? `${c.listed ?? 0} listed` : `status ${c.status}`}`;
    case "skipped":
      return `${head}: not probed (${c.message ?? ""})`;
    case "not_permitted":
      return `${head}: NOT PERMITTED: the key is not ${NEEDED[c.what] ?? "a Project Admin there"}; ${what} not collected${c.where === undefined ? "" : " there"}, the other collectors are unaffected: ${c.message ?? ""}`;
    case "not_offered":
      return `${head}: not offered here${WHY_NOT_OFFERED[c.what] ?? ""}; ${what} not collected there, asked again daily, not a failure: ${c.message ?? ""}`;
    case "plan_refused":
      return `${head}: refused for the project's plan; ${what} not collected there: ${c.message ?? ""}`;
    default:
      return `${head}: failed (see above)`;
  }
}
