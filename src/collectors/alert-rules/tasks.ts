/**
 * The console's alert rules: List Alert Rules for each known project (List Projects V2, and the
 * polled clusters' projects), every page through the one pager, on the replica that owns
 * account-wide calls (shard 0), with the default credential. One task, target "organization";
 * each project is a part of its poll (polling/parts.ts): a project whose listing fails keeps its
 * last good series and is shown on the target's health. A key that is a project admin nowhere is
 * "not permitted" (the one refusal rule of runPoll), one line.
 */
import { ownsGlobalCalls } from "../../config/shard.js";
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { listEveryPage } from "../../polling/pager.js";
import { pollParts } from "../../polling/parts.js";
import { knownProjects, mergeKnownProjects } from "../../polling/projects.js";
import { runPoll } from "../../polling/runtime.js";
import { type AlertRule, type CloudApi, ENDPOINT } from "../../upstream/types.js";
import { mapAlertRules } from "./mapping.js";

const COLLECTOR = "alert_rules";
const TARGET = "organization";
/** What a key needs to list a project's alert rules, for the one log line of a refusal. */
const ROLE = "Project Admin";

/** The page size asked for: the documented maximum. */
export const ALERT_RULES_PAGE_SIZE = 100;

/** Every alert rule of `projectId`, each once, read through the pager. */
export function listAllAlertRules(
  client: CloudApi,
  projectId: string,
  signal?: AbortSignal,
): Promise<AlertRule[]> {
  return listEveryPage(
    {
      endpoint: ENDPOINT.listAlertRules,
      pageSize: ALERT_RULES_PAGE_SIZE,
      fetch: (page, s) => client.listAlertRules({ projectId, ...page }, s),
      items: (page) => page.rules,
      key: (rule) => rule.ruleId,
    },
    signal,
  );
}

/** The one task (shard 0, `alert_rules.enabled`), or none. */
function alertRuleTasks(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.alertRules;
  if (!cfg.enabled || !ownsGlobalCalls(env.shard)) return [];
  const client = env.clients.forCluster({});
  const credential = env.clients.credentialOf({});
  // Every configured cluster (any shard's) and this replica's discovered ones.
  const places = [...env.config.clusters, ...env.clusters];
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return [
    collectorTask({
      id: { collector: COLLECTOR, target: TARGET },
      credential,
      calls: [
        { endpoint: ENDPOINT.listProjectsV2, count: 1, atLeast: false },
        // A page per known project (more for a project of over 100 rules): the config's here,
        // and at least one, since every organisation has a project.
        {
          endpoint: ENDPOINT.listAlertRules,
          count: Math.max(1, mergeKnownProjects([], places).length),
          atLeast: true,
        },
      ],
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(env.ctx, { collector: COLLECTOR, target: TARGET, credential, role: ROLE }, async (run) => {
          const projects = await knownProjects(client, places, signal);
          await pollParts(
            env.ctx,
            run,
            {
              collector: COLLECTOR,
              target: TARGET,
              key: (p) => p.projectId,
              poll: async (p, s) =>
                mapAlertRules(await listAllAlertRules(client, p.projectId, s), p.projectId),
              ttlMs,
            },
            projects,
            signal,
          );
        }),
    }),
  ];
}

/** The console's own alert rules, per known project, to compare with the exporter's alerts. */
export const alertRulesCollector = defineCollector(COLLECTOR, alertRuleTasks);
