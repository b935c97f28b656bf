import { isoDateOf, isoToUsDate } from '../../../../domain/dates';

/** An instant as the bank's calendar date, MM/DD/YYYY (empty when it is no instant). */
export function bankDay(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? '' : isoToUsDate(isoDateOf(date));
}
