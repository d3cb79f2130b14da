/**
 * Shared machinery of the conformance corpus (see README.md in this folder): loading the case
 * files, serving their upstream responses from an undici MockAgent, a poll context over a real
 * sample store, and checking the exposition a case must (and must not) produce.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pino } from "pino";
import type { MockAgent } from "undici";
import { expect } from "vitest";
import { z } from "zod";
import { SelfMetrics } from "../../src/exposition/selfMetrics.js";
import { SampleStore } from "../../src/exposition/store.js";
import { HealthTracker } from "../../src/polling/health.js";
import type { PollContext } from "../../src/polling/runtime.js";

/** One upstream answer: HTTP status (200 unless given) and the JSON body, as the service sends it. */
const responseSchema = z.strictObject({
  status: z.number().int().min(100).max(599).default(200),
  body: z.unknown(),
});

/** A case file. `request` is read by each test file for its endpoint (see README.md). */
export const caseSchema = z.strictObject({
  description: z.string().min(1),
  source: z.string().min(1),
  request: z.record(z.string(), z.unknown()).optional(),
  responses: z.array(responseSchema).min(1),
  expect: z.strictObject({
    present: z.array(z.string()).default([]),
    absent: z.array(z.string()).default([]),
    /** Upstream calls the case must make, exactly; absent: not checked. */
    calls: z.number().int().min(0).optional(),
  }),
});

/** A parsed case and the file it came from. */
export type ConformanceCase = z.infer<typeof caseSchema> & { readonly file: string };

/** Every `*.json` case of `dir`, sorted by file name; a malformed file fails with its name. */
export function loadCases(dir: string): ConformanceCase[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const parsed = caseSchema.safeParse(JSON.parse(readFileSync(join(dir, file), "utf8")));
      if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
      return { ...parsed.data, file };
    });
}

/** One call the mock upstream answered: its path and query. */
export interface ServedCall {
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
}

/**
 * Serves `responses` in order, through `upstream` (the MockAgent the client under test sends
 * through), to GET requests on `origin` + `path` with any query; the last one answers any
 * further call. Returns the calls as they arrive.
 */
export function serveInOrder(
  upstream: MockAgent,
  origin: string,
  path: string,
  responses: readonly { readonly status: number; readonly body: unknown }[],
): ServedCall[] {
  const calls: ServedCall[] = [];
  upstream
    .get(origin)
    .intercept({ method: "GET", path: (p) => p.split("?")[0] === path })
    .reply((opts) => {
      const url = new URL(opts.path, origin);
      calls.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) });
      const r = responses[Math.min(calls.length, responses.length) - 1];
      if (r === undefined) throw new Error("serveInOrder: no responses");
      // A string body goes out as it is, anything else as JSON (as the service sends it).
      return { statusCode: r.status, data: typeof r.body === "string" ? r.body : JSON.stringify(r.body) };
    })
    .persist();
  return calls;
}

/** A poll context over a real store, health tracker and self-metrics, with a fixed clock. */
export function conformanceContext(nowMs: number): PollContext {
  const store = new SampleStore({ now: () => nowMs });
  const self = new SelfMetrics({ version: "conformance", defaultMetrics: false });
  const health = new HealthTracker(store, pino({ level: "silent" }), () => nowMs);
  return { store, self, health, now: () => nowMs };
}

/** The store's text exposition as lines (HELP and TYPE lines included). */
export async function expositionLines(ctx: PollContext): Promise<string[]> {
  const published = await ctx.store.publishNow();
  return published.text.toString("utf8").split("\n");
}

/**
 * Checks a case's expectations: every `present` line appears exactly; no line starts with an
 * `absent` prefix.
 */
export function checkExposition(
  lines: readonly string[],
  want: { readonly present: readonly string[]; readonly absent: readonly string[] },
): void {
  const have = new Set(lines);
  for (const line of want.present) expect(have.has(line), `missing: ${line}`).toBe(true);
  for (const prefix of want.absent) {
    expect(
      lines.filter((l) => l.startsWith(prefix)),
      `present but must not be: ${prefix}`,
    ).toEqual([]);
  }
}
