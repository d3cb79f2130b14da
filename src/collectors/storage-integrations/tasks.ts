/**
 * Storage integrations: List Storage Integrations for each known project (List Projects V2, and
 * the polled clusters' projects), every page through the one pager, on the replica that owns
 * account-wide calls (shard 0), with the default credential. One task, target "organization";
 * each project is a part of its poll (polling/parts.ts): a project whose listing fails keeps its
 * last good series and is shown on the target's health. A key that may list no project's
 * integrations is "not permitted" (the one refusal rule of runPoll), one line.
 *
 * Describe Storage Integration is never called (its answer names the credentials the service
 * assumes): the listing says all that is watched, the status and the message.
 */

import { defineCollector } from "../../polling/model.js";
import { eachProjectPaged, type ProjectPages, sectionListingTasks } from "../../polling/projectTask.js";
import type { PollContext } from "../../polling/runtime.js";
import { ENDPOINT, type StorageIntegration, type StorageIntegrationPage } from "../../upstream/types.js";
import { STORAGE_INTEGRATIONS_SECTION } from "./config.js";
import { STORAGE_INTEGRATION_FAMILIES } from "./families.js";
import { mapStorageIntegrations } from "./mapping.js";
import { INTEGRATION_MESSAGES, type IntegrationLine } from "./messages.js";

const COLLECTOR = "storage_integrations";

/** The page size asked for: the documented maximum. */
export const STORAGE_INTEGRATIONS_PAGE_SIZE = 100;

/** List Storage Integrations of one project, every page: read with `listProjectPages`. */
export const STORAGE_INTEGRATION_PAGES: ProjectPages<StorageIntegrationPage, StorageIntegration> = {
  endpoint: ENDPOINT.listStorageIntegrations,
  pageSize: STORAGE_INTEGRATIONS_PAGE_SIZE,
  fetch: (client, asked, signal) => client.listStorageIntegrations(asked, signal),
  items: (page) => page.integrations,
  key: (integration) => integration.integrationId,
};

/** Writes the lines of one listing. */
function log(logger: PollContext["logger"], lines: readonly IntegrationLine[]): void {
  for (const line of lines) logger?.[line.level]({ collector: COLLECTOR, ...line.fields }, line.msg);
}

/** The one task (shard 0, `storage_integrations.enabled`), or none. */
const storageIntegrationTasks = sectionListingTasks(
  (config) => config.storageIntegrations,
  (env) => {
    const messages = env.state.get(INTEGRATION_MESSAGES);
    return {
      collector: COLLECTOR,
      target: "organization",
      // The reference names no role for the listing; the console's integrations are a project
      // admin's (or the organization owner's) to manage.
      role: "Project Admin",
      // A page per known project at least (more for a project of over 100 integrations).
      ...eachProjectPaged(STORAGE_INTEGRATION_PAGES, (integrations, projectId) => {
        log(env.ctx.logger, messages.lines(projectId, integrations));
        return mapStorageIntegrations(integrations, projectId);
      }),
    };
  },
);

/** The storage integrations of each known project: a broken one fails the next export through it. */
export const storageIntegrationsCollector = defineCollector(COLLECTOR, storageIntegrationTasks, {
  polls: "the storage integrations per known project (shard 0)",
  config: STORAGE_INTEGRATIONS_SECTION,
  // Integrations change rarely (PT15M by default); the demo reads them every minute.
  demo: { settings: () => ({ interval: "PT1M" }), simulator: () => ({ storageIntegrationError: true }) },
  areas: [{ title: "Storage integrations", families: STORAGE_INTEGRATION_FAMILIES }],
});
