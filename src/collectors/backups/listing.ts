/**
 * List Backups, every page: organisation-wide, or per cluster when that takes fewer calls.
 *
 * Page 1 of the organisation-wide listing gives the total (`count`): the rest of that listing
 * costs ceil(count / 100) - 1 more calls, per-cluster listings at least one call per polled
 * cluster. The cheaper one is taken, so a cycle costs at most one call more than the fewest
 * possible: an organisation with many clusters lists once for all of them, a replica (shard)
 * polling a few clusters of a large organisation lists just those.
 */
import type { Backup, BackupPage, CloudApi } from "../../upstream/types.js";

/** The page size asked for: the documented maximum. */
export const BACKUP_PAGE_SIZE = 100;
/** Hard stop per listing: a server that ignores `currentPage` must not keep a poll going. */
const MAX_BACKUP_PAGES = 200;

/** How the rest of a cycle lists backups, after page 1 of the organisation-wide listing. */
type ListingMode = "organization" | "per_cluster";

/**
 * The cheaper way to finish: the remaining organisation pages, or one listing per cluster (at
 * least one call each). Ties go to the organisation-wide listing (its page 1 is already paid), and so does an
 * answer without a total.
 */
export function chooseListing(orgTotal: number | null, pageSize: number, clusters: number): ListingMode {
  // Without a total, nothing says per-cluster listings would be cheaper.
  if (orgTotal === null) return "organization";
  const remaining = Math.max(0, Math.ceil(orgTotal / pageSize) - 1);
  return remaining <= clusters ? "organization" : "per_cluster";
}

/** Whether `page` is the last one: it says so by the total, or it came back short. */
function isLast(page: BackupPage, fetched: number, asked: number): boolean {
  if (page.backups.length === 0 || page.backups.length < Math.min(asked, page.pageSize)) return true;
  return page.total !== null && fetched >= page.total;
}

/** Every page of one listing (`clusterId` undefined: the organisation), starting after `first`. */
async function rest(
  client: CloudApi,
  clusterId: string | undefined,
  first: BackupPage | undefined,
  signal: AbortSignal | undefined,
): Promise<Backup[]> {
  const out: Backup[] = [];
  let page = first;
  let currentPage = 1;
  if (page === undefined) {
    page = await client.listBackups(
      { ...cluster(clusterId), pageSize: BACKUP_PAGE_SIZE, currentPage },
      signal,
    );
  }
  out.push(...page.backups);
  while (!isLast(page, out.length, BACKUP_PAGE_SIZE) && currentPage < MAX_BACKUP_PAGES) {
    currentPage += 1;
    page = await client.listBackups(
      { ...cluster(clusterId), pageSize: BACKUP_PAGE_SIZE, currentPage },
      signal,
    );
    out.push(...page.backups);
  }
  return out;
}

const cluster = (clusterId: string | undefined) => (clusterId === undefined ? {} : { clusterId });

/** What one listing cycle found, and how it listed. */
interface BackupListing {
  readonly backups: readonly Backup[];
  readonly mode: ListingMode;
}

/**
 * Lists the backups of `clusterIds`: page 1 organisation-wide, then the cheaper of the rest
 * (see `chooseListing`). `perCluster` lists one cluster (it may decide the cluster cannot have
 * backups and return none). Backups of other clusters may be in the result; the mapping keeps
 * only the polled ones.
 */
export async function listBackupsOf(
  client: CloudApi,
  clusterIds: readonly string[],
  perCluster: (clusterId: string, list: () => Promise<Backup[]>) => Promise<readonly Backup[]>,
  signal?: AbortSignal,
): Promise<BackupListing> {
  const first = await client.listBackups({ pageSize: BACKUP_PAGE_SIZE, currentPage: 1 }, signal);
  const mode = chooseListing(first.total, BACKUP_PAGE_SIZE, clusterIds.length);
  if (mode === "organization") return { backups: await rest(client, undefined, first, signal), mode };
  const backups: Backup[] = [];
  for (const id of clusterIds) {
    backups.push(...(await perCluster(id, () => rest(client, id, undefined, signal))));
  }
  return { backups, mode };
}
