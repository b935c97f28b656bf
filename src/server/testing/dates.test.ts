import { describe, expect, it } from 'vitest';
import { validTuesday, weekdayFrom } from './dates';

describe('the dates tests pick', () => {
  it.each([
    ['2026-11-26', 4, '2026-11-26'],
    ['2026-11-26', 2, '2026-12-01'],
    ['2026-12-29', 1, '2027-01-04'],
  ])('weekdayFrom(%s, %i) is the first such weekday on or after the date: %s', (from, weekday, expected) => {
    expect(weekdayFrom(from, weekday)).toBe(expected);
  });

  it.each([
    ['2026-08-25', 7, '2026-09-01'],
    // The Tuesday after Labor Day (Monday 7 September 2026) is refused: a week later.
    ['2026-08-31', 7, '2026-09-15'],
    ['2026-11-26', 28, '2026-12-29'],
  ])('validTuesday(%s, %i) is %s', (today, leadDays, expected) => {
    expect(validTuesday(today, leadDays)).toBe(expected);
  });
});
