import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import * as undici from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { closeTestClients, mockUpstream, TEST_BASE_URL } from "./testkit.js";
import { Pool, request } from "./undici.js";

const run = promisify(execFile);
const DIST_TRANSPORT = join(import.meta.dirname, "..", "..", "dist", "upstream", "transport.js");

afterEach(closeTestClients);

describe("undici's Pool and request, loaded on their own", () => {
  it("gives the index's own Pool class and Dispatcher base, not a copy", async () => {
    expect(Pool).toBe(undici.Pool);
    const pool = new Pool("http://127.0.0.1:1");
    expect(pool).toBeInstanceOf(undici.Dispatcher);
    await pool.close();
  });

  it.each([
    { name: "a path with its query", url: "/v2/clusters?pageSize=100&currentPage=2", method: "GET" as const },
    { name: "a path without a query", url: "/v2/clusters/in01-x/metrics/query", method: "POST" as const },
  ])("sends $name with the method, headers and body it was given", async ({ url, method }) => {
    const agent = mockUpstream();
    const target = new URL(url, TEST_BASE_URL);
    const seen: { path: string; method: string; body: unknown; auth: unknown }[] = [];
    agent
      .get(target.origin)
      .intercept({ path: `${target.pathname}${target.search}`, method })
      .reply(200, (opts) => {
        seen.push({
          path: opts.path,
          method: opts.method,
          body: opts.body,
          auth: (opts.headers as Record<string, string>).authorization,
        });
        return { code: 0, data: {} };
      });
    const res = await request(agent, target, {
      method,
      headers: { authorization: "Bearer k" },
      ...(method === "POST" ? { body: '{"a":1}' } : {}),
    });
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toEqual({ code: 0, data: {} });
    expect(seen).toEqual([
      {
        path: `${target.pathname}${target.search}`,
        method,
        body: method === "POST" ? '{"a":1}' : undefined,
        auth: "Bearer k",
      },
    ]);
  });

  // The point of loading the two files alone: neither undici's index nor Node's bundled copy
  // (which a module of the index pulls in through globalThis.Headers) is loaded in production.
  it("loading the built transport loads neither undici's index nor Node's own undici", async () => {
    expect(existsSync(DIST_TRANSPORT), "run npm run build first (npm test does)").toBe(true);
    const script = [
      `await import(${JSON.stringify(DIST_TRANSPORT)});`,
      "const { createRequire } = await import('node:module');",
      `const req = createRequire(${JSON.stringify(DIST_TRANSPORT)});`,
      "const index = req.resolve('undici');",
      "console.log(JSON.stringify({ index: index in req.cache,",
      "  pool: req.resolve('undici/lib/dispatcher/pool.js') in req.cache,",
      "  nodeUndici: process.moduleLoadList.some((m) => m.includes('internal/deps/undici')) }));",
    ].join("\n");
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual({ index: false, pool: true, nodeUndici: false });
  });
});
