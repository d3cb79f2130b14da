/**
 * Runs one metrics conformance case through the real exporter: config validation, the cloud
 * client over a real socket (a loopback server that answers with the fixture's bodies), the
 * mapping, the store and the text exposition. Nothing here comes from the simulator.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { pino } from "pino";
import { Exporter } from "../../src/app/exporter.js";
import { buildConfig } from "../../src/config/load.js";
import { systemClock } from "../../src/scheduler/scheduler.js";
import { ManualClock } from "../helpers/manualClock.js";

export const CONFORMANCE_CLUSTER = "in01-conformance0001";

/**
 * One upstream answer: the HTTP status (default 200) and the JSON body. With `match`, it
 * answers the first request whose body contains `match` (a subset); without, the next request
 * no matching answer claimed. Each answer is used once; the last one repeats.
 */
export interface FixtureResponse {
  readonly match?: Record<string, unknown>;
  readonly status?: number;
  readonly body: unknown;
}

/** Whether `actual` contains `expected`: objects by key, arrays element by element. */
export function containsSubset(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => containsSubset(actual[i], e))
    );
  }
  if (typeof expected === "object" && expected !== null) {
    if (typeof actual !== "object" || actual === null) return false;
    const rec = actual as Record<string, unknown>;
    return Object.entries(expected).every(([k, v]) => containsSubset(rec[k], v));
  }
  return Object.is(actual, expected);
}

/** A metrics case as stored in fixtures/metrics/*.json (see README.md). */
export interface MetricsCase {
  readonly description: string;
  /** Which documentation sample or spec variant the answers are written from. */
  readonly source: string;
  /** The `metrics:` section of the config; `scopes` go on the one cluster. */
  readonly config: { readonly metrics: Record<string, unknown>; readonly scopes?: readonly unknown[] };
  /** The exporter's clock when it polls (ISO 8601). */
  readonly now: string;
  /** Fields every request body must have (compared as a subset), in request order. */
  readonly requests?: readonly Record<string, unknown>[];
  /** Answers in request order (cluster-wide first-form, cluster-wide second-form, then scopes). */
  readonly responses: readonly FixtureResponse[];
  readonly expect: {
    /** Exact lines of the text exposition. */
    readonly present: readonly string[];
    /** Line prefixes that must not appear (a family, or a series up to its value). */
    readonly absent?: readonly string[];
  };
}

/** What a run produced: the exposition text and the request bodies the upstream received. */
export interface MetricsRun {
  readonly text: string;
  readonly bodies: readonly unknown[];
}

export async function runMetricsCase(c: MetricsCase): Promise<MetricsRun> {
  const bodies: unknown[] = [];
  const unused = new Set(c.responses);
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (chunk: Buffer) => parts.push(chunk));
    req.on("end", () => {
      const body: unknown = JSON.parse(Buffer.concat(parts).toString("utf8") || "null");
      if (req.method !== "POST" || !/^\/v2\/clusters\/[^/]+\/metrics\/query$/.test(req.url ?? "")) {
        res.writeHead(404).end();
        return;
      }
      bodies.push(body);
      const answer =
        [...unused].find((r) => r.match !== undefined && containsSubset(body, r.match)) ??
        [...unused].find((r) => r.match === undefined) ??
        c.responses.at(-1);
      if (answer !== undefined && unused.size > 1) unused.delete(answer);
      res.writeHead(answer?.status ?? 200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer?.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = await buildConfig(
    {
      api: {
        base_url: baseUrl,
        controller_url: `${baseUrl}/{region}`,
        api_key: "conformance-key",
        max_retries: 0,
      },
      clusters: [{ id: CONFORMANCE_CLUSTER, scopes: c.config.scopes ?? [] }],
      metrics: c.config.metrics,
      import_jobs: { enabled: false },
      inventory: { enabled: false },
    },
    { env: {} },
  );
  const clock = new ManualClock(Date.parse(c.now));
  const exporter = new Exporter({
    config,
    logger: pino({ level: "silent" }),
    version: "conformance",
    clock,
    clientClock: systemClock,
    publishDelayMs: 0,
    defaultMetrics: false,
  });
  try {
    await exporter.start();
    await exporter.scheduler.firstCycle();
    await exporter.store.publishNow();
    const res = await exporter.metrics({});
    const raw = Buffer.concat(res.body.flat());
    const text = (res.contentEncoding === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
    return { text, bodies };
  } finally {
    await exporter.stop();
    await new Promise((resolve) => server.close(resolve));
  }
}
