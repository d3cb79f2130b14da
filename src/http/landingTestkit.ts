import type { LandingInfo } from "./landing.js";
import type { TargetRow } from "./landingRows.js";

/** The collectors a cluster has a target of at scale (every default one polls each cluster). */
export const PER_CLUSTER_COLLECTORS = [
  "backup_policies",
  "backups",
  "cluster_metrics",
  "collections",
  "import_jobs",
  "inventory",
  "jobs",
  "spark_jobs",
] as const;

/** How a {@link landingAtScale} page is made. */
export interface ScaleShape {
  readonly clusters: number;
  /** Collection scopes of each cluster: each one more cluster_metrics target. */
  readonly scopesPerCluster: number;
  /** Every how many-th target fails (0: none does). */
  readonly failEvery: number;
  /** Characters of each failing target's error message. */
  readonly messageChars?: number;
  readonly nowMs?: number;
}

/** The instant every page of this kit is rendered at. */
export const NOW = 1_750_000_000_000;

/** A target up, last polled 5 s before NOW, with `more` over it. */
export function targetRow(collector: string, target: string, more: Partial<TargetRow> = {}): TargetRow {
  return {
    collector,
    target,
    up: true,
    lastSuccessMs: NOW - 5000,
    consecutiveFailures: 0,
    lastError: null,
    ...more,
  };
}

/** A page of `targets` at NOW, with `more` over it. */
export function landingOf(targets: readonly TargetRow[], more: Partial<LandingInfo> = {}): LandingInfo {
  return {
    version: "t",
    startedAtMs: NOW,
    nowMs: NOW,
    ready: true,
    series: 1,
    publishedAtMs: NOW,
    shard: { index: 0, total: 1 },
    targets,
    ...more,
  };
}

/** A cluster ID as the service makes them: in01- and 16 hex digits. */
function clusterId(i: number): string {
  return `in01-${(0x3b9aca00 + i * 7919).toString(16).padStart(16, "0")}`;
}

/**
 * The landing page of one replica at scale: `clusters` clusters, each a target of every
 * PER_CLUSTER_COLLECTORS and `scopesPerCluster` collection scopes more, plus the account-wide
 * targets; every `failEvery`-th target failing, the backups of a credential not permitted, a
 * third of the backup policies refused for their plan, a few partly failed, a few pending.
 */
export function landingAtScale(shape: ScaleShape): LandingInfo {
  const nowMs = shape.nowMs ?? NOW;
  const message = `GET /v2/clusters/{clusterId}: no answer within 10000 ms ${"(detail) ".repeat(40)}`.slice(
    0,
    shape.messageChars ?? 60,
  );
  const targets: TargetRow[] = [];
  // `c`: the cluster's number (-1 for account-wide targets), for kinds that go by cluster.
  const add = (collector: string, target: string, c: number): void => {
    const n = targets.length;
    const failing = shape.failEvery > 0 && n % shape.failEvery === 0;
    const pending = !failing && n % 997 === 1;
    targets.push({
      collector,
      target,
      up: failing ? false : pending ? null : true,
      lastSuccessMs: failing || pending ? null : nowMs - (n % 30) * 1000,
      consecutiveFailures: failing ? 1 + (n % 5) : 0,
      lastError: failing
        ? { code: Math.floor(n / shape.failEvery) % 3 === 0 ? "timeout" : "server_error", message }
        : null,
      notPermitted: !failing && !pending && collector === "backups" && c % 2 === 0 ? "team-b" : null,
      planRefusedAtMs:
        !failing && !pending && collector === "backup_policies" && c % 3 === 0 ? nowMs - 600_000 : null,
      partialError:
        !failing && !pending && collector === "import_jobs" && c % 50 === 0
          ? { code: "timeout", message: "1 call(s) failed: no answer" }
          : null,
      lastPollSeconds: pending ? null : 0.05 + (n % 97) / 20,
    });
  };
  for (let c = 0; c < shape.clusters; c++) {
    const id = clusterId(c);
    for (const collector of PER_CLUSTER_COLLECTORS) add(collector, id, c);
    for (let s = 0; s < shape.scopesPerCluster; s++) {
      add("cluster_metrics", `${id}/default/customer_embeddings_${String(s).padStart(3, "0")}`, c);
    }
  }
  for (const [collector, target] of [
    ["discovery", "discovery"],
    ["global_clusters", "global"],
    ["inventory", "global"],
    ["billing", "usage"],
    ["billing", "invoices"],
  ] as const) {
    add(collector, target, -1);
  }
  return {
    version: "1.0.0",
    startedAtMs: nowMs - 3_600_000,
    nowMs,
    ready: true,
    series: targets.length * 10,
    publishedAtMs: nowMs - 1000,
    shard: { index: 0, total: 1 },
    targets,
  };
}

/** The text of each cell of each body row of the table with `id` (tags dropped, entities kept). */
export function tableCells(html: string, id: string): string[][] {
  const start = html.indexOf(`<table id="${id}">`);
  if (start < 0) return [];
  const body = html.slice(html.indexOf("<tbody>", start), html.indexOf("</tbody>", start));
  return [...body.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? "").matchAll(/<td>(.*?)<\/td>/g)].map((cell) => (cell[1] ?? "").replace(/<[^>]*>/g, "")),
  );
}

/** The targets the table with `id` lists, as "collector target". */
export function listedTargets(html: string, id: string): string[] {
  return tableCells(html, id).map(([collector, target]) => `${collector} ${target}`);
}
