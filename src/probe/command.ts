/**
 * The `--probe` command: loads the config, builds one client per credential exactly as the
 * exporter configures them (rate limit, margin, timeouts, size bounds), runs the probe and
 * prints its report. A bad config is the caller's exit 2 (ConfigError propagates).
 */
import { type CloudClient, createCloudClient } from "../cloud/client.js";
import { redactSecret } from "../cloud/errors.js";
import { credentialLabeler } from "../collectors/credentials.js";
import { replicaClusters, replicaSparkJobs } from "../collectors/targets.js";
import type { Shard } from "../config/shard.js";
import { loadSparkJobsFile } from "../config/sparkJobsFile.js";
import type { ClusterConfig, Config } from "../config/types.js";
import { runProbe } from "./probe.js";
import { formatProbe, probeExitCode } from "./report.js";

/** Retries per call: a probe answers quickly rather than riding out a long outage. */
const PROBE_MAX_RETRIES = 1;

/** What the command needs besides the config. */
export interface ProbeCommandOptions {
  readonly version: string;
  readonly shard: Shard;
  /** Where the report goes. */
  readonly write: (text: string) => void;
}

/** Probes what `config` polls (this shard's clusters and Spark jobs); returns the exit code. */
export async function probeCommand(config: Config, opts: ProbeCommandOptions): Promise<number> {
  const jobsFile = config.sparkJobs.jobsFile;
  const fileJobs = jobsFile === undefined ? [] : await loadSparkJobsFile(jobsFile);
  const clusters = replicaClusters(config, [], opts.shard);
  const clients = new Map<string, CloudClient>();
  const keyOf = (cluster: Pick<ClusterConfig, "apiKey">): string => cluster.apiKey ?? config.api.apiKey;
  const clientFor = (cluster: Pick<ClusterConfig, "apiKey">): CloudClient => {
    const key = keyOf(cluster);
    const api = config.api;
    let client = clients.get(key);
    if (client === undefined) {
      client = createCloudClient({
        baseUrl: api.baseUrl,
        controllerUrl: api.controllerUrl,
        apiKey: key,
        requestTimeoutMs: api.requestTimeoutMs,
        rateLimit: api.rateLimit,
        ...(api.rateLimitMarginMs === undefined ? {} : { rateLimitMarginMs: api.rateLimitMarginMs }),
        maxRetries: Math.min(api.maxRetries, PROBE_MAX_RETRIES),
        maxResponseBytes: api.maxResponseBytes,
        maxInFlight: api.maxInFlight,
        sendRequestTimeoutHeader: api.sendRequestTimeoutHeader ?? true,
        userAgent: `vdbcloud-exporter/${opts.version} (probe)`,
      });
      clients.set(key, client);
    }
    return client;
  };
  try {
    const report = await runProbe(config, {
      clientFor,
      credentialOf: credentialLabeler(config.api.apiKey, clusters),
      clusters,
      sparkJobs: replicaSparkJobs(config, fileJobs, opts.shard),
      now: Date.now,
    });
    // The client redacts keys from the service's messages already; this is the last guard.
    const keys = [config.api.apiKey, ...clusters.flatMap((c) => (c.apiKey ? [c.apiKey] : []))];
    opts.write(keys.reduce((text, key) => redactSecret(text, key), formatProbe(report)));
    return probeExitCode(report);
  } finally {
    await Promise.allSettled([...clients.values()].map((c) => c.close()));
  }
}
