import { describe, expect, it } from "vitest";
import { maxGapSeconds, policyWeekdays } from "./schedule.js";

const DAY = 86_400;

describe("maxGapSeconds", () => {
  it.each([
    // Every day: one day between backups.
    { frequency: "1,2,3,4,5,6,7", days: 1 },
    // Monday, Wednesday, Friday: Friday to Monday is the longest.
    { frequency: "1,3,5", days: 3 },
    // The reference's own example: Friday to Monday again.
    { frequency: "1,2,3,5", days: 3 },
    // Weekdays only: Friday to Monday.
    { frequency: "1,2,3,4,5", days: 3 },
    // Once a week: a whole week.
    { frequency: "6", days: 7 },
    { frequency: "7", days: 7 },
    // Twice a week, unevenly: Tuesday to Saturday is 4, Saturday to Tuesday 3.
    { frequency: "2,6", days: 4 },
    // Sunday and Monday: Monday to Sunday is 6.
    { frequency: "7,1", days: 6 },
    // Order, spaces and repeats do not matter.
    { frequency: " 5, 1,3,3 ", days: 3 },
    // Weekend only: Sunday to Saturday is 6.
    { frequency: "6,7", days: 6 },
  ])("$frequency: $days day(s)", ({ frequency, days }) => {
    expect(maxGapSeconds(frequency)).toBe(days * DAY);
  });

  it.each(["", "0", "8", "mon,wed", ",,"])("%j names no weekday: no gap", (frequency) => {
    expect(maxGapSeconds(frequency)).toBeNull();
  });

  it("keeps only weekdays 1..7, each once, sorted", () => {
    expect(policyWeekdays("7,1,8,0,3,3,x")).toEqual([1, 3, 7]);
  });
});
