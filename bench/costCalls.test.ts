import { describe, expect, it } from "vitest";
import { costCallsOfDay } from "./costCalls.js";

describe("billing calls per day", () => {
  it("reads the month once and the recent days each hour: far fewer calls than the whole month hourly", async () => {
    // 10 clusters x 3 cost types: 30 rows a day (and an organization-level one every third day).
    const d = await costCallsOfDay("2026-03-15", 10);
    expect(d.invoices).toBe(24);
    // One whole-month read (the 1st to the 15th: about 455 rows, 5 pages) and 23 reads of the
    // 12th to the 15th (about 121 rows, 2 pages).
    expect(d.usage).toBe(5 + 23 * 2);
    expect(d.uncached).toBe(24 * 5);
  }, 60_000);
});
