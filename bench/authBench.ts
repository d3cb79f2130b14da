/**
 * `npm run bench:auth`: what a flood of wrong passwords costs the exporter's HTTP server with
 * basic auth on (src/http/basicAuth.ts). Kept out of the unit tests, whose timings would depend
 * on the machine:
 * 1. 100 concurrent wrong passwords against a cost-10 hash (the toolkit's documented example),
 *    while /healthz is asked every 20 ms: its slowest answer must stay under 1 s;
 * 2. the same with 20 requests at cost 14, the highest cost the config check accepts;
 * 3. an unknown user and a known user with a wrong password, one at a time: their median times
 *    must be within 3x of each other.
 * Exit 0 when all hold, 1 when not. The figures are in docs/operations.md.
 */
import type { AddressInfo } from "node:net";
import bcrypt from "bcryptjs";
import { createApp } from "../src/http/app.js";
import { BasicAuth } from "../src/http/basicAuth.js";

const b64 = (s: string) => `Basic ${Buffer.from(s).toString("base64")}`;

async function serve(hash: string): Promise<{ url: string; close: () => Promise<void> }> {
  const auth = new BasicAuth(new Map([["prom", hash]]));
  const app = createApp({
    metrics: async () => ({ contentType: "text/plain", body: [[Buffer.from("m 1\n")]], length: 4 }),
    landing: () => {
      throw new Error("not used");
    },
    ready: () => true,
    reload: async () => ({ ok: true, problems: [] }),
    nativeTargets: () => ({ status: 404, contentType: "text/plain", body: "" }),
    auth,
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await auth.close();
    },
  };
}

/** Requests /healthz every 20 ms until `until` settles; returns the slowest answer in ms. */
async function slowestHealthz(url: string, until: Promise<unknown>): Promise<number> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  let worst = 0;
  while (!done) {
    const t0 = performance.now();
    await fetch(`${url}/healthz`).then((r) => r.text());
    worst = Math.max(worst, performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  return worst;
}

async function flood(cost: number, requests: number): Promise<string[]> {
  const hash = bcrypt.hashSync("right", cost);
  const { url, close } = await serve(hash);
  try {
    const t0 = performance.now();
    const all = Promise.all(
      Array.from({ length: requests }, (_, i) =>
        fetch(`${url}/metrics`, { headers: { authorization: b64(`prom:wrong-${i}`) } }).then((r) => r.status),
      ),
    );
    const worst = await slowestHealthz(url, all);
    const statuses = await all;
    const count = (s: number) => statuses.filter((x) => x === s).length;
    const ok = worst < 1000;
    return [
      `cost ${cost}, ${requests} concurrent wrong passwords: /healthz slowest ${worst.toFixed(1)} ms ` +
        `(${ok ? "ok" : "OVER 1 s"}); ${count(401)} x 401, ${count(503)} x 503 (busy), ` +
        `all answered in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
      ok ? "" : "FAIL",
    ];
  } finally {
    await close();
  }
}

async function userTiming(cost: number, rounds: number): Promise<string[]> {
  const hash = bcrypt.hashSync("right", cost);
  const { url, close } = await serve(hash);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  try {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < rounds; i++) {
      for (const [user, into] of [
        ["prom", known],
        ["nobody", unknown],
      ] as const) {
        const t0 = performance.now();
        await fetch(`${url}/metrics`, { headers: { authorization: b64(`${user}:guess-${i}`) } }).then((r) =>
          r.text(),
        );
        into.push(performance.now() - t0);
      }
    }
    const k = median(known);
    const u = median(unknown);
    const ratio = Math.max(k, u) / Math.max(0.001, Math.min(k, u));
    const ok = ratio <= 3;
    return [
      `cost ${cost}, ${rounds} rounds one at a time: known user, wrong password ${k.toFixed(1)} ms; ` +
        `unknown user ${u.toFixed(1)} ms (median); ratio ${ratio.toFixed(2)} (${ok ? "ok" : "OVER 3x"})`,
      ok ? "" : "FAIL",
    ];
  } finally {
    await close();
  }
}

const lines = [
  ...(await flood(10, 100)),
  ...(await flood(14, 20)),
  ...(await userTiming(10, 15)),
  ...(await userTiming(4, 15)),
];
const failed = lines.includes("FAIL");
process.stdout.write(`${lines.filter((l) => l !== "" && l !== "FAIL").join("\n")}\n`);
process.exit(failed ? 1 : 0);
