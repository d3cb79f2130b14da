/**
 * List Cloud Regions (v2): GET /v2/regions, optionally restricted to one cloud provider.
 */
import { z } from "zod";
import type { Region } from "../results.js";
import { defineEndpoint, V2 } from "./define.js";

/** Arguments of List Cloud Regions; `cloudId` is sent only when given. */
interface ListRegionsArgs {
  readonly cloudId?: string;
}

const regionSchema = z.object({
  cloudId: z.string(),
  regionId: z.string(),
  domain: z.string().nullish(),
});

/** The envelope's `data`: an array of regions. */
export const regionsDataSchema = z.array(regionSchema);

type RegionsData = z.infer<typeof regionsDataSchema>;

/** Maps `data` to Region[]; a missing domain becomes "". */
export function normalizeRegions(data: RegionsData): Region[] {
  return data.map((r) => ({ cloudId: r.cloudId, regionId: r.regionId, domain: r.domain ?? "" }));
}

/** List Cloud Regions (v2). */
export const listRegionsEndpoint = defineEndpoint("GET /v2/regions", {
  scope: "account",
  paging: "none",
  shardZero: true,
  planOrder: 10,
}).as<ListRegionsArgs, RegionsData, Region[]>({
  request: (args) => ({
    target: V2,
    query: { cloudId: args.cloudId },
  }),
  schema: regionsDataSchema,
  normalize: (data) => normalizeRegions(data),
  // A cloud has tens of regions; a thousand leaves room for every cloud the service may add.
  maxItems: 1_000,
});
