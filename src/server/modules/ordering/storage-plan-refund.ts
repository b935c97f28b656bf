import { and, asc, desc, eq } from 'drizzle-orm';
import { todayFor } from '../../../domain/client-basics';
import { isoDateOf, isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { orderNumber } from '../../../domain/site';
import {
  planRefundMessages as m,
  type PlanRefundResponse,
  type PlanRefundTerms,
  planRefundTerms,
  type StaffPlanOrder,
  takenBackText,
  takesSomethingBack,
} from '../../../domain/storage-plan-refund';
import type { Executor } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { recordActivity } from '../clients/client-activities';
import { clientContact } from '../clients/client-directory';
import { type StorageHoldings, storageHoldings, takeBackStoragePlan } from '../clients/client-holdings';
import type { PaymentDeps } from '../payments/ledger';
import { chargesForRefund, refundHeldCents, refundsOwedBy } from '../payments/refunds';
import { staffNames } from '../staff/staff-accounts';
import { owedRefundsDue, owedRefundsOutcome, refundCancelled, sendRefundsOwed } from './owed-refunds';
import { storagePlanOrders } from './schema';
import { type PlanOrderRow, planNames } from './storage-plan-service';

/**
 * Taking back the unused part of a paid Banking and Storage Plans order (issue 22): an admin,
 * with a reason, takes back the storage years not begun and the vials not used, by the domain's
 * planRefundTerms. Like a cancellation it commits its terms first, in one transaction under a
 * lock on the order and then on the client's record: the order marked (once: a second take-back
 * is refused), the paid-until date moved back, the vials taken off, a Client Activity row and the
 * client's e-mail. Then the refund goes through the payments module under the source
 * `storage-plan:<id>`, one live refund per charge; one refused for now (a charge not settled yet)
 * or cut short is sent by the reconciliation sweep (owed-refunds.ts).
 *
 * Decided here:
 * - The refund is not held for a second admin above the price book's approval limit: its amount
 *   is the rule's, not one typed, and the years and vials are already taken back when it is sent
 *   (as a cancellation's refund, which is not held either).
 * - A check order is taken back the same way, and its refund is by check: recorded on the order
 *   (takeBackRefundByCheck), nothing sent to the gateway, the admin told to mail the check.
 */

type OrderRow = PlanOrderRow;
const sourceOf = (orderId: string) => `storage-plan:${orderId}`;

/** What was paid for the order and what of that payment is refunded or held already. */
async function paymentOf(db: Executor, row: OrderRow): Promise<{ paidCents: number; refundedCents: number }> {
  if (!row.paymentId) return { paidCents: row.checkAmountCents ?? row.totalCents, refundedCents: 0 };
  const [charge] = await chargesForRefund(db, [row.paymentId]);
  return { paidCents: charge?.totalCents ?? 0, refundedCents: await refundHeldCents(db, row.paymentId) };
}

async function termsOf(db: Executor, row: OrderRow, holdings: StorageHoldings, today: string) {
  return planRefundTerms({
    order: row,
    ...(await paymentOf(db, row)),
    paidUntil: holdings.paidUntil,
    heldVials: { bioInsurance: holdings.bioInsurance, longevity: holdings.longevity },
    today,
  });
}

/** The order on the staff record: what a take-back would do today, or what one did. */
async function staffView(db: Executor, row: OrderRow, today: string): Promise<StaffPlanOrder> {
  const { paidCents } = await paymentOf(db, row);
  let preview: PlanRefundTerms | null = null;
  let takenBack: StaffPlanOrder['takenBack'] = null;
  if (row.takenBackAt) {
    const done = row.takeBackRefundByCheck ? new Map() : await refundsOwedBy(db, sourceOf(row.id));
    const by = await staffNames(db, [row.takenBackBy]);
    takenBack = {
      at: row.takenBackAt.toISOString(),
      by: by.get(row.takenBackBy ?? '') ?? null,
      reason: row.takeBackReason ?? '',
      years: row.yearsTakenBack ?? 0,
      bioInsuranceVials: row.bioInsuranceVialsTakenBack ?? 0,
      longevityVials: row.longevityVialsTakenBack ?? 0,
      refundCents: row.takeBackRefundCents ?? 0,
      byCheck: row.takeBackRefundByCheck ?? false,
      refundedCents: [...done.values()].reduce((sum, c) => sum + c.doneCents, 0),
    };
  } else {
    const holdings = await storageHoldings(db, row.clientId, { lock: false });
    if (holdings) preview = await termsOf(db, row, holdings, today);
  }
  return {
    id: row.id,
    orderedOn: isoDateOf(row.createdAt),
    planNames: planNames(row),
    storageYears: row.storageYears,
    bioInsuranceVials: row.bioInsuranceVials,
    longevityVials: row.longevityVials,
    totalCents: row.totalCents,
    paidCents,
    paymentDescription: row.paymentDescription,
    paidByCheck: row.paymentId === null,
    paidUntilAfter: row.paidUntilAfter,
    preview,
    takenBack,
  };
}

/** A client's paid plan orders, newest first, each with its take-back figures (the staff record). */
export async function staffPlanOrders(db: Executor, clientId: string, now: Date): Promise<StaffPlanOrder[]> {
  const rows = await db
    .select()
    .from(storagePlanOrders)
    .where(and(eq(storagePlanOrders.clientId, clientId), eq(storagePlanOrders.status, 'paid')))
    .orderBy(desc(storagePlanOrders.createdAt))
    .limit(100);
  const today = todayFor(now);
  return Promise.all(rows.map((row) => staffView(db, row, today)));
}

/** The client of a paid plan order, for the audit row; an unknown or unpaid one is 404. */
export async function planOrderClientId(db: Executor, id: string): Promise<string> {
  const [row] = await db
    .select({ clientId: storagePlanOrders.clientId, status: storagePlanOrders.status })
    .from(storagePlanOrders)
    .where(eq(storagePlanOrders.id, id))
    .limit(1);
  if (!row || row.status === 'pending') throw notFound();
  return row.clientId;
}

/** The take-back's terms committed with its effects; `fresh` when this call committed them. */
async function commitTakeBack(
  tx: Transaction,
  deps: Pick<PaymentDeps, 'mailer' | 'clock'>,
  input: { id: string; staffId: string; reason: string; key: string },
): Promise<{ row: OrderRow; fresh: boolean }> {
  const now = deps.clock.now();
  const [row] = await tx
    .select()
    .from(storagePlanOrders)
    .where(eq(storagePlanOrders.id, input.id))
    .for('update')
    .limit(1);
  if (!row || row.status === 'pending') throw notFound();
  if (row.takenBackAt) {
    // The same admin's repeat of the same submission answers it; any other is a second take-back.
    if (row.takeBackKey === input.key && row.takenBackBy === input.staffId) return { row, fresh: false };
    throw new HttpError('NOT_ALLOWED_NOW', m.alreadyTakenBack(isoDateOf(row.takenBackAt)));
  }
  if (row.status !== 'paid') throw new HttpError('NOT_ALLOWED_NOW', m.notPaid);
  const holdings = await storageHoldings(tx, row.clientId, { lock: true });
  if (!holdings) throw notFound();
  const terms = await termsOf(tx, row, holdings, todayFor(now));
  if (!takesSomethingBack(terms)) throw new HttpError('NOT_ALLOWED_NOW', m.nothingToTakeBack);
  const byCheck = row.paymentId === null;
  await takeBackStoragePlan(
    tx,
    row.clientId,
    {
      paidUntil: terms.paidUntilAfterTakeBack,
      bioInsuranceVials: terms.bioInsuranceVials,
      longevityVials: terms.longevityVials,
    },
    now,
  );
  const [updated] = await tx
    .update(storagePlanOrders)
    .set({
      takenBackAt: now,
      takenBackBy: input.staffId,
      takeBackReason: input.reason,
      takeBackKey: input.key,
      yearsTakenBack: terms.years,
      bioInsuranceVialsTakenBack: terms.bioInsuranceVials,
      longevityVialsTakenBack: terms.longevityVials,
      takeBackRefundCents: terms.refundCents,
      takeBackRefundByCheck: byCheck,
      paidUntilAfterTakeBack: terms.paidUntilAfterTakeBack,
      // Nothing for the gateway to send: settled at once.
      cancelRefundsSettledAt: byCheck || terms.refundCents === 0 ? now : null,
    })
    .where(eq(storagePlanOrders.id, row.id))
    .returning();
  if (!updated) throw notFound();
  const taken = takenBackText(terms);
  await recordActivity(tx, {
    clientId: row.clientId,
    type: 'Storage Plan Take-Back',
    closeDate: todayFor(now),
    purchasedPlanName: `${planNames(row)}: ${taken} taken back`,
    stageName: 'Taken Back',
  });
  const client = await clientContact(tx, row.clientId);
  if (client) {
    await deps.mailer.enqueue(
      tx,
      {
        to: client.email,
        subject: m.emailSubject,
        text: [
          `Dear ${client.firstName},`,
          `We took back the unused part of your Banking and Storage Plans order ${orderNumber('SP', row.id)} (${planNames(row)}): ${taken}.`,
          ...(terms.years > 0 && terms.paidUntilAfterTakeBack
            ? [`Your annual storage is now paid until ${isoToUsDate(terms.paidUntilAfterTakeBack)}.`]
            : []),
          terms.refundCents === 0
            ? 'Nothing is left of your payment to refund.'
            : byCheck
              ? `We will mail you a check for ${formatUsd(terms.refundCents)}.`
              : `${formatUsd(terms.refundCents)} is refunded to the account you paid with. You will receive a separate e-mail when the refund is sent.`,
        ].join('\n\n'),
      },
      { dedupeKey: `storage-plan-taken-back:${row.id}` },
    );
  }
  return { row: updated, fresh: true };
}

/**
 * An admin takes back the unused part of a paid plan order with a reason, and refunds it. Unknown
 * (or not yet placed) is 404; a second take-back, an unpaid check order or nothing to take back
 * is 409 with its words.
 */
export async function takeBackPlanOrder(
  deps: PaymentDeps,
  input: { id: string; staffId: string; reason: string; key: string },
): Promise<PlanRefundResponse> {
  const committed = await deps.db.transaction((tx) => commitTakeBack(tx, deps, input));
  const row = await refundCancelled(deps, committed, (r) => sendOwedRefund(deps, r));
  const cents = row.takeBackRefundCents ?? 0;
  return {
    success: true,
    message: row.takeBackRefundByCheck ? m.takenBackByCheck(cents) : m.takenBack(cents),
    order: await staffView(deps.db, row, todayFor(deps.clock.now())),
  };
}

/** Sends the refund a take-back still owes. Returns the row as it stands after. */
async function sendOwedRefund(deps: PaymentDeps, row: OrderRow): Promise<OrderRow> {
  if (row.takeBackRefundByCheck || row.cancelRefundsSettledAt) return row;
  const settled = await sendRefundsOwed(deps, {
    source: sourceOf(row.id),
    owed: row.paymentId ? [{ paymentId: row.paymentId, cents: row.takeBackRefundCents ?? 0 }] : [],
    reason: `Storage plan's unused part taken back: ${row.takeBackReason ?? ''}`.slice(0, 500),
    requestedBy: row.takenBackBy,
    clientId: row.clientId,
  });
  const [after] = await deps.db
    .update(storagePlanOrders)
    .set(owedRefundsOutcome(settled, deps.clock.now(), deps.leaseMs))
    .where(eq(storagePlanOrders.id, row.id))
    .returning();
  return after ?? row;
}

/** The sweep: the refunds of taken-back plan orders still owed and due a try. */
export async function sendPlanTakeBackRefunds(deps: PaymentDeps, limit = 20): Promise<number> {
  const rows = await deps.db
    .select()
    .from(storagePlanOrders)
    .where(owedRefundsDue(storagePlanOrders, storagePlanOrders.takenBackAt, deps.clock.now()))
    .orderBy(asc(storagePlanOrders.takenBackAt))
    .limit(limit);
  for (const row of rows) await sendOwedRefund(deps, row);
  return rows.length;
}
