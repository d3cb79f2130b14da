/**
 * `--probe` of what a project's console holds: List On-Demand Clusters and Describe On-Demand
 * Compute for the first known project and region, and List Alert Rules, List Private Endpoints
 * and List Storage Integrations page 1 for the first known project (each needs a project
 * admin), and List API Keys page 1 for the organization (an Organization Owner sees every
 * key), and List Pipelines (V1) for the first known project and region ("not offered here"
 * where the service has none). The known projects are those List Projects V2 gave the probe,
 * and the configured clusters' (polling/projects.ts), as a run would ask them.
 */
import { API_KEYS_SECTION } from "../collectors/api-keys/config.js";
import type { ConfigSection } from "../config/section.js";
import type { ClusterConfig, Config } from "../config/types.js";
import { type KnownProject, mergeKnownProjects, projectRegions } from "../polling/projects.js";
import { CloudError } from "../upstream/errors.js";
import { type Refusal, refusalOf } from "../upstream/refusals.js";
import type { CloudApi } from "../upstream/types.js";
import type { ConsoleProbe } from "./consoleReport.js";

/** The report's state of each refusal (the one rule's, as a run reads it); no refusal is a failure. */
const STATE_OF: Record<Refusal, ConsoleProbe["state"]> = {
  key_refused: "failed",
  not_permitted: "not_permitted",
  plan_refused: "plan_refused",
  not_offered: "not_offered",
};

/** One call's outcome as the report names it; anything but a CloudError is a bug. */
async function outcome(
  what: ConsoleProbe["what"],
  where: string | undefined,
  call: () => Promise<number>,
): Promise<ConsoleProbe> {
  try {
    return { what, ...(where === undefined ? {} : { where }), state: "ok", listed: await call() };
  } catch (err) {
    if (!(err instanceof CloudError)) throw err;
    const refusal = refusalOf(err);
    const state = refusal === undefined ? "failed" : STATE_OF[refusal];
    return { what, ...(where === undefined ? {} : { where }), state, code: err.code, message: err.message };
  }
}

/** Describe On-Demand Compute for the first known project and region, with the status it gave. */
async function probeOnDemandCompute(
  client: CloudApi,
  pair: { readonly projectId: string; readonly regionId: string } | undefined,
): Promise<ConsoleProbe> {
  const what = "Describe On-Demand Compute";
  if (pair === undefined) return { what, state: "skipped", message: "no project and region known" };
  const answered: { status: string | null } = { status: null };
  const probe = await outcome(what, `${pair.projectId}, ${pair.regionId}`, async () => {
    answered.status = (await client.describeOnDemandCompute(pair)).status;
    return 1;
  });
  if (probe.state !== "ok") return probe;
  // A description, not a listing: its status takes the place of a count.
  const { listed: _one, ...answer } = probe;
  return { ...answer, status: answered.status ?? "none given" };
}

/**
 * List Pipelines (V1) for the first known project and region, at the region's controller: "not
 * offered here" where the controller has no pipelines (the one refusal rule, as a run reads it),
 * else as any listing.
 */
async function probePipelines(
  client: CloudApi,
  pair: { readonly projectId: string; readonly regionId: string } | undefined,
): Promise<ConsoleProbe> {
  const what = "List Pipelines";
  if (pair === undefined) return { what, state: "skipped", message: "no project and region known" };
  return outcome(
    what,
    `${pair.projectId}, ${pair.regionId}`,
    async () => (await client.listPipelines(pair)).length,
  );
}

/**
 * Probes each console listing a run would make (none when its collector is off); a listing with
 * no project (or region) to ask is reported as skipped. `listed` are the projects List Projects
 * V2 gave, if it was asked.
 */
export async function probeConsole(
  config: Config,
  client: CloudApi,
  listed: readonly KnownProject[],
  clusters: readonly ClusterConfig[],
  ownKeyClient?: (section: ConfigSection) => CloudApi,
): Promise<ConsoleProbe[]> {
  const known = mergeKnownProjects(listed, clusters);
  const out: ConsoleProbe[] = [];
  if (config.inventory.enabled && config.inventory.onDemand) {
    const pair = projectRegions(known)[0];
    out.push(
      pair === undefined
        ? { what: "List On-Demand Clusters", state: "skipped", message: "no project and region known" }
        : await outcome(
            "List On-Demand Clusters",
            `${pair.projectId}, ${pair.regionId}`,
            async () => (await client.listOnDemandClusters(pair)).length,
          ),
    );
  }
  if (config.onDemandCompute.enabled) {
    out.push(await probeOnDemandCompute(client, projectRegions(known)[0]));
  }
  if (config.alertRules.enabled) {
    const project = known[0];
    out.push(
      project === undefined
        ? { what: "List Alert Rules", state: "skipped", message: "no project known" }
        : await outcome(
            "List Alert Rules",
            project.projectId,
            async () =>
              (await client.listAlertRules({ projectId: project.projectId, pageSize: 1, currentPage: 1 }))
                .total ?? 0,
          ),
    );
  }
  if (config.privateEndpoints.enabled) {
    const project = known[0];
    out.push(
      project === undefined
        ? { what: "List Private Endpoints", state: "skipped", message: "no project known" }
        : await outcome("List Private Endpoints", project.projectId, async () => {
            const page = await client.listPrivateEndpoints({
              projectId: project.projectId,
              pageSize: 1,
              currentPage: 1,
            });
            return page.total ?? page.listed;
          }),
    );
  }
  if (config.storageIntegrations.enabled) {
    const project = known[0];
    out.push(
      project === undefined
        ? { what: "List Storage Integrations", state: "skipped", message: "no project known" }
        : await outcome("List Storage Integrations", project.projectId, async () => {
            const page = await client.listStorageIntegrations({
              projectId: project.projectId,
              pageSize: 1,
              currentPage: 1,
            });
            return page.total ?? page.listed;
          }),
    );
  }
  if (config.apiKeys.enabled) {
    // Account-wide: no project to choose; page 1 of one key, the count says how many. Asked with
    // the key the collector lists with: the section's own (an Owner's, beside a read-only main key).
    const keys = ownKeyClient?.(API_KEYS_SECTION) ?? client;
    out.push(
      await outcome("List API Keys", undefined, async () => {
        const page = await keys.listApiKeys({ pageSize: 1, currentPage: 1 });
        return page.total ?? page.listed;
      }),
    );
  }
  if (config.pipelines.enabled) out.push(await probePipelines(client, projectRegions(known)[0]));
  return out;
}
