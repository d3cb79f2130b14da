/**
 * The canary's part of the demo: two targets, the first collection of the serverless cluster
 * (healthy; its answers carry the vCU they cost) and of the first cluster, whose data plane the
 * simulator slows and fails now and then (the degraded one), probed every 10 s (the shortest canary.interval).
 */
import type { CollectorDemo } from "../../polling/model.js";

/** What the demo's part reads of the simulator (the framework hands it over untyped). */
interface DemoSimulator {
  readonly clusters: readonly {
    readonly id: string;
    readonly plan: string;
    readonly collections: readonly { readonly dbName: string; readonly collectionName: string }[];
  }[];
}

/** The simulator's canary option: the first cluster's data plane slow (0.15 to 1.5 s) and failing one probe in five. */
export const DEMO_DEGRADED = { latencyMs: { min: 150, max: 1500 }, errorRate: 0.2 } as const;

/** The canary's part of the demo (`--demo`: the full demo only). */
export const canaryDemo: CollectorDemo = {
  settings: ({ full, simulator }) => {
    const sim = simulator as DemoSimulator | undefined;
    const first = sim?.clusters[0];
    const healthy = sim?.clusters.find((c) => c.plan === "Serverless" && c !== first);
    if (!full || first === undefined) return undefined;
    const target = (cluster: NonNullable<typeof first>) => {
      const collection = cluster.collections[0];
      return collection === undefined
        ? []
        : [
            {
              cluster_id: cluster.id,
              db_name: collection.dbName,
              collection_name: collection.collectionName,
            },
          ];
    };
    return {
      interval: "PT10S",
      targets: [...(healthy === undefined ? [] : target(healthy)), ...target(first)],
    };
  },
  simulator: () => ({ canary: { profiles: { "#0": DEMO_DEGRADED } } }),
};
