import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { demoConfig } from "../../src/app/demo.js";
import { Exporter, type ExporterOptions } from "../../src/app/exporter.js";
import { buildConfig } from "../../src/config/load.js";
import { createApp } from "../../src/http/app.js";
import { type Clock, systemClock } from "../../src/scheduler/scheduler.js";
import { type Simulator, type SimulatorOptions, startSimulator } from "../../src/simulator/index.js";

export const TEST_API_KEY = "sk-test-0123456789abcdef-SECRET";

/** A simulator, an exporter polling it, and the exporter's HTTP app, all on loopback port 0. */
export interface Harness {
  readonly sim: Simulator;
  readonly exporter: Exporter;
  readonly url: string;
  /** GET /metrics as text (publishes the latest state first, so no waiting on the debounce). */
  metrics(): Promise<string>;
  /**
   * Waits until no poll is in flight. The client paces requests in real time (its rate limiter
   * spaces them evenly), so a poll of several requests outlives a manual clock's step.
   */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly sim?: SimulatorOptions;
  /** Edits the demo-shaped raw config before it is validated; `sim` is the simulator polled. */
  readonly config?: (raw: Record<string, unknown>, sim: Simulator) => void;
  /**
   * Scheduling and store clock. The cloud client keeps real time unless `clientClock` says
   * otherwise: a manual step would otherwise strand the retries and paced calls that start
   * after it (the exporter's `clientClock` option).
   */
  readonly clock?: Clock;
  readonly clientClock?: Clock;
  readonly logs?: string[];
  readonly shard?: { index: number; total: number };
  readonly jobsFilePollMs?: number;
  /** Use this simulator instead of starting one (it is then not closed by `close`). */
  readonly simulator?: Simulator;
  /** The store's compressor (to make publishing fail). */
  readonly compress?: ExporterOptions["compress"];
  /** The store's publish delay; default 10 ms (tests read fresh state), the exporter's own 1 s. */
  readonly publishDelayMs?: number;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  // The demo-shaped config asks every name the exporter knows (the 2024 form's too), so its
  // simulator accepts them all unless a test asks for a reference.
  const sim =
    opts.simulator ?? (await startSimulator({ clusters: 4, metricCatalog: "permissive", ...opts.sim }));
  const raw = demoConfig(sim, { listen: "127.0.0.1:0" });
  (raw.api as Record<string, unknown>).api_key = TEST_API_KEY;
  opts.config?.(raw, sim);
  const config = await buildConfig(raw);
  const logs = opts.logs;
  const logger = pino(
    { level: logs ? "debug" : "silent" },
    { write: (line: string) => void logs?.push(line) },
  );
  const exporter = new Exporter({
    config,
    logger,
    version: "test",
    publishDelayMs: opts.publishDelayMs ?? 10,
    defaultMetrics: false,
    ...(opts.clock ? { clock: opts.clock, clientClock: opts.clientClock ?? systemClock } : {}),
    ...(opts.shard ? { shard: opts.shard } : {}),
    ...(opts.jobsFilePollMs !== undefined ? { jobsFilePollMs: opts.jobsFilePollMs } : {}),
    ...(opts.compress !== undefined ? { compress: opts.compress } : {}),
  });
  const server: Server = createApp({
    metrics: (h) => exporter.metrics(h),
    landing: () => exporter.landing(),
    ready: () => exporter.ready(),
    nativeTargets: () => exporter.nativeTargets(),
    answering: () => exporter.foreground.enter(),
    reload: async () => ({ ok: false, problems: ["not in tests"] }),
  }).listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await exporter.start();
  return {
    sim,
    exporter,
    url,
    async settle() {
      for (let i = 0; i < 500 && exporter.scheduler.status().some((t) => t.running); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async metrics() {
      await exporter.store.publishNow();
      return (await fetch(`${url}/metrics`)).text();
    },
    async close() {
      await exporter.stop();
      await new Promise((r) => server.close(r));
      if (!opts.simulator) await sim.close();
    },
  };
}

/** Parses exposition text into samples (enough for assertions; promtool checks the format). */
export function parseSamples(
  text: string,
): { name: string; labels: Record<string, string>; value: number }[] {
  const out: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`unparsable line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1] as string] = (l[2] as string).replace(/\\n/g, "\n").replace(/\\(["\\])/g, "$1");
    }
    out.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return out;
}

/** Samples as parseSamples gives them. */
export type Samples = ReturnType<typeof parseSamples>;

/** The samples named `name` whose labels include every pair of `labels`. */
export function matching(samples: Samples, name: string, labels: Record<string, string>): Samples {
  return samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

/** The value of the first sample of `text` that `matching` finds (undefined: none). */
export function sampleValue(text: string, name: string, labels: Record<string, string>): number | undefined {
  return matching(parseSamples(text), name, labels)[0]?.value;
}
