import { and, eq, type SQL, sql } from 'drizzle-orm';
import { addDays, isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import type { BankDetails } from '../../../domain/site';
import {
  declineKind,
  describeMethodOnFile,
  renewalMessages as m,
  nextTryDay,
  storageYearsCharges,
  yearAmountCents,
} from '../../../domain/storage-billing';
import { storageYearName } from '../../../domain/storage-year-checks';
import type { Mail } from '../../adapters/mailer';
import { type Executor, returnedRows } from '../../db/client';
import { createPaymentLinkToken, PAYMENT_LINK_PATHS } from '../../lib/link-tokens';
import type { Transaction } from '../../lib/run-once';
import { type ClientActivity, recordActivities } from '../clients/client-activities';
import { type ClientContact, clientContact, clientContacts } from '../clients/client-directory';
import { extendStoragePaidUntilMany } from '../clients/client-holdings';
import { priceBookInForce } from '../prices/price-book-repository';
import { declineReasonOf } from './decline-reason';
import type { PaidCharge, PaidClaim, PaidOrderDeps, PaidOrderKind } from './paid-order';
import { paidOrderRecovery } from './paid-order';
import type { BatchKind } from './paid-order-batch';
import { annualStorageFees } from './schema';

/**
 * A storage year as a paid order (issue 21, DESIGN 8a): what its claim keeps, how a charge
 * confirms it (the year paid, paid-until moved, the Client Activity row, the receipt e-mail) and
 * how a try that took nothing gives it back. The billing run (storage-renewals.ts) charges the
 * years of a day in batches; recovery settles one year at a time with the same steps.
 */

export type RenewalDeps = PaidOrderDeps & {
  publicUrl: string;
  contactUrl: string;
  linkSecret: Buffer;
  /** Where a check goes, for the invoice of a client without a method on file. */
  bank: BankDetails;
};

export type FeeRow = typeof annualStorageFees.$inferSelect;

export interface RenewalClaim {
  feeId: string;
  yearNumber: number | null;
  day: string;
  chargeOn: string;
  tries: number;
  amountCents: number;
}

export interface RenewalPaid {
  feeId: string;
  transactionId: string;
  totalCents: number;
  paidUntil: string | null;
}

const KIND = 'storage-renewal';
const DECLINE_LINK_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

/** The key of a year's charge on a day: one charge per client, year and try, whoever runs it. */
export const renewalKey = (feeId: string, day: string) => `${KIND}:${feeId}:${day}`;

export function paymentLink(deps: RenewalDeps, clientActId: string, lifetimeMs: number): string {
  const token = createPaymentLinkToken(deps.linkSecret, clientActId, deps.clock.now(), lifetimeMs);
  return `${deps.publicUrl}${PAYMENT_LINK_PATHS.email}?t=${token}`;
}

/** The e-mail that tells a client their year went unpaid, with a signed link to pay it. */
export async function mailDecline(
  tx: Transaction,
  deps: RenewalDeps,
  row: FeeRow,
  outcome: { nextTry: string | null; tries: number },
) {
  const client = await clientContact(tx, row.clientId);
  if (!client) return;
  const link = paymentLink(deps, client.clientActId, DECLINE_LINK_LIFETIME_MS);
  const amount = formatUsd(yearAmountCents(row, row.methodKind === 'ach' ? 'ach' : 'card'));
  // What the link charges for the year (payment-service's overdueFees, as the payment page shows
  // it): the amounts its notice fixed, by card and by bank account, whatever version is in force.
  const { book } = await priceBookInForce(tx, deps.clock.now());
  const { card, ach } = storageYearsCharges(book, [row]);
  const text = [
    `Dear ${client.firstName},`,
    outcome.nextTry
      ? `We could not charge ${amount} for your annual storage (${storageYearName(row.yearNumber)}, due ${isoToUsDate(row.dueDate)}). We will try again on ${isoToUsDate(outcome.nextTry)}.`
      : `We could not charge ${amount} for your annual storage (${storageYearName(row.yearNumber)}, due ${isoToUsDate(row.dueDate)}), and the payment is now overdue.`,
    `To pay now (${formatUsd(card.totalCents)} by card, ${formatUsd(ach.totalCents)} by bank account), or to change your payment method, follow this link (for you only, good for 14 days):`,
    link,
    `Questions: ${deps.contactUrl}`,
  ].join('\n\n');
  await deps.mailer.enqueue(
    tx,
    { to: client.email, subject: outcome.nextTry ? m.declinedSubject : m.overdueSubject, text },
    { dedupeKey: `storage-renewal:${row.id}:unpaid:${outcome.tries}` },
  );
}

/** The paid year's line on Client Activity. */
function renewalActivity(claim: PaidClaim<RenewalClaim>, charge: PaidCharge): ClientActivity {
  return {
    clientId: claim.clientId,
    type: 'Annual Storage Fee',
    closeDate: claim.day,
    purchasedPlanName: `Annual Storage (${storageYearName(claim.yearNumber)})`,
    stageName: 'Closed Won',
    paymentId: charge.paymentId,
    amountCents: charge.totalCents,
  };
}

/** The receipt e-mail of a paid year, its receipt PDF drawn when it is sent. */
function renewalReceipt(
  deps: RenewalDeps,
  client: ClientContact,
  claim: PaidClaim<RenewalClaim>,
  charge: PaidCharge,
  paidUntil: string | null,
): { mail: Mail; dedupeKey: string } {
  const method = describeMethodOnFile({ kind: charge.kind, brand: charge.brand, last4: charge.last4 });
  return {
    mail: {
      to: client.email,
      subject: m.receiptSubject,
      text: [
        `Dear ${client.firstName},`,
        `We charged ${formatUsd(charge.totalCents)} to your ${method} for your annual storage (${storageYearName(claim.yearNumber)}). Transaction ${charge.transactionId}.`,
        paidUntil ? `Your storage is now paid until ${isoToUsDate(paidUntil)}.` : '',
        'The receipt is attached. Thank you.',
        `Questions: ${deps.contactUrl}`,
      ]
        .filter(Boolean)
        .join('\n\n'),
      attachments: [
        { receiptOfPaymentId: charge.paymentId, filename: 'receipt.pdf', contentType: 'application/pdf' },
      ],
    },
    dedupeKey: `storage-renewal:${claim.feeId}:paid`,
  };
}

/**
 * Confirms charged years in one transaction, as many as a batch holds: each year paid (if it is
 * still claimed by its order), paid-until moved, its Client Activity row and its receipt e-mail.
 */
export async function confirmRenewals(
  tx: Transaction,
  deps: RenewalDeps,
  approved: readonly { claim: PaidClaim<RenewalClaim>; charge: PaidCharge }[],
): Promise<Map<string, RenewalPaid>> {
  const answers = new Map<string, RenewalPaid>();
  if (approved.length === 0) return answers;
  const now = deps.clock.now();
  const values = sql.join(
    approved.map(
      ({ claim, charge }) =>
        sql`(${claim.feeId}::uuid, ${claim.operationId}::uuid, ${charge.paymentId}::uuid, ${claim.tries}::int, ${claim.day}::date)`,
    ),
    sql`, `,
  );
  const rows = await returnedRows<{ id: string; covers_until: string | null }>(
    tx,
    sql`
    update ${annualStorageFees}
    set status = 'paid', paid_at = ${now.toISOString()}::timestamptz, paid_on = v.day, payment_id = v.payment,
        claim_operation_id = null, recovered = v.tries > 0
    from (values ${values}) as v(fee, op, payment, tries, day)
    where ${annualStorageFees.id} = v.fee and ${annualStorageFees.claimOperationId} = v.op
    returning ${annualStorageFees.id}::text as id, ${annualStorageFees.coversUntil}::text as covers_until`,
  );
  const paid = new Map(rows.map((r) => [r.id, r.covers_until]));
  const confirmed = approved.filter(({ claim }) => paid.has(claim.feeId));
  const contacts = await clientContacts(
    tx,
    confirmed.map(({ claim }) => claim.clientId),
  );
  await extendStoragePaidUntilMany(
    tx,
    confirmed.flatMap(({ claim }) => {
      const paidUntil = paid.get(claim.feeId);
      return paidUntil ? [{ clientId: claim.clientId, paidUntil }] : [];
    }),
    now,
  );
  await recordActivities(
    tx,
    confirmed.map(({ claim, charge }) => renewalActivity(claim, charge)),
  );
  await deps.mailer.enqueueMany(
    tx,
    confirmed.flatMap(({ claim, charge }) => {
      const client = contacts.get(claim.clientId);
      return client ? [renewalReceipt(deps, client, claim, charge, paid.get(claim.feeId) ?? null)] : [];
    }),
  );
  for (const { claim, charge } of approved) {
    answers.set(claim.operationId, {
      feeId: claim.feeId,
      transactionId: charge.transactionId,
      totalCents: charge.totalCents,
      paidUntil: paid.get(claim.feeId) ?? null,
    });
  }
  return answers;
}

/**
 * Gives the year back after a try that took nothing. A decline counts as a try (the gateway's
 * reason classed soft or hard); the gateway unreachable, or a try cut short, does not: the year
 * is tried again the next day.
 */
async function giveBackRenewal(
  tx: Transaction,
  deps: RenewalDeps,
  claim: PaidClaim<RenewalClaim>,
  error: unknown,
) {
  const [row] = await tx
    .update(annualStorageFees)
    .set({ claimOperationId: null })
    .where(
      and(eq(annualStorageFees.id, claim.feeId), eq(annualStorageFees.claimOperationId, claim.operationId)),
    )
    .returning();
  if (!row || row.paidAt) return;
  const reason = declineReasonOf(error);
  if (reason === null) {
    if (row.status === 'retrying') {
      await tx
        .update(annualStorageFees)
        .set({ nextTryOn: addDays(claim.day, 1) })
        .where(eq(annualStorageFees.id, row.id));
    }
    return;
  }
  const tries = claim.tries + 1;
  const nextTry = nextTryDay(claim.chargeOn, tries, declineKind(reason));
  const [after] = await tx
    .update(annualStorageFees)
    .set({ tries, lastDecline: reason, status: nextTry ? 'retrying' : 'overdue', nextTryOn: nextTry })
    .where(eq(annualStorageFees.id, row.id))
    .returning();
  if (after) await mailDecline(tx, deps, after, { nextTry, tries });
}

async function feeRow(db: Executor, feeId: string): Promise<FeeRow | undefined> {
  const [row] = await db.select().from(annualStorageFees).where(eq(annualStorageFees.id, feeId)).limit(1);
  return row;
}

/** A storage year on the paid-order workflow: one at a time (recovery), or a day's in batches. */
export function storageRenewal(deps: RenewalDeps): PaidOrderKind<RenewalClaim, RenewalPaid> {
  return {
    kind: KIND,
    async confirm(tx, _deps, claim, charge) {
      if (!charge) throw new Error('a renewal is always charged');
      const answers = await confirmRenewals(tx, deps, [{ claim, charge }]);
      const answer = answers.get(claim.operationId);
      if (!answer) throw new Error('the renewal was not confirmed');
      return answer;
    },
    giveBack: (tx, claim, error) => giveBackRenewal(tx, deps, claim, error),
    async stillClaimed(_deps, claim) {
      const row = await feeRow(deps.db, claim.feeId);
      return row?.claimOperationId === claim.operationId;
    },
    messages: {
      interrupted: 'The renewal was interrupted; it is tried again.',
      notPaid: 'The renewal payment did not go through.',
    },
  };
}

export function storageRenewalRecoveries(deps: RenewalDeps) {
  return { [KIND]: paidOrderRecovery(deps, storageRenewal(deps)) };
}

/** A year to charge on a day, with the method secured for annual banking. */
export interface RenewalItem {
  row: FeeRow;
}

/**
 * The years of one billing day as a batch kind: each claimed if it is still due that day and
 * nobody holds it (a list read earlier may be stale: a retry rescheduled meanwhile is not charged
 * early), and confirmed together.
 */
export function storageRenewalBatch(
  deps: RenewalDeps,
  day: string,
  dueOn: SQL | undefined,
): BatchKind<RenewalItem, RenewalClaim, RenewalPaid> {
  return {
    ...storageRenewal(deps),
    async claimMany(tx, orders) {
      const values = sql.join(
        orders.map(({ order, operationId }) => sql`(${order.item.row.id}::uuid, ${operationId}::uuid)`),
        sql`, `,
      );
      const rows = await returnedRows<{
        op: string;
        fee: string;
        year_number: number | null;
        tries: number;
        amount_cents: number;
        charge_on: string;
      }>(
        tx,
        sql`
        update ${annualStorageFees} set claim_operation_id = v.op
        from (values ${values}) as v(fee, op)
        where ${annualStorageFees.id} = v.fee and ${dueOn ?? sql`true`}
          and ${annualStorageFees.claimOperationId} is null and ${annualStorageFees.paymentId} is null
          and ${annualStorageFees.paidAt} is null
        returning v.op::text as op, ${annualStorageFees.id}::text as fee,
          ${annualStorageFees.yearNumber} as year_number, ${annualStorageFees.tries} as tries,
          ${annualStorageFees.amountCents} as amount_cents,
          coalesce(${annualStorageFees.chargeOn}, ${annualStorageFees.dueDate})::text as charge_on`,
      );
      return new Map(
        rows.map((r) => [
          r.op,
          {
            feeId: r.fee,
            yearNumber: r.year_number,
            day,
            chargeOn: r.charge_on,
            tries: r.tries,
            amountCents: r.amount_cents,
          },
        ]),
      );
    },
    confirmMany: (tx, approved) => confirmRenewals(tx, deps, approved),
  };
}
