/**
 * Measurement probe preloaded into the exporter's process (`node --import probe.js main.js`),
 * so the exporter runs unmodified while the harness reads what only that process can know:
 * event-loop delay, CPU time and memory. Commands arrive over the IPC channel; without one
 * (not started by the harness) the probe does nothing.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { RELAUNCH_MARKER, RUNTIME_CONTROLS, RUNTIME_SETTINGS } from "../src/runtime/settings.js";
import { serveRpc } from "./ipc.js";
import { restingMemory } from "./resident.js";
import { StallMeter, type Stalls, threadCpuWaitReader } from "./stallMeter.js";
import { Timeline } from "./timeline.js";

/** The tick of the stall meter: 200 reads a second of a 100-byte proc file, ~0.2% of a core. */
const STALL_TICK_MS = 5;

/** What happened in the process since the previous lap (memory: at the moment of the lap). */
export interface Lap {
  readonly wallMs: number;
  readonly cpuUserMs: number;
  readonly cpuSystemMs: number;
  /** Longest gap between two 1 ms timer ticks: the longest the event loop was blocked. */
  readonly loopDelayMaxMs: number;
  readonly loopDelayP99Ms: number;
  /** The longest stall again, split into the exporter's own time and its wait for a CPU. */
  readonly stalls: Stalls;
  /** Longest garbage-collection pause and the sum of all pauses. */
  readonly gcMaxMs: number;
  readonly gcTotalMs: number;
  readonly rssBytes: number;
  /** Lowest and highest RSS sampled (every 250 ms) since the previous lap. */
  readonly rssMinBytes: number;
  readonly rssPeakBytes: number;
  readonly heapUsedBytes: number;
  readonly heapTotalBytes: number;
  readonly externalBytes: number;
}

/** Starts measuring; `lap()` reports since the previous lap (or since start) and restarts. */
export function createLapper(): () => Lap {
  // Resolution 1 ms: the histogram's timer lives in C++, so its cost to the process is tiny.
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const meter = new StallMeter(STALL_TICK_MS);
  const cpuWait = threadCpuWaitReader();
  setInterval(() => meter.tick(performance.now(), cpuWait?.()), STALL_TICK_MS).unref();
  let since = performance.now();
  let cpu = process.cpuUsage();
  let gcMax = 0;
  let gcTotal = 0;
  // RSS between laps: a lap alone sees one instant, and the peak of a publish or of a
  // cycle's burst falls between them.
  let rssMin = process.memoryUsage.rss();
  let rssPeak = rssMin;
  setInterval(() => {
    const rss = process.memoryUsage.rss();
    rssMin = Math.min(rssMin, rss);
    rssPeak = Math.max(rssPeak, rss);
  }, 250).unref();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcMax = Math.max(gcMax, e.duration);
      gcTotal += e.duration;
    }
  }).observe({ entryTypes: ["gc"] });
  return () => {
    const now = performance.now();
    const used = process.cpuUsage(cpu);
    const mem = process.memoryUsage();
    const lap: Lap = {
      wallMs: now - since,
      cpuUserMs: used.user / 1000,
      cpuSystemMs: used.system / 1000,
      loopDelayMaxMs: delay.count > 0 ? delay.max / 1e6 : 0,
      loopDelayP99Ms: delay.count > 0 ? delay.percentile(99) / 1e6 : 0,
      stalls: meter.take(),
      gcMaxMs: gcMax,
      gcTotalMs: gcTotal,
      rssBytes: mem.rss,
      rssMinBytes: Math.min(rssMin, mem.rss),
      rssPeakBytes: Math.max(rssPeak, mem.rss),
      heapUsedBytes: mem.heapUsed,
      heapTotalBytes: mem.heapTotal,
      externalBytes: mem.external,
    };
    delay.reset();
    gcMax = 0;
    gcTotal = 0;
    since = now;
    rssMin = mem.rss;
    rssPeak = mem.rss;
    cpu = process.cpuUsage();
    return lap;
  };
}

const collect = () => (globalThis as { gc?: () => void }).gc?.();

/**
 * How this process was started, as its runtime settings depend on it (src/runtime/): read now,
 * before the exporter's launcher removes its marker, and only the variables that matter.
 */
const started = {
  execArgv: [...process.execArgv],
  env: Object.fromEntries(
    [
      ...Object.keys(RUNTIME_SETTINGS.env),
      ...Object.values(RUNTIME_CONTROLS),
      RELAUNCH_MARKER,
      "NODE_OPTIONS",
    ]
      .filter((k) => process.env[k] !== undefined)
      .map((k) => [k, process.env[k]]),
  ),
};

/** The V8 CPU profiler of this process, through the inspector (nothing else of it is opened). */
class Profiler {
  private session: Session | undefined;

  async start(): Promise<void> {
    this.session?.disconnect();
    const session = new Session();
    session.connect();
    this.session = session;
    await post(session, "Profiler.enable");
    await post(session, "Profiler.setSamplingInterval", { interval: 200 });
    await post(session, "Profiler.start");
    // Allocations too, garbage included: what the collector has to clear is what it costs.
    await post(session, "HeapProfiler.enable");
    await post(session, "HeapProfiler.startSampling", {
      samplingInterval: 16384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }

  /** Stops, writes the profile (Chrome's .cpuprofile format) to `path`, and returns the path. */
  async stop(path: string): Promise<string> {
    const session = this.session;
    if (!session) throw new Error("profileStop without profileStart");
    const { profile } = (await post(session, "Profiler.stop")) as { profile: unknown };
    const heap = (await post(session, "HeapProfiler.stopSampling")) as { profile: unknown };
    writeFileSync(path.replace(/(\.cpuprofile)?$/, ".heapprofile"), JSON.stringify(heap.profile));
    session.disconnect();
    this.session = undefined;
    writeFileSync(path, JSON.stringify(profile));
    return path;
  }
}

function post(session: Session, method: string, params?: object): Promise<unknown> {
  return new Promise((resolve, reject) => {
    session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

if (process.send) {
  const lap = createLapper();
  const timeline = new Timeline();
  const profiler = new Profiler();
  serveRpc({
    lap: () => lap(),
    // What held the thread between the two calls: GC, the store's puts and publishes, stalls.
    timelineStart: () => timeline.start(),
    timelineStop: () => timeline.stop(),
    // A CPU profile of the process between the two calls, written where the harness says.
    profileStart: () => profiler.start(),
    profileStop: (path: unknown) => profiler.stop(String(path)),
    runtime: () => started,
    // Memory as it is (no collection): the soak's RSS samples.
    rss: () => process.memoryUsage(),
    // Memory after a full collection (needs --expose-gc; without it, as is).
    memory: () => {
      collect();
      return process.memoryUsage();
    },
    // The same as the footprint reads it: resident memory split into anonymous and file-backed.
    resting: () => {
      collect();
      return restingMemory();
    },
  });
  // The probe must never be what keeps the exporter alive.
  process.channel?.unref();
}
