/**
 * List Cloud Regions (v2): GET /v2/regions, optionally restricted to one cloud provider.
 */
import { z } from "zod";
import { defineEndpoint, V2 } from "./endpoint.js";
import { ENDPOINT, type Region } from "./types.js";

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
export const listRegionsEndpoint = defineEndpoint<ListRegionsArgs, RegionsData, Region[]>(
  ENDPOINT.listRegions,
  {
    request: (args) => ({
      target: V2,
      path: "/v2/regions",
      query: { cloudId: args.cloudId },
    }),
    schema: regionsDataSchema,
    normalize: (data) => normalizeRegions(data),
    // A cloud has tens of regions; a thousand leaves room for every cloud the service may add.
    maxItems: 1_000,
  },
);
