import { and, asc, eq, inArray, or } from 'drizzle-orm';
import { addDays } from '../../../domain/dates';
import {
  type InstallmentBilling,
  installmentIsOverdue,
  installmentOwedCents,
} from '../../../domain/newborn-installments';
import { NOTICE_DAYS_AHEAD } from '../../../domain/storage-billing';
import { HttpError, notFound } from '../../lib/http-error';
import { maskedEmail } from '../../lib/masked-contact';
import { enforceRateLimits } from '../../lib/rate-limit';
import { clientContacts, clientFullName } from '../clients/client-directory';
import { type InstallmentDeps, overdueInstallmentMail } from './newborn-installments';
import { newbornAgreements, newbornInstallments } from './schema';

/** At most this many e-mails of an installment's link per client and hour (as the payment links). */
const LINKS_PER_CLIENT_PER_HOUR = 5;
const HOUR = 60 * 60 * 1000;

type Row = typeof newbornInstallments.$inferSelect;

const tally = (rows: readonly Row[], amount: (row: Row) => number) => ({
  count: rows.length,
  amountCents: rows.reduce((sum, row) => sum + amount(row), 0),
});

/**
 * The Billing page's newborn installments on the billing day: due in the next 30 days, charged
 * that day, declined and waiting for a retry, and overdue (each listed, for "Send payment link").
 */
export async function installmentBilling(
  deps: Pick<InstallmentDeps, 'db'>,
  day: string,
): Promise<InstallmentBilling> {
  const rows = await deps.db
    .select()
    .from(newbornInstallments)
    .where(
      or(
        inArray(newbornInstallments.status, ['due', 'retrying', 'unpaid', 'late']),
        and(eq(newbornInstallments.status, 'paid'), eq(newbornInstallments.paidOn, day)),
      ),
    )
    .orderBy(asc(newbornInstallments.dueDate), asc(newbornInstallments.number));
  const soon = addDays(day, NOTICE_DAYS_AHEAD);
  const overdue = rows.filter((row) => row.status !== 'paid' && installmentIsOverdue(row, day));
  const agreements =
    overdue.length === 0
      ? []
      : await deps.db
          .select({
            id: newbornAgreements.id,
            mainContact: newbornAgreements.mainContact,
            installments: newbornAgreements.installments,
          })
          .from(newbornAgreements)
          .where(inArray(newbornAgreements.id, [...new Set(overdue.map((row) => row.agreementId))]));
  const contacts = await clientContacts(
    deps.db,
    overdue.map((row) => row.clientId),
  );
  return {
    dueSoon: tally(
      rows.filter((row) => row.status === 'due' && row.dueDate >= day && row.dueDate <= soon),
      (row) => row.paymentCents,
    ),
    chargedToday: tally(
      rows.filter((row) => row.status === 'paid'),
      (row) => row.paidTotalCents ?? 0,
    ),
    retrying: tally(
      rows.filter((row) => row.status === 'retrying'),
      installmentOwedCents,
    ),
    overdue: tally(overdue, installmentOwedCents),
    overdueList: overdue.flatMap((row) => {
      const client = contacts.get(row.clientId);
      const agreement = agreements.find((a) => a.id === row.agreementId);
      if (!client || !agreement) return [];
      return [
        {
          id: row.id,
          clientActId: client.clientActId,
          clientName: clientFullName(client),
          mainContact: agreement.mainContact,
          number: row.number,
          of: agreement.installments,
          dueDate: row.dueDate,
          amountCents: installmentOwedCents(row),
          tries: row.tries,
          lastDecline: row.lastDecline,
        },
      ];
    }),
  };
}

/**
 * Staff e-mail the main contact an overdue installment's amount and a signed link to the
 * agreement's page (where it is paid). An installment that is not overdue, or unknown, is 404/409.
 */
export async function sendInstallmentPaymentLink(
  deps: InstallmentDeps,
  installmentId: string,
  day: string,
): Promise<{ clientId: string; sentTo: string }> {
  const [row] = await deps.db
    .select()
    .from(newbornInstallments)
    .where(eq(newbornInstallments.id, installmentId))
    .limit(1);
  if (!row) throw notFound();
  if (!installmentIsOverdue(row, day)) {
    throw new HttpError('NOT_ALLOWED_NOW', 'This installment is not overdue.');
  }
  const [agreement] = await deps.db
    .select()
    .from(newbornAgreements)
    .where(eq(newbornAgreements.id, row.agreementId))
    .limit(1);
  if (!agreement) throw notFound();
  const now = deps.clock.now();
  await enforceRateLimits(
    deps.db,
    now,
    [{ key: `installment-link:client:${row.clientId}`, limit: LINKS_PER_CLIENT_PER_HOUR, windowMs: HOUR }],
    'Too many links sent to this client. Please try again in an hour.',
  );
  await deps.mailer.send(overdueInstallmentMail(deps, agreement, row));
  return { clientId: row.clientId, sentTo: maskedEmail(agreement.mainContactEmail) };
}
