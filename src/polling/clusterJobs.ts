/**
 * What a collector remembers per cluster, per listed job, across polls and reloads: the part
 * every such memory shares (finding a job, forgetting clusters no longer polled, its size).
 */

/**
 * A per cluster, per job memory. Subclasses decide what a listing records in `clusters`; the
 * memory stays bounded because `retain` drops every cluster no longer polled.
 */
export class ClusterJobMemory<Entry> {
  /** Per cluster ID, per job ID, what is remembered. */
  protected readonly clusters = new Map<string, Map<string, Entry>>();

  /** What is remembered of one job of the cluster's last listing, if anything. */
  protected entry(clusterId: string, jobId: string): Entry | undefined {
    return this.clusters.get(clusterId)?.get(jobId);
  }

  /** Forgets every cluster not in `clusterIds` (the clusters still polled). */
  retain(clusterIds: ReadonlySet<string>): void {
    for (const id of this.clusters.keys()) if (!clusterIds.has(id)) this.clusters.delete(id);
  }

  /** Jobs remembered over all clusters. */
  get size(): number {
    let n = 0;
    for (const jobs of this.clusters.values()) n += jobs.size;
    return n;
  }
}
