/**
 * The two reference servers of the benchmark, both bare `node:http`:
 * - prom-client: renders its registry (and gzips, when asked) on every request;
 * - static: writes a prepared Buffer, the cost floor of answering with that many bytes.
 * Format and compression are chosen from Accept and Accept-Encoding as the exporter does.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { gzip as gzipCb } from "node:zlib";
import type { BaselineRegistries } from "./promBaseline.js";

const gzip = promisify(gzipCb);

/** Prepared bodies of the static server by variant name (see scrape.ts VARIANTS). */
export type StaticBodies = Readonly<Record<string, Uint8Array>>;

function wantsOpenMetrics(req: IncomingMessage): boolean {
  return (req.headers.accept ?? "").includes("application/openmetrics-text");
}

function wantsGzip(req: IncomingMessage): boolean {
  return (req.headers["accept-encoding"] ?? "").includes("gzip");
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Serves `registries` at any path; resolves with the server and its origin. */
export async function startPromClientServer(
  registries: BaselineRegistries,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const om = wantsOpenMetrics(req);
    const registry = om ? registries.openMetrics : registries.text;
    registry
      .metrics()
      .then(async (body) => {
        const headers: Record<string, string> = { "content-type": registry.contentType };
        if (wantsGzip(req)) {
          headers["content-encoding"] = "gzip";
          res.writeHead(200, headers).end(await gzip(body));
        } else {
          res.writeHead(200, headers).end(body);
        }
      })
      .catch(() => res.writeHead(500).end());
  });
  return { server, url: await listen(server) };
}

/** Serves the prepared body of the asked variant; resolves with the server and its origin. */
export async function startStaticServer(bodies: StaticBodies): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const name = `${wantsOpenMetrics(req) ? "openmetrics" : "text"}${wantsGzip(req) ? "+gzip" : ""}`;
    const body = bodies[name];
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "content-length": body.length,
      ...(name.endsWith("+gzip") ? { "content-encoding": "gzip" } : {}),
    });
    res.end(body);
  });
  return { server, url: await listen(server) };
}
