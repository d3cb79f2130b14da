import { describe, expect, it } from "vitest";
import { maxGapSeconds, policyWeekdays } from "./policyDays.js";

const DAY = 86_400;

describe("maxGapSeconds", () => {
  it.each<[frequency: string, days: number]>([
    // Every day: one day between backups.
    ["1,2,3,4,5,6,7", 1],
    // Monday, Wednesday, Friday: Friday to Monday is the longest.
    ["1,3,5", 3],
    // The reference's own example: Friday to Monday again.
    ["1,2,3,5", 3],
    // Weekdays only: Friday to Monday.
    ["1,2,3,4,5", 3],
    // Once a week: a whole week.
    ["6", 7],
    ["7", 7],
    // Twice a week, unevenly: Tuesday to Saturday is 4, Saturday to Tuesday 3.
    ["2,6", 4],
    // Sunday and Monday: Monday to Sunday is 6.
    ["7,1", 6],
    // Order, spaces and repeats do not matter.
    [" 5, 1,3,3 ", 3],
    // Weekend only: Sunday to Saturday is 6.
    ["6,7", 6],
  ])("%s: %d day(s)", (frequency, days) => {
    expect(maxGapSeconds(frequency)).toBe(days * DAY);
  });

  it.each(["", "0", "8", "mon,wed", ",,"])("%j names no weekday: no gap", (frequency) => {
    expect(maxGapSeconds(frequency)).toBeNull();
  });

  it("keeps only weekdays 1..7, each once, sorted", () => {
    expect(policyWeekdays("7,1,8,0,3,3,x")).toEqual([1, 3, 7]);
  });
});
