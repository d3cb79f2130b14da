/** The schedule an automatic backup policy implies: its weekdays, and the longest gap between them. */

/** Seconds in a day: the policy's days (its weekdays, its retention) as base units. */
export const DAY_SECONDS = 86_400;

/**
 * The weekdays of a policy's `frequency` ("1,3,5"; 1 = Monday .. 7 = Sunday), sorted and each
 * once. Anything that is not a weekday (0, 8, "mon", "") is left out.
 */
export function policyWeekdays(frequency: string): number[] {
  const days = new Set<number>();
  for (const part of frequency.split(/[\s,;]+/)) {
    if (/^[1-7]$/.test(part)) days.add(Number(part));
  }
  return [...days].sort((a, b) => a - b);
}

/**
 * The longest time between two scheduled backups, in seconds: the largest distance between
 * consecutive weekdays, the week wrapping around ("1,3,5": Friday to Monday, 3 days; one
 * weekday: 7 days; every day: 1 day). Null when the frequency names no weekday.
 */
export function maxGapSeconds(frequency: string): number | null {
  const days = policyWeekdays(frequency);
  const first = days[0];
  const last = days[days.length - 1];
  if (first === undefined || last === undefined) return null;
  let gap = first + 7 - last;
  for (let i = 1; i < days.length; i++) gap = Math.max(gap, (days[i] as number) - (days[i - 1] as number));
  return gap * DAY_SECONDS;
}
