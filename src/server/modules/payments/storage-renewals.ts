import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { addDays, isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { type BankDetails, checkInstructions } from '../../../domain/site';
import {
  CHECK_GRACE_DAYS,
  cardExpiresBefore,
  chargeDay,
  checkMemo,
  declineKind,
  describeMethodOnFile,
  renewalMessages as m,
  NOTICE_MAX_DAYS,
  nextRenewalYear,
  nextTryDay,
  noticeDay,
  type RenewalMethod,
  renewalAmountCents,
  storageYearsCharges,
  yearAmountCents,
} from '../../../domain/storage-billing';
import { storageYearName } from '../../../domain/storage-year-checks';
import type { Executor } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import { createPaymentLinkToken, PAYMENT_LINK_PATHS } from '../../lib/link-tokens';
import type { Transaction } from '../../lib/run-once';
import { recordActivity } from '../clients/client-activities';
import { type ClientToBill, clientContact, clientsToBill } from '../clients/client-directory';
import { extendStoragePaidUntil } from '../clients/client-holdings';
import { priceBookInForce, priceBookOn } from '../prices/price-book-repository';
import { declineReasonOf } from './decline-reason';
import {
  type PaidCharge,
  type PaidClaim,
  type PaidOrderDeps,
  type PaidOrderKind,
  paidOrderRecovery,
  placePaidOrder,
} from './paid-order';
import { findMethodsOnFile, type PaymentMethodRow } from './payment-methods';
import { annualStorageFees } from './schema';

/**
 * Storage renewals (issue 21, DESIGN 8a), run one billing day at a time:
 *
 * 1. the notice: 30 days before a year falls due, one row per client and storage year
 *    (unique), its amount fixed from the price book in force that day, and its e-mail in the
 *    outbox in the same transaction, so it goes exactly once;
 * 2. the charge: on the charge day the method on file is charged through the paid-order
 *    workflow, keyed by the year's row and the day, the row claimed while it charges so a
 *    second process, a retry or the client's own payment cannot pay it twice;
 * 3. a decline is counted in the transaction that records it: a soft one is tried again on days
 *    3, 7 and 14, a hard one and the last try make the year overdue; each e-mails a signed link.
 */

export type RenewalDeps = PaidOrderDeps & {
  publicUrl: string;
  contactUrl: string;
  linkSecret: Buffer;
  /** Where a check goes, for the invoice of a client without a method on file. */
  bank: BankDetails;
};

type FeeRow = typeof annualStorageFees.$inferSelect;

interface RenewalClaim {
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
/** A notice's link works until the year is overdue. */
const NOTICE_LINK_LIFETIME_MS = (NOTICE_MAX_DAYS + CHECK_GRACE_DAYS) * 24 * 60 * 60 * 1000;
const DECLINE_LINK_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

function paymentLink(deps: RenewalDeps, clientActId: string, lifetimeMs: number): string {
  const token = createPaymentLinkToken(deps.linkSecret, clientActId, deps.clock.now(), lifetimeMs);
  return `${deps.publicUrl}${PAYMENT_LINK_PATHS.email}?t=${token}`;
}

/** The method secured for annual banking: the kind the notice named when still on file, else the other. */
function methodToCharge(
  methods: { card: PaymentMethodRow | null; ach: PaymentMethodRow | null },
  noticeKind: string | null,
): PaymentMethodRow | null {
  const usable = (row: PaymentMethodRow | null) => (row?.gatewayPaymentRef ? row : null);
  return noticeKind === 'ach'
    ? (usable(methods.ach) ?? usable(methods.card))
    : (usable(methods.card) ?? usable(methods.ach));
}

async function feeRow(db: Executor, feeId: string): Promise<FeeRow | undefined> {
  const [row] = await db.select().from(annualStorageFees).where(eq(annualStorageFees.id, feeId)).limit(1);
  return row;
}

/** The e-mail that tells a client their year went unpaid, with a signed link to pay it. */
async function mailDecline(
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

/** The renewal's confirmation: the year paid, paid-until moved, the activity row and the receipt e-mail. */
async function confirmRenewal(
  tx: Transaction,
  deps: RenewalDeps,
  claim: PaidClaim<RenewalClaim>,
  charge: PaidCharge | null,
): Promise<RenewalPaid> {
  if (!charge) throw new Error('a renewal is always charged');
  const now = deps.clock.now();
  const [paid] = await tx
    .update(annualStorageFees)
    .set({
      status: 'paid',
      paidAt: now,
      paidOn: claim.day,
      paymentId: charge.paymentId,
      claimOperationId: null,
      recovered: claim.tries > 0,
    })
    .where(
      and(eq(annualStorageFees.id, claim.feeId), eq(annualStorageFees.claimOperationId, claim.operationId)),
    )
    .returning();
  const paidUntil = paid?.coversUntil ?? null;
  if (paid) {
    if (paidUntil) await extendStoragePaidUntil(tx, claim.clientId, paidUntil, now);
    await recordActivity(tx, {
      clientId: claim.clientId,
      type: 'Annual Storage Fee',
      closeDate: claim.day,
      purchasedPlanName: `Annual Storage (${storageYearName(claim.yearNumber)})`,
      stageName: 'Closed Won',
      paymentId: charge.paymentId,
      amountCents: charge.totalCents,
    });
    const client = await clientContact(tx, claim.clientId);
    if (client) {
      const method = describeMethodOnFile({ kind: charge.kind, brand: charge.brand, last4: charge.last4 });
      await deps.mailer.enqueue(
        tx,
        {
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
        { dedupeKey: `storage-renewal:${claim.feeId}:paid` },
      );
    }
  }
  return {
    feeId: claim.feeId,
    transactionId: charge.transactionId,
    totalCents: charge.totalCents,
    paidUntil,
  };
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

/** A storage year on the paid-order workflow. */
export function storageRenewal(deps: RenewalDeps): PaidOrderKind<RenewalClaim, RenewalPaid> {
  return {
    kind: KIND,
    receipt: true,
    confirm: (tx, _deps, claim, charge) => confirmRenewal(tx, deps, claim, charge),
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

/**
 * How many clients a billing day works on at once. One after the other, each notice and charge
 * waits for its own commits to be flushed (and a bank of 10,000 clients due on one day would wait
 * minutes); side by side, their commits share the flushes. Each client's years still go one after
 * the other, and the pool (10 connections by default) keeps room for the requests served meanwhile.
 */
const CLIENTS_AT_ONCE = 8;

async function forEachClient<T>(items: T[], clientOf: (item: T) => string, work: (item: T) => Promise<void>) {
  const byClient = new Map<string, T[]>();
  for (const item of items) byClient.set(clientOf(item), [...(byClient.get(clientOf(item)) ?? []), item]);
  const queue = [...byClient.values()];
  await Promise.all(
    Array.from({ length: Math.min(CLIENTS_AT_ONCE, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        for (const item of next) await work(item);
      }
    }),
  );
}

/** What one billing day did. */
export interface DayCounts {
  notices: number;
  charges: number;
  declines: number;
  retries: number;
  overdue: number;
}

const noCounts = (): DayCounts => ({ notices: 0, charges: 0, declines: 0, retries: 0, overdue: 0 });

/**
 * The notices of a day: each banked client whose next year's notice day has come gets the
 * year's row and its notice, once (the row's unique client and year number).
 */
async function sendNotices(deps: RenewalDeps, day: string, clientActIds: readonly string[] | undefined) {
  const { db } = deps;
  const candidates = await clientsToBill(db, {
    paidUntilBy: addDays(day, NOTICE_MAX_DAYS),
    ...(clientActIds ? { clientActIds } : {}),
  });
  if (candidates.length === 0) return 0;
  // The end of what each candidate's rows already bill: the next year starts there.
  const billed = await db
    .select({
      clientId: annualStorageFees.clientId,
      coversUntil: sql<
        string | null
      >`max(coalesce(${annualStorageFees.coversUntil}, (${annualStorageFees.dueDate} + interval '1 year')::date))::text`,
    })
    .from(annualStorageFees)
    .where(
      inArray(
        annualStorageFees.clientId,
        candidates.map((c) => c.id),
      ),
    )
    .groupBy(annualStorageFees.clientId);
  const billedUntil = new Map(billed.map((b) => [b.clientId, b.coversUntil]));
  const { book } = await priceBookOn(db, day);
  let sent = 0;
  await forEachClient(
    candidates,
    (c) => c.id,
    async (client) => {
      const rowsEnd = billedUntil.get(client.id) ?? null;
      const coveredUntil =
        rowsEnd && rowsEnd > client.annualStoragePaidUntil ? rowsEnd : client.annualStoragePaidUntil;
      const year = nextRenewalYear(client.dateBankedIn, coveredUntil);
      if (noticeDay(year.dueDate) > day) return;
      if (await sendNotice(deps, client, year, day, book)) sent += 1;
    },
  );
  return sent;
}

async function sendNotice(
  deps: RenewalDeps,
  client: ClientToBill,
  year: ReturnType<typeof nextRenewalYear>,
  day: string,
  book: Parameters<typeof renewalAmountCents>[0],
): Promise<boolean> {
  const methods = await findMethodsOnFile(deps.db, client.id);
  const method = methodToCharge(methods, 'card');
  const methodKind: RenewalMethod = method ? method.kind : 'none';
  const chargeOn = chargeDay(year.dueDate, day);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(annualStorageFees)
      .values({
        clientId: client.id,
        yearNumber: year.yearNumber,
        dueDate: year.dueDate,
        coversUntil: year.coversUntil,
        amountCents: renewalAmountCents(book, 'card'),
        achAmountCents: renewalAmountCents(book, 'ach'),
        status: 'noticed',
        noticeOn: day,
        chargeOn,
        methodKind,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return false;
    await deps.mailer.enqueue(
      tx,
      { to: client.email, subject: m.noticeSubject, text: noticeText(deps, client, row, method) },
      { dedupeKey: `storage-renewal:${row.id}:notice` },
    );
    return true;
  });
}

function noticeText(deps: RenewalDeps, client: ClientToBill, row: FeeRow, method: PaymentMethodRow | null) {
  const due = isoToUsDate(row.dueDate);
  const chargeOn = isoToUsDate(row.chargeOn ?? row.dueDate);
  const amount = formatUsd(yearAmountCents(row, method?.kind ?? 'none'));
  const link = paymentLink(deps, client.clientActId, NOTICE_LINK_LIFETIME_MS);
  const lines = [
    `Dear ${client.firstName},`,
    `Your annual storage renews on ${due} (${storageYearName(row.yearNumber)}, storage paid until ${isoToUsDate(row.coversUntil ?? row.dueDate)} once it is paid). The amount is ${amount}.`,
  ];
  if (method) {
    const named = describeMethodOnFile(method);
    lines.push(`We will charge ${amount} to your ${named} on ${chargeOn}. You do not need to do anything.`);
    if (cardExpiresBefore(method, row.chargeOn ?? row.dueDate))
      lines.push(m.expiresBeforeDue(named, row.dueDate));
    lines.push(
      `To change the payment method, sign in to the Client Portal and open Payment Information, or follow this link (for you only, good until the payment is due): ${link}`,
    );
  } else {
    lines.push(
      `No payment method is on file, so this notice is your invoice: ${amount} is due by ${chargeOn}.`,
      `Pay online: add a card or bank account with this link (for you only) and it is charged on ${chargeOn}: ${link}`,
      `Or pay by check. ${checkInstructions(deps.bank, yearAmountCents(row, 'none'), checkMemo(client.clientActId, row.yearNumber))}`,
    );
  }
  lines.push(`Questions, or to stop the renewal: ${deps.contactUrl}`);
  return lines.join('\n\n');
}

/** Charges one open year with the method on file, through the paid-order workflow. */
async function chargeYear(deps: RenewalDeps, row: FeeRow, method: PaymentMethodRow, day: string) {
  const kind = storageRenewal(deps);
  return placePaidOrder(deps, kind, {
    owner: { clientId: row.clientId },
    idempotencyKey: `storage-renewal:${row.id}:${day}`,
    request: { feeId: row.id, day },
    place: async () => ({
      async claim(tx, operationId) {
        const [held] = await tx
          .update(annualStorageFees)
          .set({ claimOperationId: operationId })
          .where(
            and(
              eq(annualStorageFees.id, row.id),
              // Still due on this day, as the row stands now (a list read earlier may be stale: a
              // retry rescheduled meanwhile is not charged early).
              dueOn(day),
              isNull(annualStorageFees.claimOperationId),
              isNull(annualStorageFees.paymentId),
              isNull(annualStorageFees.paidAt),
            ),
          )
          .returning();
        if (!held) throw new HttpError('NOT_ALLOWED_NOW', m.notOpen);
        return {
          feeId: held.id,
          yearNumber: held.yearNumber,
          day,
          chargeOn: held.chargeOn ?? held.dueDate,
          tries: held.tries,
          amountCents: held.amountCents,
        };
      },
      charge: {
        source: 'Annual Storage Renewal',
        purpose: 'annual_storage_renewal',
        // By card the card-or-check amount, with no further fee; by ACH the maintenance fee.
        amountCents: yearAmountCents(row, method.kind),
        feeCents: 0,
        payment: { kind: method.kind, onFile: method },
        description: `Annual storage, ${storageYearName(row.yearNumber)}`,
      },
    }),
  });
}

/** A year due a charge on this day: a first try whose charge day has come, or a retry whose day has. */
const dueOn = (day: string) =>
  or(
    and(eq(annualStorageFees.status, 'noticed'), lte(annualStorageFees.chargeOn, day)),
    and(eq(annualStorageFees.status, 'retrying'), lte(annualStorageFees.nextTryOn, day)),
  );

/** The open years to act on this day: first tries due, retries due. */
async function openYears(deps: RenewalDeps, day: string, clientIds: readonly string[] | undefined) {
  return deps.db
    .select()
    .from(annualStorageFees)
    .where(
      and(
        dueOn(day),
        isNull(annualStorageFees.claimOperationId),
        isNull(annualStorageFees.paymentId),
        clientIds ? inArray(annualStorageFees.clientId, [...clientIds]) : undefined,
      ),
    )
    .orderBy(annualStorageFees.chargeOn);
}

/** A year nobody can pay automatically (no method, or by check) becomes overdue 14 days after its charge day. */
async function markUnpaidOverdue(deps: RenewalDeps, row: FeeRow): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [after] = await tx
      .update(annualStorageFees)
      .set({ status: 'overdue' })
      .where(
        and(
          eq(annualStorageFees.id, row.id),
          eq(annualStorageFees.status, 'noticed'),
          isNull(annualStorageFees.claimOperationId),
          isNull(annualStorageFees.paymentId),
        ),
      )
      .returning();
    if (!after) return false;
    await mailDecline(tx, deps, after, { nextTry: null, tries: after.tries });
    return true;
  });
}

async function chargeDue(deps: RenewalDeps, day: string, clientIds: readonly string[] | undefined) {
  const counts = noCounts();
  await forEachClient(
    await openYears(deps, day, clientIds),
    (row) => row.clientId,
    async (row) => {
      const client = await clientContact(deps.db, row.clientId);
      if (!client) return;
      // Prepaid years (a storage plan) moved paid-until past this year: nothing to charge.
      if (
        row.coversUntil &&
        client.annualStoragePaidUntil &&
        client.annualStoragePaidUntil >= row.coversUntil
      ) {
        await deps.db
          .update(annualStorageFees)
          .set({ status: 'covered' })
          .where(
            and(eq(annualStorageFees.id, row.id), inArray(annualStorageFees.status, ['noticed', 'retrying'])),
          );
        return;
      }
      const method = methodToCharge(await findMethodsOnFile(deps.db, row.clientId), row.methodKind);
      if (!method) {
        const chargeOn = row.chargeOn ?? row.dueDate;
        if (day >= addDays(chargeOn, CHECK_GRACE_DAYS) && (await markUnpaidOverdue(deps, row))) {
          counts.overdue += 1;
        }
        return;
      }
      try {
        await chargeYear(deps, row, method, day);
        counts.charges += 1;
      } catch {
        const after = await feeRow(deps.db, row.id);
        if (after && after.tries > row.tries) {
          counts.declines += 1;
          if (after.status === 'retrying') counts.retries += 1;
          if (after.status === 'overdue') counts.overdue += 1;
        }
      }
    },
  );
  return counts;
}

/** One billing day: its notices, then its charges and retries. */
export async function runBillingDay(
  deps: RenewalDeps,
  day: string,
  scope: { clientIds?: readonly string[]; clientActIds?: readonly string[] } = {},
): Promise<DayCounts> {
  const notices = await sendNotices(deps, day, scope.clientActIds);
  const charged = await chargeDue(deps, day, scope.clientIds);
  deps.mailer.kick();
  return { ...charged, notices };
}
