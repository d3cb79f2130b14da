/**
 * The `--probe` command: loads the config, builds one client per credential exactly as the
 * exporter configures them (rate limit, margin, timeouts, size bounds), runs the probe and
 * prints its report. A bad config is the caller's exit 2 (ConfigError propagates).
 */

import { ApiClients, FOREGROUND_CLOCK } from "../api-clients/apiClients.js";
import { BILLING_SECTION } from "../collectors/billing/config.js";
import { JOB_IDS_LIST } from "../collectors/jobs/list.js";
import { TARGET_LISTS } from "../collectors/registry.js";
import { SPARK_JOBS_LIST } from "../collectors/spark-jobs/list.js";
import { ownKeySections } from "../config/section.js";
import { ownKeyOf } from "../config/sectionSettings.js";
import type { Shard } from "../config/shard.js";
import type { Config } from "../config/types.js";
import { credentialLabeler } from "../polling/credentials.js";
import { listedTargets, readListFiles } from "../polling/targetLists.js";
import { replicaClusters } from "../polling/targets.js";
import { redactSecret } from "../upstream/errors.js";
import type { ClientObserver } from "../upstream/types.js";
import { runProbe } from "./probe.js";
import { formatProbe, probeExitCode } from "./report.js";

/** Retries per call: a probe answers quickly rather than riding out a long outage. */
const PROBE_MAX_RETRIES = 1;

/** The probe counts nothing: its report says what happened. */
const SILENT: ClientObserver = { attempt() {}, retry() {}, rateLimited() {}, schemaError() {} };

/** What the command needs besides the config. */
interface ProbeCommandOptions {
  readonly version: string;
  readonly shard: Shard;
  /** Where the report goes. */
  readonly write: (text: string) => void;
}

/** Probes what `config` polls (this shard's clusters and Spark jobs); returns the exit code. */
export async function probeCommand(config: Config, opts: ProbeCommandOptions): Promise<number> {
  const lists = listedTargets(config, await readListFiles(TARGET_LISTS, config), opts.shard);
  const clusters = replicaClusters(config, [], opts.shard);
  // The exporter's own API clients, so the probe's clients are built exactly as a run's.
  const clients = new ApiClients({
    config: () => ({
      ...config,
      api: { ...config.api, maxRetries: Math.min(config.api.maxRetries, PROBE_MAX_RETRIES) },
    }),
    shard: opts.shard,
    version: opts.version,
    observer: SILENT,
    clock: FOREGROUND_CLOCK,
    onCloseError: () => {},
  });
  try {
    const report = await runProbe(config, {
      clientFor: clients.forCluster,
      credentialOf: credentialLabeler(config.api.apiKey, clusters),
      clusters,
      sparkJobs: lists.mine(SPARK_JOBS_LIST),
      jobIds: lists.mine(JOB_IDS_LIST),
      now: Date.now,
      ...(config.billing.enabled ? { billingClient: clients.ownKey(BILLING_SECTION) } : {}),
      ownKeyClient: (section) => clients.ownKey(section),
      dataPlane: clients.dataPlane,
    });
    // The client redacts keys from the service's messages already; this is the last guard.
    const keys = [
      config.api.apiKey,
      ...ownKeySections().map((section) => ownKeyOf(config, section)),
      ...clusters.flatMap((c) => (c.apiKey ? [c.apiKey] : [])),
      ...clusters.flatMap((c) => (c.dataPlaneToken ? [c.dataPlaneToken] : [])),
    ];
    opts.write(keys.reduce((text, key) => redactSecret(text, key), formatProbe(report)));
    return probeExitCode(report);
  } finally {
    await clients.closeAll();
  }
}
