import { date, integer, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** When a row was written: every table's `created_at`. */
export const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

/**
 * A check the back office recorded when it arrived (the check queues): its number, amount and
 * date as written on it, who recorded it and when. The same staff member recording the same
 * check again is answered the same; anyone else is told who did.
 */
export const recordedCheck = () => ({
  checkNumber: text(),
  checkAmountCents: integer(),
  checkDate: date({ mode: 'string' }),
  checkRecordedBy: uuid(),
  checkRecordedAt: timestamp({ withTimezone: true }),
});
