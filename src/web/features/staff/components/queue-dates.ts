import { isoDateOf, isoToUsDate } from '../../../../domain/dates';

/** An instant as the bank's calendar date, MM/DD/YYYY (empty when it is no instant). */
export function bankDay(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? '' : isoToUsDate(isoDateOf(date));
}

let clockFormat: Intl.DateTimeFormat | undefined;

/**
 * An instant as the back office shows one everywhere: the bank's date, MM/DD/YYYY, and its time in
 * Eastern ("11/27/2026 4:46 PM ET"), whatever the browser's own time zone (empty when it is no instant).
 */
export function bankMoment(instant: string): string {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return '';
  clockFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    hour: 'numeric',
    minute: '2-digit',
  });
  return `${isoToUsDate(isoDateOf(date))} ${clockFormat.format(date)} ET`;
}
