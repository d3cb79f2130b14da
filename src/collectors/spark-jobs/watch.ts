/**
 * The Spark job collector's state: which configured jobs have settled in a terminal status,
 * kept across polls and reloads so that a reload does not resume polling finished jobs.
 */
import { jobWatchSlot } from "../../polling/settle.js";

/** The Spark job collector's slot in the collectors' state. */
export const SPARK_JOB_WATCH = jobWatchSlot("Spark job watch");
