import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { CloudError } from "../upstream/errors.js";
import { type CauseLogTimers, SharedCauseLog, sharedCauseOf } from "./causes.js";

/** Timers that fire only when the test says so. */
function manualTimers(): CauseLogTimers & { fire(): void } {
  const pending = new Map<number, () => void>();
  let next = 0;
  return {
    set: (fn) => {
      pending.set(++next, fn);
      return next;
    },
    clear: (h) => void pending.delete(h as number),
    fire: () => {
      const fns = [...pending.values()];
      pending.clear();
      for (const fn of fns) fn();
    },
  };
}

function setup() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  const timers = manualTimers();
  return { lines, timers, log: new SharedCauseLog(logger, 5_000, timers) };
}

const refused = new CloudError("auth_error", "GET /v2/clusters/{id}: HTTP 401", {
  endpoint: "GET /v2/clusters/{id}",
  httpStatus: 401,
});
const unreachable = new CloudError("network_error", "GET /v1/import/list: network error ECONNREFUSED", {
  endpoint: "GET /v1/vector/collections/import/list",
  origin: "https://controller.api.gcp-us-west1.zillizcloud.com",
});

describe("sharedCauseOf", () => {
  it.each([
    { name: "a refused key", err: refused, credential: "default", fields: { credential: "default" } },
    {
      name: "an unreachable server",
      err: unreachable,
      credential: "default",
      fields: { origin: "https://controller.api.gcp-us-west1.zillizcloud.com" },
    },
    {
      name: "a timeout",
      err: new CloudError("timeout", "t", { endpoint: "GET /v2/regions", origin: "https://api.example" }),
      credential: "default",
      fields: { origin: "https://api.example" },
    },
    {
      name: "a missing cluster",
      err: new CloudError("not_found", "n", { endpoint: "GET /v2/clusters/{id}" }),
      credential: "default",
      fields: undefined,
    },
    { name: "a non-cloud error", err: new Error("x"), credential: "default", fields: undefined },
    { name: "a refused key of an unknown task", err: refused, credential: undefined, fields: undefined },
  ])("$name -> $fields", ({ err, credential, fields }) => {
    expect(sharedCauseOf(err, credential)?.fields).toEqual(fields);
  });
});

describe("SharedCauseLog", () => {
  it("logs one warning per cause with the number of targets, once the count settles", () => {
    const { lines, timers, log } = setup();
    const cause = sharedCauseOf(refused, "cluster key #1");
    for (let i = 0; i < 11; i++) expect(log.failed(`t${i}`, cause)).toBe(true);
    // The same targets failing again next cycle change nothing.
    for (let i = 0; i < 11; i++) log.failed(`t${i}`, cause);
    timers.fire();
    timers.fire();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      msg: "API key refused by the upstream",
      credential: "cluster key #1",
      targets: 11,
    });
  });

  it("logs again only when the count changes, and once when the cause is gone", () => {
    const { lines, timers, log } = setup();
    const cause = sharedCauseOf(unreachable, "default");
    log.failed("a", cause);
    log.failed("b", cause);
    timers.fire();
    log.failed("a", cause);
    timers.fire();
    expect(lines.map((l) => l.targets)).toEqual([2]);
    log.failed("c", cause);
    timers.fire();
    expect(lines.map((l) => l.targets)).toEqual([2, 3]);
    expect(log.recovered("a")).toBe(true);
    expect(log.recovered("b")).toBe(true);
    expect(log.recovered("c")).toBe(true);
    expect(log.recovered("c")).toBe(false);
    timers.fire();
    expect(lines.at(-1)).toMatchObject({
      level: 30,
      msg: "upstream server reachable again",
      origin: "https://controller.api.gcp-us-west1.zillizcloud.com",
    });
    expect(lines).toHaveLength(3);
  });

  it("a target failing for another reason leaves the cause; no cause, nothing logged", () => {
    const { lines, timers, log } = setup();
    log.failed("a", sharedCauseOf(refused, "default"));
    log.failed("b", sharedCauseOf(refused, "default"));
    timers.fire();
    expect(log.failed("a", undefined)).toBe(false);
    timers.fire();
    expect(lines.map((l) => [l.msg, l.targets])).toEqual([
      ["API key refused by the upstream", 2],
      ["API key refused by the upstream", 1],
    ]);
  });

  it("a failure that recovers before the count settles logs nothing", () => {
    const { lines, timers, log } = setup();
    log.failed("a", sharedCauseOf(refused, "default"));
    log.recovered("a");
    timers.fire();
    expect(lines).toEqual([]);
  });
});
