import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  addYears,
  DOB_YEAR_LIMIT,
  dateOfBirthProblem,
  isIsoDate,
  isoDateOf,
  isoToUsDate,
  parseIsoDate,
  resolveToday,
  usDateToIso,
} from './dates';

describe('parseIsoDate', () => {
  it.each([
    ['2024-02-29', { year: 2024, month: 2, day: 29 }],
    ['2000-02-29', { year: 2000, month: 2, day: 29 }],
    ['2024-01-01', { year: 2024, month: 1, day: 1 }],
    ['2024-12-31', { year: 2024, month: 12, day: 31 }],
    ['1900-01-01', { year: 1900, month: 1, day: 1 }],
  ])('reads the real calendar date %s', (value, parts) => {
    expect(parseIsoDate(value)).toEqual(parts);
    expect(isIsoDate(value)).toBe(true);
  });

  it.each([
    ['2023-02-29', 'Feb 29 in a common year'],
    ['1900-02-29', 'Feb 29 in a century year not divisible by 400'],
    ['2024-02-30', 'Feb 30'],
    ['2024-04-31', 'the 31st of a 30-day month'],
    ['2024-13-01', 'month 13'],
    ['2024-00-10', 'month 0'],
    ['2024-01-00', 'day 0'],
    ['2024-01-32', 'day 32'],
    ['2024-2-9', 'missing leading zeros'],
    ['02/29/2024', 'the US format'],
    [' 2024-02-29', 'surrounding spaces'],
    ['2024-02-29T00:00:00Z', 'a time of day'],
    ['', 'an empty string'],
  ])('refuses %s (%s)', (value) => {
    expect(parseIsoDate(value)).toBeNull();
    expect(isIsoDate(value)).toBe(false);
  });
});

describe('usDateToIso', () => {
  it.each([
    ['02/29/2024', '2024-02-29'],
    ['01/01/1900', '1900-01-01'],
    ['12/31/2049', '2049-12-31'],
    [' 07/04/1976 ', '1976-07-04'],
  ])('turns the US date %j into %s', (value, iso) => {
    expect(usDateToIso(value)).toBe(iso);
  });

  it.each([
    ['02/29/2023', 'Feb 29 in a common year'],
    ['13/01/2024', 'month 13'],
    ['29/02/2024', 'day and month swapped'],
    ['2/9/2024', 'missing leading zeros'],
    ['02-29-2024', 'dashes instead of slashes'],
    ['2024-02-29', 'the ISO format'],
    ['02/29/24', 'a two-digit year'],
    ['', 'an empty string'],
  ])('refuses %j (%s)', (value) => {
    expect(usDateToIso(value)).toBeNull();
  });
});

describe('isoToUsDate shows birth dates as MM/DD/YYYY', () => {
  it.each([
    ['2024-02-29', '02/29/2024'],
    ['1976-07-04', '07/04/1976'],
    ['2024-12-31', '12/31/2024'],
    ['2023-02-29', ''],
    ['not a date', ''],
  ])('%s is shown as %j', (iso, shown) => {
    expect(isoToUsDate(iso)).toBe(shown);
  });
});

describe('isoDateOf gives the calendar date of an instant in the bank’s time zone', () => {
  it.each([
    ['2024-03-01T04:59:59.999Z', '2024-02-29', 'the last instant of leap day in New York (EST)'],
    ['2024-03-01T05:00:00.000Z', '2024-03-01', 'the first instant of March 1 in New York (EST)'],
    ['2025-01-01T04:59:59.999Z', '2024-12-31', 'New Year’s Eve in New York while UTC is already in January'],
    ['2025-01-01T05:00:00.000Z', '2025-01-01', 'New Year’s Day in New York'],
    ['2024-07-05T03:59:59.999Z', '2024-07-04', 'the last instant of July 4 in New York (EDT)'],
    ['2024-07-05T04:00:00.000Z', '2024-07-05', 'the first instant of July 5 in New York (EDT)'],
    ['2024-03-10T07:00:00.000Z', '2024-03-10', 'the morning clocks spring forward'],
    ['2024-11-03T05:30:00.000Z', '2024-11-03', 'the hour repeated when clocks fall back'],
  ])('%s is %s (%s)', (instant, iso) => {
    expect(isoDateOf(new Date(instant))).toBe(iso);
  });

  it.each([
    ['UTC', '2025-01-01T00:00:00.000Z', '2025-01-01'],
    ['Pacific/Honolulu', '2025-01-01T09:59:59.999Z', '2024-12-31'],
    ['Asia/Tokyo', '2024-12-31T15:00:00.000Z', '2025-01-01'],
  ])('in %s, %s is %s', (timeZone, instant, iso) => {
    expect(isoDateOf(new Date(instant), timeZone)).toBe(iso);
  });
});

describe('addMonths', () => {
  it.each([
    ['2027-01-31', 1, '2027-02-28', 'clamps to the last day of a common February'],
    ['2028-01-31', 1, '2028-02-29', 'clamps to the leap day'],
    ['2027-03-31', 1, '2027-04-30', 'clamps to a 30-day month'],
    ['2027-01-31', 2, '2027-03-31', 'keeps the 31st when the month has one'],
    ['2027-12-15', 1, '2028-01-15', 'crosses a year end'],
    ['2027-11-30', 3, '2028-02-29', 'crosses a year end into a leap February'],
    ['2027-05-10', 12, '2028-05-10', 'twelve months is a year'],
    ['2027-05-10', 120, '2037-05-10', 'ten years'],
    ['2027-03-31', -1, '2027-02-28', 'goes back, clamped'],
    ['2027-06-15', 0, '2027-06-15', 'adds nothing for zero months'],
  ])('%s + %i months is %s (%s)', (iso, months, expected) => {
    expect(addMonths(iso, months)).toBe(expected);
  });
});

describe('addYears', () => {
  it.each([
    ['2024-02-29', 1, '2025-02-28', 'clamps leap day to Feb 28 in a common year'],
    ['2024-02-29', -1, '2023-02-28', 'clamps leap day going back to a common year'],
    ['2024-02-29', 4, '2028-02-29', 'keeps leap day in the next leap year'],
    ['2000-02-29', 100, '2100-02-28', 'clamps leap day in a century year that is not a leap year'],
    ['2023-03-01', 1, '2024-03-01', 'keeps March 1 across a leap day'],
    ['2024-12-31', 1, '2025-12-31', 'keeps the year end'],
    ['2025-06-15', 0, '2025-06-15', 'adds nothing for zero years'],
  ])('%s + %i years is %s (%s)', (iso, years, expected) => {
    expect(addYears(iso, years)).toBe(expected);
  });

  it('refuses a date that is not a real calendar date', () => {
    expect(() => addYears('2023-02-29', 1)).toThrow('not an ISO date: 2023-02-29');
  });
});

describe('addDays', () => {
  it.each([
    ['2024-02-28', 1, '2024-02-29', 'reaches leap day in a leap year'],
    ['2023-02-28', 1, '2023-03-01', 'skips to March in a common year'],
    ['2024-03-01', -1, '2024-02-29', 'steps back onto leap day'],
    ['2024-12-31', 1, '2025-01-01', 'crosses the year end'],
    ['2025-01-01', -1, '2024-12-31', 'crosses the year end backwards'],
    ['2024-01-01', 365, '2024-12-31', 'a leap year has 366 days'],
    ['2025-01-01', 365, '2026-01-01', 'a common year has 365 days'],
    ['2024-03-09', 1, '2024-03-10', 'is not moved by the spring daylight-saving change'],
    ['2024-11-02', 1, '2024-11-03', 'is not moved by the autumn daylight-saving change'],
    ['2025-06-15', 0, '2025-06-15', 'adds nothing for zero days'],
  ])('%s + %i days is %s (%s)', (iso, days, expected) => {
    expect(addDays(iso, days)).toBe(expected);
  });

  it('refuses a date that is not a real calendar date', () => {
    expect(() => addDays('2024-04-31', 1)).toThrow('not an ISO date: 2024-04-31');
  });
});

describe('dateOfBirthProblem', () => {
  it('puts the year limit at 2050', () => {
    expect(DOB_YEAR_LIMIT).toBe(2050);
  });

  it.each([
    ['2025-06-15', '2025-06-15', null, 'today is a valid date of birth'],
    ['2025-06-16', '2025-06-15', 'future', 'tomorrow is in the future'],
    ['2026-01-01', '2025-12-31', 'future', 'next year is in the future on New Year’s Eve'],
    ['2024-02-29', '2025-06-15', null, 'leap day of a leap year is valid'],
    ['2023-02-29', '2025-06-15', 'invalid', 'Feb 29 of a common year is not a date'],
    ['1900-01-01', '2025-06-15', null, 'the first day of 1900 is valid'],
    ['1899-12-31', '2025-06-15', 'invalid', 'a year before 1900 is refused'],
    ['2049-12-31', '2051-01-01', null, 'the last day of 2049 is valid once it is past'],
    ['2050-01-01', '2051-01-01', 'invalid', 'year 2050 is refused even when it is past'],
    ['2050-01-01', '2025-06-15', 'invalid', 'year 2050 is refused, not merely in the future'],
    ['06/15/1980', '2025-06-15', 'invalid', 'the US format is not an ISO date'],
    ['', '2025-06-15', 'invalid', 'an empty string is not a date'],
  ])('%s with today %s is %s (%s)', (dob, today, problem, _why) => {
    expect(dateOfBirthProblem(dob, today)).toBe(problem);
  });
});

describe('resolveToday', () => {
  it('takes today as a fixed date', () => {
    expect(resolveToday('2025-06-15')).toBe('2025-06-15');
  });

  it('asks a function for today each time, so a long-lived schema follows the calendar', () => {
    let today = '2025-06-15';
    const clock = () => today;
    expect(resolveToday(clock)).toBe('2025-06-15');
    today = '2025-06-16';
    expect(resolveToday(clock)).toBe('2025-06-16');
  });
});
