/**
 * Assembles the express application: body parsing, the /_sim controls, every API route
 * through the shared request path, and envelope-shaped answers for unknown paths and bad JSON.
 */
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import { mountAdmin } from "./admin.js";
import { alertRuleRoutes } from "./alert-rules.js";
import { apiKeyRoutes } from "./api-keys.js";
import { billingRoutes } from "./billing.js";
import { canaryRoutes } from "./canary.js";
import { dataPlaneRoutes } from "./data-plane.js";
import { dataProtectionRoutes } from "./data-protection-routes.js";
import { ApiCode } from "./errors.js";
import { groupRoutes } from "./groups.js";
import { nativeExportRoutes } from "./native-export.js";
import { onDemandRoutes } from "./on-demand.js";
import { onDemandComputeRoutes } from "./on-demand-compute.js";
import { pipelineRoutes } from "./pipelines.js";
import { privateEndpointRoutes } from "./private-endpoints.js";
import { mountRoute, type RequestPathDeps } from "./requestPath.js";
import { mutatingRoutes } from "./routes-mutating.js";
import { readRoutes } from "./routes-read.js";
import { storageIntegrationRoutes } from "./storage-integrations.js";

/** Builds the simulator's express app over `deps`. */
export function createApp(deps: RequestPathDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(express.json({ limit: "1mb" }));
  mountAdmin(app, deps);
  const planes = dataPlaneRoutes(deps.ctx.dataPlanes, deps.ctx.world.clusters);
  const billing = billingRoutes(deps.ctx.seed, deps.ctx.world.clusters);
  for (const route of [
    // Before Describe Cluster, whose /v2/clusters/:id would take "onDemandClusters" for an ID.
    ...onDemandRoutes(deps.ctx.onDemandClusters),
    ...onDemandComputeRoutes(deps.ctx.onDemandCompute, deps.ctx.world),
    ...alertRuleRoutes(deps.ctx.alertRules),
    ...privateEndpointRoutes(deps.ctx.privateEndpoints),
    ...storageIntegrationRoutes(deps.ctx.storageIntegrations),
    ...pipelineRoutes(deps.ctx.pipelines, deps.ctx.world),
    ...apiKeyRoutes(deps.ctx.apiKeys),
    ...readRoutes(deps.ctx),
    ...nativeExportRoutes(deps.ctx),
    ...groupRoutes(),
    ...dataProtectionRoutes(deps.ctx),
    ...billing,
    // Before the data plane's catch-all, which records anything else written to it as mutating.
    ...canaryRoutes(deps.ctx.dataPlanes, deps.ctx.world.clusters, deps.ctx.canary),
    ...planes,
    ...mutatingRoutes(),
  ])
    mountRoute(app, route, deps);

  app.use((req: Request, res: Response) => {
    res.status(404).json({ code: ApiCode.NOT_FOUND, message: `Not Found: ${req.method} ${req.path}` });
  });
  // Express recognises an error handler by its four parameters.
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (err as { status?: unknown }).status;
    if (status === 400 || status === 413 || status === 415) {
      res.status(status).json({ code: ApiCode.INVALID_PARAMETER, message: "invalid request body" });
      return;
    }
    deps.log(`simulator error: ${err instanceof Error ? err.stack : String(err)}`);
    res.status(500).json({ code: 500, message: "Internal Server Error" });
  });
  return app;
}
