/**
 * The Spark jobs collectors in the demo: the simulated jobs by hand, and DEMO_BUSY_SPARK_JOBS
 * more on the first cluster that nobody configures, which Spark job discovery finds (a third
 * long finished, a third recently, a third in flight).
 */
import type { CollectorDemo } from "../../polling/model.js";

const DEMO_BUSY_SPARK_JOBS = 30;

interface Ref {
  readonly projectId: string;
  readonly jobId: string;
}

/** What it reads of the demo's simulator. */
interface Simulated {
  readonly state: { readonly sparkJobRefs: readonly Ref[]; readonly busySparkJobRefs: readonly Ref[] };
}

export const SPARK_JOBS_DEMO: CollectorDemo = {
  settings: (world) => {
    const { state } = world.simulator as Simulated;
    const busy = new Set(state.busySparkJobRefs.map((j) => `${j.projectId}/${j.jobId}`));
    return {
      interval: "PT30S",
      jobs: state.sparkJobRefs
        .filter((j) => !busy.has(`${j.projectId}/${j.jobId}`))
        .map((j) => ({ project_id: j.projectId, job_id: j.jobId })),
      discovery: { interval: "PT30S" },
    };
  },
  simulator: () => ({ busyClusterSparkJobs: DEMO_BUSY_SPARK_JOBS }),
};
