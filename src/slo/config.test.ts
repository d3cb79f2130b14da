import { describe, expect, it } from "vitest";
import "../collectors/registry.js";
import { CANARY_BUCKETS } from "../collectors/canary/families.js";
import { ConfigError } from "../config/errors.js";
import { buildConfig } from "../config/load.js";

const ENV = { VDBCLOUD_API_KEY: "k", OBJECTIVE: "0.995" };

/** The problems of a file with this `slo` section, none when it is valid. */
async function problems(slo: unknown): Promise<string[]> {
  try {
    await buildConfig({ slo }, { env: ENV });
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.map((p) => `${p.path}: ${p.message}`);
    throw err;
  }
}

describe("the slo section", () => {
  it("defaults to the workbook's windows and the issue's objectives", async () => {
    const { slo } = await buildConfig({}, { env: ENV });
    expect(slo.periodMs).toBe(30 * 86_400_000);
    expect(slo.canary).toEqual({ availability: 0.999, latency: { thresholdMs: 500, objective: 0.99 } });
    expect(slo.service).toEqual({ availability: 0.999 });
    expect(slo.windows.page.map((w) => [w.burnRate, w.longMs / 60_000, w.shortMs / 60_000])).toEqual([
      [14.4, 60, 5],
      [6, 360, 30],
    ]);
    expect(slo.windows.ticket.map((w) => [w.burnRate, w.longMs / 60_000, w.shortMs / 60_000])).toEqual([
      [3, 1440, 120],
      [1, 4320, 360],
    ]);
  });

  it("reads objectives from variables, and takes empty window lists", async () => {
    const { slo } = await buildConfig(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's ${VAR} syntax under test.
      { slo: { service: { availability: "${OBJECTIVE}" }, windows: { page: [], ticket: null } } },
      { env: ENV },
    );
    expect(slo.service.availability).toBe(0.995);
    expect(slo.windows.page).toEqual([]);
    expect(slo.windows.ticket).toHaveLength(2);
  });

  it.each(CANARY_BUCKETS.map((b) => [b]))("takes the bound %ss as the latency threshold", async (b) => {
    const text = `PT${b}S`;
    expect(await problems({ canary: { latency: { threshold: text } } })).toEqual([]);
  });

  it.each<[string, unknown, string[]]>([
    [
      "a threshold between bounds",
      { canary: { latency: { threshold: "PT0.3S" } } },
      [
        "slo.canary.latency.threshold: must be one of the canary latency histogram's bucket bounds (PT0.005S, PT0.01S, PT0.025S, PT0.05S, PT0.1S, PT0.25S, PT0.5S, PT1S, PT2.5S, PT5S, PT10S), got PT0.3S",
      ],
    ],
    [
      "an objective of 1 and one over it",
      { canary: { availability: 1 }, service: { availability: 99.9 } },
      [
        "slo.canary.availability: must be a number between 0 and 1, both excluded (0.999 is 99.9%)",
        "slo.service.availability: must be a number between 0 and 1, both excluded (0.999 is 99.9%)",
      ],
    ],
    [
      "a short window as long as the long one",
      { windows: { page: [{ burn_rate: 14.4, long: "PT1H", short: "PT1H" }] } },
      ["slo.windows.page[0].short: must be shorter than long (PT1H)"],
    ],
    [
      "a long window past the period",
      { period: "P7D", windows: { ticket: [{ burn_rate: 1, long: "P14D", short: "PT6H" }] } },
      ["slo.windows.ticket[0].long: must not be longer than slo.period (P7D)"],
    ],
    [
      "windows and a period not whole seconds",
      {
        period: "PT1H0.5S",
        windows: { page: [{ burn_rate: 2, long: "PT1.5S", short: "PT1S" }], ticket: [] },
      },
      [
        "slo.period: must be whole seconds, got PT1H0.5S",
        "slo.windows.page[0].long: must be whole seconds (a Prometheus range), got PT1.5S",
      ],
    ],
    [
      "a burn rate the error ratio can never reach",
      {
        canary: { latency: { objective: 0.9 } },
        windows: { page: [{ burn_rate: 14.4, long: "PT1H", short: "PT5M" }] },
      },
      [
        "slo.windows.page[0].burn_rate: 14.4 times the error budget of slo.canary.latency.objective (0.1) is 1.44: an error ratio never exceeds 1, so the alert could never fire",
      ],
    ],
    [
      "a burn rate of 0, and a window pair missing a key",
      { windows: { ticket: [{ burn_rate: 0, long: "P1D" }] } },
      [
        "slo.windows.ticket[0].burn_rate: must be a number above 0 (times the error rate the objective allows)",
        "slo.windows.ticket[0].short: is required",
      ],
    ],
    [
      "a window pair without its burn rate, and an objective as text out of range",
      { canary: { availability: "1" }, windows: { page: [{ long: "PT1H", short: "PT5M" }] } },
      [
        "slo.canary.availability: must be a number between 0 and 1, both excluded (0.999 is 99.9%)",
        "slo.windows.page[0].burn_rate: is required",
      ],
    ],
    [
      "an unknown key",
      { canary: { availabilty: 0.99 } },
      ['slo.canary.availabilty: unknown key (did you mean "availability"?)'],
    ],
  ])("refuses %s", async (_name, slo, expected) => {
    expect((await problems(slo)).sort()).toEqual([...expected].sort());
  });
});
