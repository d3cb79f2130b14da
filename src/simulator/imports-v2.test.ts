import { request } from "undici";
import { describe, expect, it } from "vitest";
import { v2State } from "./import-jobs.js";
import type { Simulator } from "./index.js";
import { simulatorPerSuite } from "./testkit.js";

const T0 = Date.UTC(2025, 4, 1, 12, 0, 0);
let clock = T0;
let sim: Simulator;
simulatorPerSuite({ now: () => clock, clusters: 2, importJobsPerCluster: 12, rateLimitPerSecond: 0 }, (s) => {
  sim = s;
});

async function call(method: "GET" | "POST", path: string, body?: unknown) {
  const res = await request(`${sim.baseUrl}${path}`, {
    method,
    headers: {
      authorization: "Bearer k",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: res.statusCode,
    // biome-ignore lint/suspicious/noExplicitAny: the test reads the answer as the wire gives it
    json: (await res.body.json()) as { code: number; data?: any; message?: string },
  };
}

describe("v2State", () => {
  it.each([
    ["ImportPending", "Pending", "Pending"],
    ["ImportRunning", "InProgress", "Importing"],
    ["ImportCompleted", "Completed", "Completed"],
    ["ImportFailed", "Failed", "Failed"],
    ["ImportPaused", "ImportPaused", "ImportPaused"],
  ])("%s -> list %s, describe %s", (v1, list, describe) => {
    expect(v2State(v1, "list")).toBe(list);
    expect(v2State(v1, "describe")).toBe(describe);
  });
});

describe("List Import Jobs (V2), Get Import Job Progress (V2), List Projects (V2)", () => {
  it("pages the listing with V2 state names, the same jobs as v1", async () => {
    const cluster = sim.clusters[0]?.id ?? "";
    const v1 = sim.state.importJobs(cluster);
    const pages = [];
    for (const currentPage of [1, 2, 3]) {
      const { status, json } = await call("POST", "/v2/vectordb/jobs/import/list", {
        clusterId: cluster,
        pageSize: 5,
        currentPage,
      });
      expect(status).toBe(200);
      expect(json.code).toBe(0);
      expect(json.data).toMatchObject({ count: 12, currentPage, pageSize: 5 });
      pages.push(...json.data.records);
    }
    expect(pages.map((j: { jobId: string }) => j.jobId)).toEqual(v1.map((j) => j.jobId));
    expect(pages.map((j: { state: string }) => j.state)).toEqual(v1.map((j) => v2State(j.state, "list")));
  });

  it("moves progress and rows of a running job with the clock, and gives a failed job's reason", async () => {
    const cluster = sim.clusters[1]?.id ?? "";
    const id = sim.state.addImportJob(cluster, { state: "ImportRunning", collectionName: "docs" });
    sim.state.setImportJobProgress(cluster, id, { progress: 40, totalRows: 4000 });
    const first = await call("POST", "/v2/vectordb/jobs/import/describe", { clusterId: cluster, jobId: id });
    expect(first.json.data).toMatchObject({
      jobId: id,
      state: "Importing",
      progress: 40,
      totalRows: 4000,
      reason: "",
    });
    sim.state.setImportJobState(cluster, id, "ImportFailed");
    sim.state.setImportJobProgress(cluster, id, { reason: "bad file" });
    const failed = await call("POST", "/v2/vectordb/jobs/import/describe", { clusterId: cluster, jobId: id });
    expect(failed.json.data).toMatchObject({ state: "Failed", reason: "bad file" });

    // A generated job: pending, then running with growing progress, then finished.
    const details = sim.state.importJobDetails(cluster);
    const running = details.find((d) => d.state === "ImportRunning");
    expect(running).toBeDefined();
    const before = running?.progress ?? 0;
    clock += 20_000;
    const after = sim.state.importJobDetails(cluster).find((d) => d.jobId === running?.jobId);
    expect(after?.state === "ImportRunning" ? after.progress : 100).toBeGreaterThan(before);
    clock = T0;
  });

  it("refuses an unknown job and an unknown cluster, as the service does", async () => {
    const cluster = sim.clusters[0]?.id ?? "";
    expect(
      (await call("POST", "/v2/vectordb/jobs/import/describe", { clusterId: cluster, jobId: "nope" })).json
        .code,
    ).toBe(80060);
    expect((await call("POST", "/v2/vectordb/jobs/import/list", { clusterId: "in01-none" })).json.code).toBe(
      80020,
    );
  });

  it("lists projects with plan, org type and instanceCount as a number and as a string", async () => {
    const { json } = await call("GET", "/v2/projects");
    expect(json.code).toBe(0);
    expect(json.data).toHaveLength(sim.projects.length);
    const [a, b] = json.data;
    expect(a).toMatchObject({ projectId: sim.projects[0]?.id, plan: "Enterprise", orgType: "SAAS" });
    expect(typeof a.instanceCount).toBe("number");
    if (b !== undefined) expect(typeof b.instanceCount).toBe("string");
  });

  it("retires v1 and removes the V2 listing on demand: HTTP 404, counted, nothing else changed", async () => {
    const cluster = sim.clusters[0]?.id ?? "";
    const region = sim.clusters[0]?.regionId ?? "";
    const v1 = `/ctl/${region}/v1/vector/collections/import/list?clusterId=${cluster}`;
    expect((await call("GET", v1)).status).toBe(200);
    sim.state.setRetired({ retireV1: true });
    expect(await call("GET", v1)).toMatchObject({ status: 404, json: { code: 404 } });
    expect((await call("GET", `/ctl/${region}/v1/projects`)).status).toBe(404);
    expect((await call("POST", "/v2/vectordb/jobs/import/list", { clusterId: cluster })).status).toBe(200);
    sim.state.setRetired({ retireV1: false, removeV2ImportList: true });
    expect((await call("POST", "/v2/vectordb/jobs/import/list", { clusterId: cluster })).status).toBe(404);
    expect((await call("GET", v1)).status).toBe(200);
    // The progress endpoint stays.
    const job = sim.state.importJobs(cluster)[0]?.jobId;
    expect(
      (await call("POST", "/v2/vectordb/jobs/import/describe", { clusterId: cluster, jobId: job })).status,
    ).toBe(200);
    // The same switches over /_sim.
    const res = await request(`${sim.baseUrl}/_sim/retired`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ removeV2ImportList: false, retireV1: true }),
    });
    expect(await res.body.json()).toEqual({ ok: true, retireV1: true, removeV2ImportList: false });
    expect(sim.state.retired).toEqual({ retireV1: true, removeV2ImportList: false });
    const bad = await request(`${sim.baseUrl}/_sim/retired`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ retireV1: "yes" }),
    });
    expect(bad.statusCode).toBe(400);
    await bad.body.dump();
    sim.state.setRetired({ retireV1: false });
    expect(sim.stats.mutatingCalls).toEqual([]);
  });
});
