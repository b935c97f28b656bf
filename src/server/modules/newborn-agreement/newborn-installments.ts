import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { addDays, isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import {
  INSTALLMENT_LATE_AFTER_DAYS,
  INSTALLMENT_REMINDER_DAYS_AHEAD,
  type InstallmentRunCounts,
} from '../../../domain/newborn-agreement';
import { INSTALLMENT_LINK_EMAIL_SUBJECT } from '../../../domain/newborn-installments';
import { cardProcessingFee } from '../../../domain/payments';
import { declineKind, describeMethodOnFile, nextTryDay } from '../../../domain/storage-billing';
import { HttpError } from '../../lib/http-error';
import { createAgreementLinkToken } from '../../lib/link-tokens';
import type { Transaction } from '../../lib/run-once';
import { recordActivity } from '../clients/client-activities';
import { declineReasonOf } from '../payments/decline-reason';
import {
  type PaidCharge,
  type PaidClaim,
  type PaidOrderDeps,
  type PaidOrderKind,
  paidOrderRecovery,
  placePaidOrder,
} from '../payments/paid-order';
import { findMethodsOnFile, methodToCharge, type PaymentMethodRow } from '../payments/payment-methods';
import { priceBookOn } from '../prices/price-book-repository';
import { newbornAgreements, newbornInstallments } from './schema';

/**
 * The newborn installments' billing day (issue 21, DESIGN 8a), run by the billing run for each
 * day in order (payments/billing-run.ts, given this task by its composition points):
 *
 * 1. one $50 late charge on each installment still unpaid 30 days after its due date;
 * 2. the charges: each installment due (its date come, or its retry day), unpaid and not held
 *    by a charge under way, charged to the method on file through the paid-order workflow, keyed
 *    by the installment and the day; its receipt e-mailed; a decline is tried again on days 3, 7
 *    and 14 after the due date (a soft one), and e-mailed;
 * 3. the reminders: an e-mail 3 days before each installment, once (the outbox's dedupe key).
 */

export type InstallmentDeps = PaidOrderDeps & { contactUrl: string; publicUrl: string; linkSecret: Buffer };

/** An overdue installment's link to the agreement's page, where it is paid (14 days, like a decline's). */
const OVERDUE_LINK_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

export function agreementPageLink(
  deps: Pick<InstallmentDeps, 'publicUrl' | 'linkSecret' | 'clock'>,
  agreementId: string,
): string {
  const token = createAgreementLinkToken(
    deps.linkSecret,
    agreementId,
    deps.clock.now(),
    OVERDUE_LINK_LIFETIME_MS,
  );
  return `${deps.publicUrl}/newbornfinanceagreement/${token}`;
}

/**
 * The e-mail of an installment become overdue (its last try declined, none on file on its date, or
 * sent again by staff): the amount and a signed link to the agreement's page, where the main contact
 * pays it or changes the method.
 */
export function overdueInstallmentMail(
  deps: Pick<InstallmentDeps, 'publicUrl' | 'linkSecret' | 'clock' | 'contactUrl'>,
  agreement: { mainContact: string; mainContactEmail: string; installments: number; lateChargeCents: number },
  row: Pick<InstallmentRow, 'agreementId' | 'number' | 'dueDate' | 'paymentCents' | 'lateChargeCents'>,
) {
  return {
    to: agreement.mainContactEmail,
    subject: INSTALLMENT_LINK_EMAIL_SUBJECT,
    text: [
      `Dear ${agreement.mainContact},`,
      `Installment ${row.number} of ${agreement.installments} of your Newborn Finance Agreement, due ${isoToUsDate(row.dueDate)}, is overdue: ${formatUsd(amountOf(row))} is due${row.lateChargeCents > 0 ? `, with the late charge of ${formatUsd(row.lateChargeCents)}` : ''}. Card payments add the card processing fee.`,
      `Pay it, or change the payment method, here (the link is for you only and works for 14 days): ${agreementPageLink(deps, row.agreementId)}`,
      row.lateChargeCents > 0
        ? ''
        : `A late charge of ${formatUsd(agreement.lateChargeCents)} applies once a payment is ${INSTALLMENT_LATE_AFTER_DAYS} days late.`,
      `Questions: ${deps.contactUrl}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}

type InstallmentRow = typeof newbornInstallments.$inferSelect;

interface InstallmentClaim {
  installmentId: string;
  agreementId: string;
  number: number;
  day: string;
  tries: number;
}

const KIND = 'newborn-installment';

async function installmentRow(db: PaidOrderDeps['db'] | Transaction, id: string) {
  const [row] = await db.select().from(newbornInstallments).where(eq(newbornInstallments.id, id)).limit(1);
  return row;
}

async function agreementOf(db: PaidOrderDeps['db'] | Transaction, agreementId: string) {
  const [row] = await db
    .select({
      mainContact: newbornAgreements.mainContact,
      mainContactEmail: newbornAgreements.mainContactEmail,
      installments: newbornAgreements.installments,
      paymentKind: newbornAgreements.paymentKind,
      lateChargeCents: newbornAgreements.lateChargeCents,
    })
    .from(newbornAgreements)
    .where(eq(newbornAgreements.id, agreementId))
    .limit(1);
  return row;
}

/** What an installment charges: its payment and any late charge (the card fee comes on top). */
const amountOf = (row: Pick<InstallmentRow, 'paymentCents' | 'lateChargeCents'>) =>
  row.paymentCents + row.lateChargeCents;

/** The installment paid: its row, the Client Activity row and the receipt e-mail. */
async function confirmInstallment(
  tx: Transaction,
  deps: InstallmentDeps,
  claim: PaidClaim<InstallmentClaim>,
  charge: PaidCharge | null,
): Promise<{ paymentId: string }> {
  if (!charge) throw new Error('an installment is always charged');
  const [paid] = await tx
    .update(newbornInstallments)
    .set({
      status: 'paid',
      paidAt: deps.clock.now(),
      paidOn: claim.day,
      paymentId: charge.paymentId,
      paidTotalCents: charge.totalCents,
      claimOperationId: null,
      nextTryOn: null,
    })
    .where(
      and(
        eq(newbornInstallments.id, claim.installmentId),
        eq(newbornInstallments.claimOperationId, claim.operationId),
      ),
    )
    .returning();
  const agreement = await agreementOf(tx, claim.agreementId);
  if (paid && agreement) {
    await recordActivity(tx, {
      clientId: claim.clientId,
      type: 'Newborn Finance Installment',
      closeDate: claim.day,
      purchasedPlanName: `Newborn Finance Agreement installment ${paid.number} of ${agreement.installments}`,
      stageName: 'Closed Won',
      paymentId: charge.paymentId,
      amountCents: charge.totalCents,
    });
    const method = describeMethodOnFile({ kind: charge.kind, brand: charge.brand, last4: charge.last4 });
    await deps.mailer.enqueue(
      tx,
      {
        to: agreement.mainContactEmail,
        subject: 'Receipt: your newborn finance installment',
        text: [
          `Dear ${agreement.mainContact},`,
          `We charged ${formatUsd(charge.totalCents)} to your ${method} for installment ${paid.number} of ${agreement.installments} of your Newborn Finance Agreement, due ${isoToUsDate(paid.dueDate)}. Transaction ${charge.transactionId}.`,
          paid.balanceCents > 0
            ? `The balance still financed is ${formatUsd(paid.balanceCents)}.`
            : 'This was the last installment: the agreement is paid in full. Thank you.',
          'The receipt is attached.',
          `Questions: ${deps.contactUrl}`,
        ].join('\n\n'),
        attachments: charge.receiptDocumentId
          ? [
              {
                documentId: charge.receiptDocumentId,
                filename: 'receipt.pdf',
                contentType: 'application/pdf',
              },
            ]
          : [],
      },
      { dedupeKey: `newborn-installment:${paid.id}:paid` },
    );
  }
  return { paymentId: charge.paymentId };
}

/**
 * A try that took nothing. A decline counts as a try: a soft one is tried again on days 3, 7
 * and 14 after the due date, a hard one and the last try leave it unpaid; each is e-mailed. The
 * gateway unreachable, or a try cut short, does not count: it is tried again the next day.
 */
async function giveBackInstallment(
  tx: Transaction,
  deps: InstallmentDeps,
  claim: PaidClaim<InstallmentClaim>,
  error: unknown,
) {
  const [row] = await tx
    .update(newbornInstallments)
    .set({ claimOperationId: null })
    .where(
      and(
        eq(newbornInstallments.id, claim.installmentId),
        eq(newbornInstallments.claimOperationId, claim.operationId),
      ),
    )
    .returning();
  if (!row || row.paidAt) return;
  const reason = declineReasonOf(error);
  if (!reason) {
    if (row.nextTryOn) {
      await tx
        .update(newbornInstallments)
        .set({ nextTryOn: addDays(claim.day, 1) })
        .where(eq(newbornInstallments.id, row.id));
    }
    return;
  }
  const tries = claim.tries + 1;
  const nextTry = nextTryDay(row.dueDate, tries, declineKind(reason));
  await tx
    .update(newbornInstallments)
    .set({
      tries,
      lastDecline: reason,
      nextTryOn: nextTry,
      status: row.status === 'late' ? 'late' : nextTry ? 'retrying' : 'unpaid',
    })
    .where(eq(newbornInstallments.id, row.id));
  const agreement = await agreementOf(tx, row.agreementId);
  if (!agreement) return;
  if (!nextTry) {
    // The last try: the installment is overdue, and the e-mail carries the link to pay it.
    await deps.mailer.enqueue(tx, overdueInstallmentMail(deps, agreement, row), {
      dedupeKey: `newborn-installment:${row.id}:declined:${tries}`,
    });
    return;
  }
  await deps.mailer.enqueue(
    tx,
    {
      to: agreement.mainContactEmail,
      subject: 'Your newborn finance installment could not be charged',
      text: [
        `Dear ${agreement.mainContact},`,
        `We could not charge installment ${row.number} of ${agreement.installments} of your Newborn Finance Agreement (${formatUsd(amountOf(row))}, due ${isoToUsDate(row.dueDate)}).`,
        `We will try again on ${isoToUsDate(nextTry)}.`,
        `Questions, or to change the payment method: ${deps.contactUrl}`,
      ].join('\n\n'),
    },
    { dedupeKey: `newborn-installment:${row.id}:declined:${tries}` },
  );
}

/** An installment on the paid-order workflow. */
export function newbornInstallment(
  deps: InstallmentDeps,
): PaidOrderKind<InstallmentClaim, { paymentId: string }> {
  return {
    kind: KIND,
    receipt: true,
    confirm: (tx, _deps, claim, charge) => confirmInstallment(tx, deps, claim, charge),
    giveBack: (tx, claim, error) => giveBackInstallment(tx, deps, claim, error),
    async stillClaimed(_deps, claim) {
      return (await installmentRow(deps.db, claim.installmentId))?.claimOperationId === claim.operationId;
    },
    messages: {
      interrupted: 'The installment was interrupted; it is tried again.',
      notPaid: 'The installment payment did not go through.',
    },
  };
}

export function newbornInstallmentRecoveries(deps: InstallmentDeps) {
  return { [KIND]: paidOrderRecovery(deps, newbornInstallment(deps)) };
}

const OPEN: InstallmentRow['status'][] = ['due', 'retrying', 'unpaid', 'late'];

/** Charges one installment with the method on file, once per installment and day. */
async function chargeInstallment(
  deps: InstallmentDeps,
  row: InstallmentRow,
  method: PaymentMethodRow,
  day: string,
  book: Awaited<ReturnType<typeof priceBookOn>>['book'],
) {
  const amountCents = amountOf(row);
  return placePaidOrder(deps, newbornInstallment(deps), {
    owner: { clientId: row.clientId },
    idempotencyKey: `newborn-installment:${row.id}:${day}`,
    request: { installmentId: row.id, day },
    place: async () => ({
      async claim(tx, operationId) {
        const [held] = await tx
          .update(newbornInstallments)
          .set({ claimOperationId: operationId })
          .where(
            and(
              eq(newbornInstallments.id, row.id),
              inArray(newbornInstallments.status, OPEN),
              isNull(newbornInstallments.claimOperationId),
              isNull(newbornInstallments.paymentId),
            ),
          )
          .returning();
        if (!held) throw new HttpError('NOT_ALLOWED_NOW', 'The installment is not open.');
        return {
          installmentId: held.id,
          agreementId: held.agreementId,
          number: held.number,
          day,
          tries: held.tries,
        };
      },
      charge: {
        source: 'Newborn Finance Installment',
        purpose: 'newborn_installment',
        amountCents,
        // The agreement's terms: card payments add the card fee of the book in force that day.
        feeCents: cardProcessingFee(book, amountCents, method.kind),
        payment: { kind: method.kind, onFile: method },
        description: `Newborn Finance Agreement installment ${row.number}`,
      },
    }),
  });
}

/** An installment come due with no method on file: overdue, and e-mailed once. */
async function markOverdueWithoutMethod(deps: InstallmentDeps, row: InstallmentRow): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [held] = await tx
      .update(newbornInstallments)
      .set({ status: 'unpaid' })
      .where(
        and(
          eq(newbornInstallments.id, row.id),
          eq(newbornInstallments.status, 'due'),
          isNull(newbornInstallments.claimOperationId),
          isNull(newbornInstallments.paymentId),
        ),
      )
      .returning();
    if (!held) return false;
    const agreement = await agreementOf(tx, held.agreementId);
    if (agreement) {
      await deps.mailer.enqueue(tx, overdueInstallmentMail(deps, agreement, held), {
        dedupeKey: `newborn-installment:${held.id}:no-method`,
      });
    }
    return true;
  });
}

/**
 * Adds the one late charge to each installment still unpaid 30 days after its due date, with its
 * e-mail in the same transaction: a process that dies in between leaves neither.
 */
async function addLateCharges(deps: InstallmentDeps, day: string, clientIds: readonly string[] | undefined) {
  return deps.db.transaction(async (tx) => {
    const late = await tx
      .update(newbornInstallments)
      .set({
        status: 'late',
        // The agreement's own late charge, fixed when it was signed.
        lateChargeCents: sql`(select ${newbornAgreements.lateChargeCents} from ${newbornAgreements} where ${newbornAgreements.id} = ${newbornInstallments.agreementId})`,
      })
      .where(
        and(
          inArray(newbornInstallments.status, ['due', 'retrying', 'unpaid']),
          eq(newbornInstallments.lateChargeCents, 0),
          isNull(newbornInstallments.paymentId),
          isNull(newbornInstallments.claimOperationId),
          lte(newbornInstallments.dueDate, addDays(day, -INSTALLMENT_LATE_AFTER_DAYS)),
          clientIds ? inArray(newbornInstallments.clientId, [...clientIds]) : undefined,
        ),
      )
      .returning();
    for (const row of late) {
      const agreement = await agreementOf(tx, row.agreementId);
      if (!agreement) continue;
      await deps.mailer.enqueue(
        tx,
        {
          to: agreement.mainContactEmail,
          subject: 'Your newborn finance installment is late',
          text: [
            `Dear ${agreement.mainContact},`,
            `Installment ${row.number} of ${agreement.installments} of your Newborn Finance Agreement (${formatUsd(row.paymentCents)}, due ${isoToUsDate(row.dueDate)}) is still unpaid ${INSTALLMENT_LATE_AFTER_DAYS} days after its due date. As the agreement provides, a late charge of ${formatUsd(row.lateChargeCents)} is added: ${formatUsd(amountOf(row))} is now due.`,
            `Pay it, or change the payment method, here (the link is for you only and works for 14 days): ${agreementPageLink(deps, row.agreementId)}`,
            `Questions: ${deps.contactUrl}`,
          ].join('\n\n'),
        },
        { dedupeKey: `newborn-installment:${row.id}:late` },
      );
    }
    return late.length;
  });
}

/** The reminder of each installment falling due in 3 days, once. */
async function sendReminders(deps: InstallmentDeps, day: string, clientIds: readonly string[] | undefined) {
  const due = await deps.db
    .select()
    .from(newbornInstallments)
    .where(
      and(
        eq(newbornInstallments.status, 'due'),
        eq(newbornInstallments.dueDate, addDays(day, INSTALLMENT_REMINDER_DAYS_AHEAD)),
        clientIds ? inArray(newbornInstallments.clientId, [...clientIds]) : undefined,
      ),
    );
  for (const row of due) {
    const agreement = await agreementOf(deps.db, row.agreementId);
    if (!agreement) continue;
    const method = methodToCharge(await findMethodsOnFile(deps.db, row.clientId), agreement.paymentKind);
    const book = (await priceBookOn(deps.db, day)).book;
    const fee = method ? cardProcessingFee(book, amountOf(row), method.kind) : 0;
    await deps.mailer.enqueue(
      deps.db,
      {
        to: agreement.mainContactEmail,
        subject: 'Reminder: your newborn finance installment',
        text: [
          `Dear ${agreement.mainContact},`,
          method
            ? `On ${isoToUsDate(row.dueDate)} we will charge ${formatUsd(amountOf(row) + fee)} to your ${describeMethodOnFile(method)} for installment ${row.number} of ${agreement.installments} of your Newborn Finance Agreement${fee > 0 ? ` (${formatUsd(amountOf(row))} and the ${formatUsd(fee)} card processing fee)` : ''}. You do not need to do anything.`
            : `Installment ${row.number} of ${agreement.installments} of your Newborn Finance Agreement, ${formatUsd(amountOf(row))}, is due on ${isoToUsDate(row.dueDate)}, and no payment method is on file. Please add one on your agreement's page below.`,
          `Your payment schedule, a new payment method, or paying the balance off early (the link is for you only and works for 14 days): ${agreementPageLink(deps, row.agreementId)}`,
          `Questions: ${deps.contactUrl}`,
        ].join('\n\n'),
      },
      { dedupeKey: `newborn-installment:${row.id}:reminder` },
    );
  }
  return due.length;
}

/** The installments to charge on a day: first tries come due, retries come due; none held. */
async function installmentsToCharge(
  deps: InstallmentDeps,
  day: string,
  clientIds: readonly string[] | undefined,
) {
  return deps.db
    .select()
    .from(newbornInstallments)
    .where(
      and(
        or(
          and(eq(newbornInstallments.status, 'due'), lte(newbornInstallments.dueDate, day)),
          and(
            inArray(newbornInstallments.status, ['retrying', 'late']),
            lte(newbornInstallments.nextTryOn, day),
          ),
        ),
        isNull(newbornInstallments.claimOperationId),
        isNull(newbornInstallments.paymentId),
        clientIds ? inArray(newbornInstallments.clientId, [...clientIds]) : undefined,
      ),
    )
    .orderBy(asc(newbornInstallments.dueDate), asc(newbornInstallments.number));
}

/**
 * One billing day of the newborn installments: late charges, charges (and retries), reminders.
 * Safe to run twice: the late charge is added once, each charge is keyed by the installment and
 * the day and held while it runs, each e-mail has its dedupe key.
 */
export async function runInstallmentsDay(
  deps: InstallmentDeps,
  day: string,
  scope: { clientIds?: readonly string[] } = {},
): Promise<InstallmentRunCounts> {
  const counts: InstallmentRunCounts = { reminders: 0, charges: 0, declines: 0, lateCharges: 0 };
  counts.lateCharges = await addLateCharges(deps, day, scope.clientIds);
  const open = await installmentsToCharge(deps, day, scope.clientIds);
  const { book } = await priceBookOn(deps.db, day);
  for (const row of open) {
    const agreement = await agreementOf(deps.db, row.agreementId);
    const method = methodToCharge(
      await findMethodsOnFile(deps.db, row.clientId),
      agreement?.paymentKind ?? null,
    );
    // No method on file on its date: nothing to charge, so it is overdue at once (its e-mail
    // carries the link to pay it or give a method); it takes its late charge in 30 days.
    if (!method) {
      if (row.status === 'due' && (await markOverdueWithoutMethod(deps, row))) counts.declines += 1;
      continue;
    }
    try {
      await chargeInstallment(deps, row, method, day, book);
      counts.charges += 1;
    } catch {
      const after = await installmentRow(deps.db, row.id);
      if (after && after.tries > row.tries) counts.declines += 1;
    }
  }
  counts.reminders = await sendReminders(deps, day, scope.clientIds);
  deps.mailer.kick();
  return counts;
}
