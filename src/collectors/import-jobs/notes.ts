/** What `--check-config` says of the import jobs collector beside its rows. */
import type { Config } from "../../config/types.js";
import type { ScheduleView } from "../../polling/model.js";

/**
 * Clusters without a region (no v1 listing, and no v1 fallback where V2 is refused), and the
 * progress calls counted at their bound.
 */
export function importJobNotes(config: Config, { clusters, discovered }: ScheduleView): string[] {
  const cfg = config.importJobs;
  if (!cfg.enabled) return [];
  const notes: string[] = [];
  const withoutRegion = clusters.filter((c) => c.region === undefined).map((c) => c.id);
  if (withoutRegion.length > 0 && cfg.api === "v1") {
    notes.push(`import jobs are not polled for clusters without a region: ${withoutRegion.join(", ")}`);
  } else if (withoutRegion.length > 0 && cfg.api === "auto") {
    notes.push(
      `import jobs: clusters without a region have no v1 fallback where List Import Jobs V2 is refused: ${withoutRegion.join(", ")}`,
    );
  }
  if (cfg.api !== "v1" && cfg.progressMax > 0 && clusters.length + discovered > 0) {
    notes.push(
      `import jobs: Get Import Job Progress is counted at the most a cycle may ask: import_jobs.progress_max (${cfg.progressMax}) per cluster, lowered to fit the rate budget where many clusters share a credential`,
    );
  }
  return notes;
}
