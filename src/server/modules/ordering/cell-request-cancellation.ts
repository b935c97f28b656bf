import { and, asc, eq } from 'drizzle-orm';
import {
  type CancellationTerms,
  type CancellationView,
  cancellationLines,
  cancellationTerms,
  cutoffText,
  cancellationMessages as m,
  vialsText,
} from '../../../domain/cell-request-cancellation';
import { objectionMessages } from '../../../domain/cell-request-objection';
import { isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { shipmentMessages } from '../../../domain/shipment';
import type { Executor } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { clientContact } from '../clients/client-directory';
import { givePrePaidVialsBack } from '../clients/client-holdings';
import type { PaymentDeps } from '../payments/ledger';
import { chargesForRefund, refundsOwedBy } from '../payments/refunds';
import { findPhysician } from '../physicians/physician-repository';
import { priceBookInForce } from '../prices/price-book-repository';
import {
  type OwedRefunds,
  owedRefundsDue,
  owedRefundsOutcome,
  refundCancelled,
  sendRefundsOwed,
  tellClientCancelled,
} from './owed-refunds';
import { vialRequests } from './schema';

/**
 * Cancelling a vial request (issue 22, spec 3's policy; the terms in the domain). The cancellation
 * commits first, under a lock on the request: its terms fixed (refund owed per charge, fee kept,
 * vials given back or forfeited), the vials given back, the client's activity and e-mail. The
 * refunds follow through the payments module, one live refund per charge and request by
 * constraint; one refused for now (a charge not settled yet) or cut short is sent by the sweep.
 * A second cancellation, at once or later, answers what the first did.
 */

type RequestRow = typeof vialRequests.$inferSelect;
const sourceOf = (requestId: string) => `vial-request:${requestId}`;

/**
 * The requested vials the request's pre-paid vials cover: its Bio-Insurance vials one for one, and
 * the vials its Longevity vials cover (10 Longevity vials a vial, as recorded when it was placed).
 */
export function prePaidVialsOf(row: Pick<RequestRow, 'bioInsuranceVialsUsed' | 'longevityCoveredVials'>) {
  return row.bioInsuranceVialsUsed + row.longevityCoveredVials;
}

/** The pre-paid vials the request took, by kind. */
const takenBy = (row: RequestRow) => ({
  bioInsurance: row.bioInsuranceVialsUsed,
  longevity: row.longevityVialsUsed,
});

async function termsFor(
  db: Executor,
  row: RequestRow,
  now: Date,
  objection = false,
): Promise<CancellationTerms & { feeCents: number }> {
  const ids = [row.paymentId, row.vipPaymentId].filter((id): id is string => id !== null);
  const found = await chargesForRefund(db, ids);
  // The order's charge first (it holds the vials), then the ACT VIP price charged later. The
  // overdue annual storage the order's charge paid stays paid: none of it is the request's to refund.
  const charges = ids
    .flatMap((id) => found.filter((c) => c.paymentId === id))
    .map((c) =>
      c.paymentId === row.paymentId
        ? {
            ...c,
            totalCents: c.totalCents - row.overdueStorageCents - row.overdueStorageFeeCents,
            feeCents: c.feeCents - row.overdueStorageFeeCents,
          }
        : c,
    );
  const { book } = await priceBookInForce(db, row.requestedAt ?? row.createdAt);
  const terms = cancellationTerms({
    now,
    deliveryDate: row.shipmentDate,
    shipped: row.status === 'shipped' || row.status === 'delivered',
    vials: row.vials,
    prePaidVials: prePaidVialsOf(row),
    charges,
    replacementFeeCents: book.vialReplacementFeeCents,
    objection,
  });
  return { ...terms, feeCents: book.vialReplacementFeeCents };
}

/** The request's cancellation as its page shows it: the terms now, why it is closed, or what was done. */
export async function cancellationView(db: Executor, row: RequestRow, now: Date): Promise<CancellationView> {
  if (row.status === 'cancelled' && row.cancelledAt) {
    const done = await refundsOwedBy(db, sourceOf(row.id));
    return {
      state: 'cancelled',
      cancelledAt: row.cancelledAt.toISOString(),
      by: row.objectedAt ? 'objection' : row.cancelledBy ? 'staff' : 'client',
      refundCents: row.cancelRefundCents ?? 0,
      refundedCents: [...done.values()].reduce((sum, c) => sum + c.doneCents, 0),
      keptCents: row.cancelKeptCents ?? 0,
      returnedVials: row.cancelReturnedVials ?? 0,
      forfeitedVials: row.cancelForfeitedVials ?? 0,
    };
  }
  const terms = await termsFor(db, row, now);
  if (!terms.allowed) return { state: 'closed', cutoff: terms.cutoff, message: m.shipped };
  return {
    state: 'open',
    phase: terms.phase,
    cutoff: terms.cutoff,
    refundCents: terms.refundCents,
    keptCents: terms.keptCents,
    returnedVials: terms.returnedVials,
    forfeitedVials: terms.forfeitedVials,
    lines: cancellationLines(terms, terms.feeCents, takenBy(row)),
  };
}

/**
 * Cancels a request of this client (by the client, or by staff with a reason, or by the client's
 * objection to a physician's request within its window, at no cost): the same 404 for another
 * client's request as for an unknown one; refused once shipped.
 */
export async function cancelCellRequest(
  deps: PaymentDeps,
  input: {
    clientId: string | null;
    id: string;
    staffId: string | null;
    reason: string | null;
    objection?: { note: string };
  },
): Promise<{ clientId: string; row: RequestRow }> {
  const { db, clock } = deps;
  const cancelled = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(vialRequests)
      .where(
        input.clientId
          ? and(eq(vialRequests.id, input.id), eq(vialRequests.clientId, input.clientId))
          : eq(vialRequests.id, input.id),
      )
      .for('update')
      .limit(1);
    if (!row || row.status === 'pending') throw notFound();
    const objection = input.objection;
    if (objection && !row.objectionDeadline) throw notFound();
    if (row.status === 'cancelled') {
      // A second objection answers the first; an objection to a request cancelled otherwise is refused.
      if (objection && !row.objectedAt)
        throw new HttpError('NOT_ALLOWED_NOW', objectionMessages.cancelledOtherwise);
      return { row, fresh: false };
    }
    const now = clock.now();
    if (objection && row.objectionDeadline) {
      if (row.shippedAt) throw new HttpError('NOT_ALLOWED_NOW', objectionMessages.shipped);
      if (now.getTime() >= row.objectionDeadline.getTime()) {
        throw new HttpError('NOT_ALLOWED_NOW', objectionMessages.closed(row.objectionDeadline));
      }
    }
    // An ACT VIP price being charged now: cancelling waits for its outcome, so it is refunded too.
    if (row.vipPriceOperationId && !row.vipPriceConfirmedAt)
      throw new HttpError('PAYMENT_IN_PROGRESS', m.paymentUnderWay);
    // A label being made: the carrier may be creating the shipment; its outcome decides.
    if (row.labelOperationId) throw new HttpError('NOT_ALLOWED_NOW', shipmentMessages.labelBeingMade);
    const terms = await termsFor(tx, row, now, Boolean(objection));
    if (!terms.allowed) throw new HttpError('NOT_ALLOWED_NOW', m.shipped);
    const [updated] = await tx
      .update(vialRequests)
      .set({
        status: 'cancelled',
        cancelledAt: now,
        cancelledBy: input.staffId,
        cancelReason: objection ? 'Objection by the client' : input.reason,
        ...(objection ? { objectedAt: now, objectionNote: objection.note } : {}),
        cancelPhase: terms.phase,
        cancelRefundCents: terms.refundCents,
        cancelKeptCents: terms.keptCents,
        cancelReturnedVials: terms.returnedVials,
        cancelForfeitedVials: terms.forfeitedVials,
        cancelRefundsJson: JSON.stringify(terms.refunds satisfies OwedRefunds),
        cancelRefundsSettledAt: terms.refunds.length === 0 ? now : null,
      })
      .where(eq(vialRequests.id, row.id))
      .returning();
    if (!updated) throw notFound();
    // Exactly what the request took: its Bio-Insurance vials, and its Longevity vials (10 a vial).
    if (terms.returnedVials > 0) await givePrePaidVialsBack(tx, row.clientId, takenBy(row));
    await tellClientCancelled(tx, deps, {
      clientId: row.clientId,
      activityId: row.clientActivityId,
      subject: m.emailSubject,
      lines: [
        `Your stem cell request of ${vialsText(row.vials)} for delivery on ${isoToUsDate(row.shipmentDate)} is cancelled${objection ? ' at your objection, at no cost' : input.staffId ? ' by ACT' : ''}${terms.phase === 'late' ? `, after the cancellation deadline (${cutoffText(terms.cutoff)})` : ''}.`,
        ...cancellationLines(terms, terms.feeCents, takenBy(row)),
        terms.refundCents > 0 ? 'You will receive a separate e-mail when the refund is sent.' : '',
      ],
      dedupeKey: `vial-request-cancelled:${row.id}`,
    });
    if (objection) await tellPhysicianObjected(tx, deps, updated, terms.refundCents);
    return { row: updated, fresh: true };
  });
  const row = await refundCancelled(deps, cancelled, (r) => sendOwedRefunds(deps, r));
  return { clientId: row.clientId, row };
}

/** The physician who placed the request hears of the client's objection, with the client's note. */
async function tellPhysicianObjected(
  tx: Transaction,
  deps: Pick<PaymentDeps, 'mailer'>,
  row: RequestRow,
  refundCents: number,
) {
  const physician = row.physicianId ? await findPhysician(tx, row.physicianId) : undefined;
  const client = await clientContact(tx, row.clientId);
  if (!physician || !client) return;
  const lines = [
    `Dear Dr. ${physician.lastName},`,
    `${client.firstName} ${client.lastName} objected to the stem cell request of ${vialsText(row.vials)} for delivery on ${isoToUsDate(row.shipmentDate)} that you placed: it is cancelled at no cost.`,
    refundCents > 0 ? `${formatUsd(refundCents)} is refunded to the account that paid.` : '',
    row.objectionNote ? `The client's note: ${row.objectionNote}` : '',
  ];
  await deps.mailer.enqueue(
    tx,
    {
      to: physician.email,
      subject: objectionMessages.physicianSubject,
      text: lines.filter(Boolean).join('\n\n'),
    },
    { dedupeKey: `vial-request-objected:${row.id}:physician` },
  );
}

/** Sends the refunds a cancelled request still owes. Returns the row as it stands after. */
async function sendOwedRefunds(deps: PaymentDeps, row: RequestRow): Promise<RequestRow> {
  const state = await sendRefundsOwed(deps, {
    source: sourceOf(row.id),
    owed: JSON.parse(row.cancelRefundsJson ?? '[]') as OwedRefunds,
    reason: row.objectedAt
      ? "Vial request cancelled at the client's objection: everything refunded"
      : row.cancelKeptCents
        ? `Vial request cancelled after the deadline (${formatUsd(row.cancelKeptCents)} kept as the replacement fee)`
        : 'Vial request cancelled before the deadline: everything refunded',
    requestedBy: row.cancelledBy,
    clientId: row.clientId,
  });
  const [after] = await deps.db
    .update(vialRequests)
    .set(owedRefundsOutcome(state, deps.clock.now(), deps.leaseMs))
    .where(eq(vialRequests.id, row.id))
    .returning();
  return after ?? row;
}

/** The sweep: the refunds of cancelled requests still owed and due a try. */
export async function sendCancellationRefunds(deps: PaymentDeps, limit = 20): Promise<number> {
  const rows = await deps.db
    .select()
    .from(vialRequests)
    .where(owedRefundsDue(vialRequests, vialRequests.cancelledAt, deps.clock.now()))
    .orderBy(asc(vialRequests.cancelledAt))
    .limit(limit);
  for (const row of rows) await sendOwedRefunds(deps, row);
  return rows.length;
}
