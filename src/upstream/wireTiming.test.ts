/**
 * A timed request through the transport's own connection pool, against a real loopback server:
 * undici still calls the handler methods wireTiming.ts reads, and the time a request waits for
 * its in-flight slot is not on its wire time.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Transport } from "./transport.js";

let server: Server | undefined;
let transport: Transport | undefined;

afterEach(async () => {
  await transport?.close();
  transport = undefined;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A loopback server answering each POST after `?ms=` milliseconds. */
async function slowServer(): Promise<string> {
  server = createServer((req, res) => {
    const ms = Number(new URL(req.url ?? "/", "http://x").searchParams.get("ms") ?? "0");
    req.resume();
    setTimeout(() => res.end('{"code":0,"data":[]}'), ms);
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}

const ENDPOINT = "POST /v2/vectordb/entities/search" as const;

describe("a timed request", () => {
  it("reports its time on the wire, and not its wait for an in-flight slot", async () => {
    const origin = await slowServer();
    transport = new Transport({
      apiKey: "k",
      requestTimeoutMs: 5_000,
      maxResponseBytes: 1 << 16,
      maxInFlight: 1,
    });
    const url = (ms: number) => new URL(`${origin}/v2/vectordb/entities/search?ms=${ms}`);
    const started = performance.now();
    // The only slot is held 300 ms by an untimed request; the timed one waits for it.
    const holder = transport.send({ endpoint: ENDPOINT, method: "POST", url: url(300), body: {} });
    const timed = transport.send({
      endpoint: ENDPOINT,
      method: "POST",
      url: url(40),
      body: {},
      timed: { timeoutMs: 2_000 },
    });
    const [held, answer] = await Promise.all([holder, timed]);
    expect(held.wireMs).toBeUndefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(330);
    expect(answer.wireMs).toBeGreaterThanOrEqual(35);
    expect(answer.wireMs).toBeLessThan(250);
  });
});
