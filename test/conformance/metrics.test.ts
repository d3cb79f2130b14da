import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { containsSubset, type MetricsCase, runMetricsCase } from "./metricsRunner.js";
import { checkExposition } from "./runner.js";

const DIR = new URL("./fixtures/metrics/", import.meta.url);
const cases = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((file) => ({ file, c: JSON.parse(readFileSync(new URL(file, DIR), "utf8")) as MetricsCase }));

describe("conformance: Query Cluster Metrics answers written from the documented shapes", () => {
  it("has a corpus", () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  it.each(cases)("$file", async ({ c }) => {
    expect(c.source, "every fixture names where its shape comes from").not.toBe("");
    const { text, bodies } = await runMetricsCase(c);
    checkExposition(text.split("\n"), { present: c.expect.present, absent: c.expect.absent ?? [] });
    if (c.requests !== undefined) {
      expect(bodies).toHaveLength(c.requests.length);
      for (const want of c.requests) {
        expect(
          bodies.some((b) => containsSubset(b, want)),
          `no request with ${JSON.stringify(want)} in ${JSON.stringify(bodies)}`,
        ).toBe(true);
      }
    }
  });
});
