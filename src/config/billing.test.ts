import { describe, expect, it } from "vitest";
import { buildConfig } from "./load.js";
import { expectProblem } from "./testkit.js";

const base = { api: { api_key: "monitoring-key" } };

describe("billing config", () => {
  it.each([
    ["interval under PT5M", { billing: { interval: "PT1M" } }, "billing.interval: must be at least PT5M"],
    [
      "an unknown amount unit",
      { billing: { amount_unit: "dollars" } },
      "billing.amount_unit: must be cents or major",
    ],
    ["both key forms", { billing: { api_key: "a", api_key_file: "/b" } }, "billing.api_key_file: set either"],
    ["a negative keep", { billing: { invoices: { keep: -1 } } }, "billing.invoices.keep: must be an integer"],
    ["an unknown key", { billing: { budget: 10 } }, "billing.budget"],
    ["an unknown invoices key", { billing: { invoices: { count: 3 } } }, "billing.invoices.count"],
  ])("rejects %s", async (_name, raw, expected) => {
    await expectProblem({ ...base, ...raw }, expected);
  });

  it.each([
    [
      "absent: off, hourly, cents, three invoices, the api key",
      {},
      {
        enabled: false,
        intervalMs: 3_600_000,
        amountUnit: "cents",
        invoices: { enabled: true, keep: 3 },
        apiKey: "monitoring-key",
      },
    ],
    [
      "its own key and settings",
      {
        billing: {
          enabled: "true",
          api_key: "billing-key",
          interval: "PT30M",
          amount_unit: "major",
          invoices: { enabled: false, keep: 0 },
        },
      },
      {
        enabled: true,
        intervalMs: 1_800_000,
        amountUnit: "major",
        invoices: { enabled: false, keep: 0 },
        apiKey: "billing-key",
      },
    ],
  ])("reads %s", async (_name, raw, expected) => {
    const config = await buildConfig({ ...base, ...raw }, { env: {} });
    expect(config.billing).toEqual(expected);
  });
});
