import { fedexHolidays, weekdayOf } from '../../domain/carrier-calendar';
import { addDays } from '../../domain/dates';

/*
 * Dates the tests and the browser journeys pick relative to today (YYYY-MM-DD), so that what
 * they order stays valid whatever day they run on. Only the domain's calendar is used: the
 * journeys import this file too.
 */

/** The first date on or after `from` that falls on `weekday` (0 = Sunday ... 6 = Saturday). */
export function weekdayFrom(from: string, weekday: number): string {
  let date = from;
  while (weekdayOf(date) !== weekday) date = addDays(date, 1);
  return date;
}

/**
 * A shipment date every rule accepts: the first Tuesday at least `leadDays` after `today`, a week
 * later for as long as the Monday before it is a FedEx holiday (no shipment the day after one).
 */
export function validTuesday(today: string, leadDays: number): string {
  let date = weekdayFrom(addDays(today, leadDays), 2);
  const holidays = new Set(fedexHolidays(Number(date.slice(0, 4))).map((h) => h.date));
  while (holidays.has(addDays(date, -1))) date = addDays(date, 7);
  return date;
}
