import { todayFor } from '../../../../domain/client';
import { calendarDateToIso, isoDateOf, isoToUsDate } from '../../../../domain/dates';
import {
  amountToCents,
  type CheckEntry,
  checkEntryProblems,
  staffQueueMessages as m,
} from '../../../../domain/staff-queues';
import type { Database } from '../../../db/client';
import { HttpError } from '../../../lib/http-error';
import { staffMemberName } from '../staff-accounts';

/**
 * The check queues' shared steps (new samples, plan orders, storage years): the check as typed
 * is judged and read once, and a check already recorded answers the same staff member sending
 * the same check again, and tells anyone else who recorded it and when.
 */

/** A check as recorded: its number, amount and date (YYYY-MM-DD). */
export interface CheckRead {
  checkNumber: string;
  checkAmountCents: number;
  checkDate: string;
}

/** The check typed on a queue's form for `dueCents`: read, or refused field by field (400). */
export function readCheckEntry(entry: CheckEntry, dueCents: number, now: Date): CheckRead {
  const problems = checkEntryProblems(entry, { dueCents, today: todayFor(now) });
  const firstProblem = Object.values(problems)[0];
  if (firstProblem) throw new HttpError('VALIDATION', firstProblem, problems);
  return {
    checkNumber: entry.checkNumber.trim(),
    checkAmountCents: amountToCents(entry.checkAmount) ?? 0,
    checkDate: calendarDateToIso(entry.checkDate) ?? '',
  };
}

/** The check a row holds, as its queue stored it. */
export interface CheckOnRow {
  checkNumber: string | null;
  checkAmountCents: number | null;
  checkDate: string | null;
  recordedBy: string | null;
  recordedAt: Date;
}

/**
 * Someone recorded a check on the row first. The same staff member with the same check (a double
 * click, a retry) is answered as the first time: returns. Anyone else: 409 with who and when.
 */
export async function refuseOtherCheck(
  db: Database,
  onRow: CheckOnRow,
  staffId: string,
  entered: CheckRead,
): Promise<void> {
  const same =
    onRow.recordedBy === staffId &&
    onRow.checkNumber === entered.checkNumber &&
    onRow.checkAmountCents === entered.checkAmountCents &&
    onRow.checkDate === entered.checkDate;
  if (same) return;
  throw new HttpError(
    'ALREADY_COMPLETED',
    m.checkAlreadyRecorded(
      await staffMemberName(db, onRow.recordedBy),
      isoToUsDate(isoDateOf(onRow.recordedAt)),
    ),
  );
}
