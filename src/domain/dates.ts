/**
 * Calendar dates as the bank speaks them. A calendar date (no time of day) travels as an ISO
 * string `YYYY-MM-DD` inside the system and is shown as MM/DD/YYYY (birth dates) or MM-DD-YYYY
 * (Client Activity). "Today" is always a parameter: nothing here reads the clock.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/** The first year a date of birth may not reach (the legacy "year must be below 2050" rule). */
export const DOB_YEAR_LIMIT = 2050;

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Today as `YYYY-MM-DD`, or a function giving it, so a long-lived schema can follow the clock. */
export type Today = string | (() => string);

export function resolveToday(today: Today): string {
  return typeof today === 'function' ? today() : today;
}

/** Parses `YYYY-MM-DD`; null when it is not a real calendar date. */
export function parseIsoDate(value: string): { year: number; month: number; day: number } | null {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isRealDate(year, month, day) ? { year, month, day } : null;
}

export function isIsoDate(value: string): boolean {
  return parseIsoDate(value) !== null;
}

/** `MM/DD/YYYY` to `YYYY-MM-DD`; null when it is not a real calendar date. */
export function usDateToIso(value: string): string | null {
  const match = US_DATE.exec(value.trim());
  if (!match) return null;
  const iso = `${match[3]}-${match[1]}-${match[2]}`;
  return isIsoDate(iso) ? iso : null;
}

/**
 * A calendar date as the spec's calls send it (`MM/DD/YYYY`) or in ISO form (`YYYY-MM-DD`), as
 * `YYYY-MM-DD`; null when it is neither or not a real calendar date.
 */
export function calendarDateToIso(value: string): string | null {
  const trimmed = value.trim();
  if (US_DATE.test(trimmed)) return usDateToIso(trimmed);
  return isIsoDate(trimmed) ? trimmed : null;
}

/** `YYYY-MM-DD` to `MM/DD/YYYY`. */
export function isoToUsDate(iso: string): string {
  const parts = parseIsoDate(iso);
  if (!parts) return '';
  return `${pad(parts.month)}/${pad(parts.day)}/${parts.year}`;
}

// Building an Intl formatter is costly; one per time zone is kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The formatter for a time zone, built on first use. Building the first one costs the browser
 * about 20 ms (its time-zone data loads), so a page that will need the date can build it ahead,
 * while it waits for the network.
 */
export function dateFormatterFor(timeZone = 'America/New_York'): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The calendar date of an instant in a time zone (the bank's own is America/New_York). */
export function isoDateOf(instant: Date, timeZone = 'America/New_York'): string {
  const parts = dateFormatterFor(timeZone).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Adds whole years, clamping Feb 29 to Feb 28 in a common year. */
export function addYears(iso: string, years: number): string {
  const parts = parseIsoDate(iso);
  if (!parts) throw new Error(`not an ISO date: ${iso}`);
  const year = parts.year + years;
  const day = isRealDate(year, parts.month, parts.day) ? parts.day : 28;
  return `${year}-${pad(parts.month)}-${pad(day)}`;
}

/**
 * Adds whole months, clamping the day to the end of a shorter month: 31 January plus one month is
 * 28 February (29 in a leap year), 31 March plus one month is 30 April.
 */
export function addMonths(iso: string, months: number): string {
  const parts = parseIsoDate(iso);
  if (!parts) throw new Error(`not an ISO date: ${iso}`);
  const index = parts.year * 12 + (parts.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${pad(month)}-${pad(Math.min(parts.day, lastDay))}`;
}

/** Adds whole days. */
export function addDays(iso: string, days: number): string {
  const parts = parseIsoDate(iso);
  if (!parts) throw new Error(`not an ISO date: ${iso}`);
  const date = new Date(Date.UTC(parts.year, parts.month - 1, parts.day + days));
  return date.toISOString().slice(0, 10);
}

/**
 * A date of birth is valid when it is a real date, not after today and before 2050.
 * Returns the reason it is not, or null.
 */
export function dateOfBirthProblem(iso: string, today: string): 'invalid' | 'future' | null {
  const parts = parseIsoDate(iso);
  if (!parts || parts.year >= DOB_YEAR_LIMIT || parts.year < 1900) return 'invalid';
  if (iso > today) return 'future';
  return null;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * The instant a wall-clock hour of a calendar date is in a time zone (an hour in the afternoon is
 * never in a change of time's gap or overlap).
 */
export function zonedInstant(isoDate: string, hour: number, timeZone: string): Date {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour);
  const offsetAt = (instant: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date(instant));
    const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    const wall = Date.UTC(
      part('year'),
      part('month') - 1,
      part('day'),
      part('hour'),
      part('minute'),
      part('second'),
    );
    return wall - instant;
  };
  const guess = asUtc - offsetAt(asUtc);
  return new Date(asUtc - offsetAt(guess));
}
