/**
 * List Backups, every page: organisation-wide, or per cluster when that takes fewer calls.
 *
 * Page 1 of the organisation-wide listing gives the total (`count`): the rest of that listing
 * costs ceil(count / 100) - 1 more calls, per-cluster listings at least one call per polled
 * cluster. The cheaper one is taken, so a cycle costs at most one call more than the fewest
 * possible: an organisation with many clusters lists once for all of them, a replica (shard)
 * polling a few clusters of a large organisation lists just those.
 */
import { listEveryPage } from "../../polling/pager.js";
import { type Backup, type BackupPage, type CloudApi, ENDPOINT } from "../../upstream/types.js";

/** The page size asked for: the documented maximum. */
export const BACKUP_PAGE_SIZE = 100;

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

/**
 * Every backup of one listing (`clusterId` undefined: the organisation), each once, through the
 * one pager; `first` is its page 1 when already read.
 */
function listAll(
  client: CloudApi,
  clusterId: string | undefined,
  first: BackupPage | undefined,
  signal: AbortSignal | undefined,
): Promise<Backup[]> {
  const scope = clusterId === undefined ? {} : { clusterId };
  return listEveryPage(
    {
      endpoint: ENDPOINT.listBackups,
      pageSize: BACKUP_PAGE_SIZE,
      fetch: (page, s) =>
        first !== undefined && page.currentPage === 1 && page.pageSize === BACKUP_PAGE_SIZE
          ? Promise.resolve(first)
          : client.listBackups({ ...scope, ...page }, s),
      items: (page) => page.backups,
      key: (b) => b.backupId,
    },
    signal,
  );
}

/** What one listing cycle found, and how it listed. */
interface BackupListing {
  readonly backups: readonly Backup[];
  readonly mode: ListingMode;
}

/**
 * Lists the backups of `clusterIds`: page 1 organisation-wide, then the cheaper of the rest
 * (see `chooseListing`). `perCluster` lists one cluster (it may decide the cluster cannot have
 * backups and return none). Backups of other clusters may be in the organisation's listing; the
 * mapping keeps only the polled ones. Each backup is in the result once: the pager keeps a
 * backup listed twice within a listing once, and a cluster's listing keeps only that cluster's
 * backups (a server that ignored the filter), so no two listings hold the same backup.
 */
export async function listBackupsOf(
  client: CloudApi,
  clusterIds: readonly string[],
  perCluster: (clusterId: string, list: () => Promise<Backup[]>) => Promise<readonly Backup[]>,
  signal?: AbortSignal,
): Promise<BackupListing> {
  const first = await client.listBackups({ pageSize: BACKUP_PAGE_SIZE, currentPage: 1 }, signal);
  const mode = chooseListing(first.total, BACKUP_PAGE_SIZE, clusterIds.length);
  if (mode === "organization") return { backups: await listAll(client, undefined, first, signal), mode };
  const backups: Backup[] = [];
  for (const id of clusterIds) {
    const listed = await perCluster(id, () => listAll(client, id, undefined, signal));
    for (const b of listed) if (b.clusterId === id) backups.push(b);
  }
  return { backups, mode };
}
