/**
 * The simulator's own HTTP controls under /_sim (not part of the upstream API, not counted,
 * not rate limited, no key needed): stats, faults and the generated world.
 */
import type { Express, Request, Response } from "express";
import type { SimContext } from "./context.js";
import { ApiCode, SimulatorError } from "./errors.js";
import { FAULT_KINDS, type FaultKind, type Faults, validateFault } from "./faults.js";
import type { StatsRecorder } from "./stats.js";

/** What the /_sim routes read and change. */
interface AdminDeps {
  readonly ctx: SimContext;
  readonly stats: StatsRecorder;
  readonly faults: Faults;
}

function badRequest(res: Response, err: unknown): void {
  if (!(err instanceof SimulatorError)) throw err;
  res.status(400).json({ code: ApiCode.INVALID_PARAMETER, message: err.message });
}

/** Mounts the /_sim routes. */
export function mountAdmin(app: Express, deps: AdminDeps): void {
  app.get("/_sim/stats", (_req: Request, res: Response) => {
    res.json(deps.stats.toJSON());
  });
  app.post("/_sim/stats/reset", (_req: Request, res: Response) => {
    deps.stats.reset();
    res.json({ ok: true });
  });
  app.get("/_sim/faults", (_req: Request, res: Response) => {
    res.json(deps.faults.active());
  });
  app.post("/_sim/faults", (req: Request, res: Response) => {
    try {
      const body: unknown = req.body;
      const { kind, ...spec } = (typeof body === "object" && body !== null ? body : {}) as Record<
        string,
        unknown
      >;
      const hit = validateFault(kind, spec);
      deps.faults.set(hit.kind, hit.spec);
      res.json({ ok: true, active: deps.faults.active() });
    } catch (err) {
      badRequest(res, err);
    }
  });
  app.delete("/_sim/faults", (req: Request, res: Response) => {
    const kind = typeof req.query.kind === "string" ? req.query.kind : undefined;
    if (kind !== undefined && !(FAULT_KINDS as readonly string[]).includes(kind)) {
      badRequest(res, new SimulatorError("INVALID_FAULT", `unknown fault kind: ${kind}`));
      return;
    }
    deps.faults.clear(kind as FaultKind | undefined);
    res.json({ ok: true, active: deps.faults.active() });
  });
  // Removed endpoints: {"retireV1": true} and/or {"removeV2ImportList": true}; false undoes.
  app.get("/_sim/retired", (_req: Request, res: Response) => {
    res.json(deps.ctx.retired);
  });
  app.post("/_sim/retired", (req: Request, res: Response) => {
    const body: unknown = req.body;
    const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const unknown = Object.keys(b).filter((k) => k !== "retireV1" && k !== "removeV2ImportList");
    const bad = ["retireV1", "removeV2ImportList"].filter((k) => k in b && typeof b[k] !== "boolean");
    if (unknown.length > 0 || bad.length > 0) {
      badRequest(
        res,
        new SimulatorError(
          "INVALID_OPTION",
          `expected booleans retireV1, removeV2ImportList; got ${[...unknown, ...bad].join(", ")}`,
        ),
      );
      return;
    }
    if (typeof b.retireV1 === "boolean") deps.ctx.retired.retireV1 = b.retireV1;
    if (typeof b.removeV2ImportList === "boolean") deps.ctx.retired.removeV2ImportList = b.removeV2ImportList;
    res.json({ ok: true, ...deps.ctx.retired });
  });
  // A degraded data plane for the canary (canary.ts): {"cluster": "<id>|#n|*", "profile": {...}};
  // an empty profile restores it.
  app.get("/_sim/canary", (_req: Request, res: Response) => {
    res.json(deps.ctx.canary.profiles());
  });
  app.post("/_sim/canary", (req: Request, res: Response) => {
    const body: unknown = req.body;
    const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    try {
      if (typeof b.cluster !== "string")
        throw new SimulatorError("INVALID_OPTION", "cluster must be a string");
      deps.ctx.canary.setProfile(b.cluster, (b.profile ?? {}) as never);
      res.json({ ok: true, profiles: deps.ctx.canary.profiles() });
    } catch (err) {
      badRequest(res, err);
    }
  });
  app.get("/_sim/world", (_req: Request, res: Response) => {
    const { world, spark } = deps.ctx;
    res.json({
      clusters: world.clusters,
      projects: world.projects,
      regions: world.regions,
      sparkJobs: spark.refs(),
    });
  });
}
