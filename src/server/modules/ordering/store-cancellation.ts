import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { shipmentMessages } from '../../../domain/shipment';
import { orderNumber } from '../../../domain/site';
import { storeCancellationMessages as m, type StoreOrderSummary } from '../../../domain/store';
import type { Executor } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-error';
import type { PaymentDeps } from '../payments/ledger';
import { chargesForRefund, refundsOwedBy } from '../payments/refunds';
import {
  owedRefundsDue,
  owedRefundsOutcome,
  refundCancelled,
  sendRefundsOwed,
  tellClientCancelled,
} from './owed-refunds';
import { storeOrders } from './schema';

/**
 * Cancelling a store order (issue 22): before it ships, by its client or by staff with a reason,
 * with everything refunded (voided whole while the charge is unsettled). The cancellation commits
 * first under a lock on the order (the refund owed fixed, the Client Activity row and the
 * e-mail), then the refund goes through the payments module under the order's source, one live
 * refund per charge; one refused for now or cut short is sent by the sweep. A second
 * cancellation, at once or later, answers what the first did.
 */

type OrderRow = typeof storeOrders.$inferSelect;
const sourceOf = (orderId: string) => `store-order:${orderId}`;

async function refundedOf(db: Executor, row: OrderRow): Promise<number> {
  if (!row.cancelledAt) return 0;
  const done = await refundsOwedBy(db, sourceOf(row.id));
  return [...done.values()].reduce((sum, c) => sum + c.doneCents, 0);
}

async function summaryOf(db: Executor, row: OrderRow): Promise<StoreOrderSummary> {
  return {
    id: row.id,
    status: row.status === 'pending' ? 'ordered' : row.status,
    orderedAt: (row.orderedAt ?? row.createdAt).toISOString(),
    item: row.item,
    quantity: row.quantity,
    totalCents: row.totalCents,
    ShipmentDate: row.shipmentDate,
    cancelledAt: row.cancelledAt ? row.cancelledAt.toISOString() : null,
    refundCents: row.cancelRefundCents,
    refundedCents: await refundedOf(db, row),
  };
}

/** The client's store orders not yet shipped, oldest first. */
export async function storeOrdersToShip(db: Executor, clientId: string): Promise<StoreOrderSummary[]> {
  const rows = await db
    .select()
    .from(storeOrders)
    .where(and(eq(storeOrders.clientId, clientId), inArray(storeOrders.status, ['ordered'])))
    .orderBy(asc(storeOrders.orderedAt), desc(storeOrders.createdAt))
    .limit(100);
  return Promise.all(rows.map((row) => summaryOf(db, row)));
}

/**
 * Cancels a store order of this client (by the client, or by staff with a reason): the same 404
 * for another client's order as for an unknown one; refused once shipped.
 */
export async function cancelStoreOrder(
  deps: PaymentDeps,
  input: { clientId: string | null; id: string; staffId: string | null; reason: string | null },
): Promise<{ row: OrderRow; order: StoreOrderSummary }> {
  const { db, clock } = deps;
  const cancelled = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(storeOrders)
      .where(
        input.clientId
          ? and(eq(storeOrders.id, input.id), eq(storeOrders.clientId, input.clientId))
          : eq(storeOrders.id, input.id),
      )
      .for('update')
      .limit(1);
    if (!row || row.status === 'pending' || !row.paymentId) throw notFound();
    if (row.status === 'cancelled') return { row, fresh: false };
    if (row.status !== 'ordered' || row.shippedAt) throw new HttpError('NOT_ALLOWED_NOW', m.shipped);
    // A label being made: the carrier may be creating the shipment; its outcome decides.
    if (row.labelOperationId) throw new HttpError('NOT_ALLOWED_NOW', shipmentMessages.labelBeingMade);
    const now = clock.now();
    const [charge] = await chargesForRefund(tx, [row.paymentId]);
    const refundCents = charge?.totalCents ?? 0;
    const [updated] = await tx
      .update(storeOrders)
      .set({
        status: 'cancelled',
        cancelledAt: now,
        cancelledBy: input.staffId,
        cancelReason: input.reason,
        cancelRefundCents: refundCents,
        cancelRefundsSettledAt: refundCents === 0 ? now : null,
      })
      .where(eq(storeOrders.id, row.id))
      .returning();
    if (!updated) throw notFound();
    await tellClientCancelled(tx, deps, {
      clientId: row.clientId,
      activityId: row.clientActivityId,
      subject: m.emailSubject,
      lines: [
        `Your store order ${orderNumber('SO', row.id)} (${row.quantity} x ${row.item}, arrival ${isoToUsDate(row.shipmentDate)}) is cancelled${input.staffId ? ' by ACT' : ''}.`,
        refundCents > 0
          ? `${formatUsd(refundCents)}, everything you paid, is refunded to the account you paid with. You will receive a separate e-mail when the refund is sent.`
          : '',
      ],
      dedupeKey: `store-order-cancelled:${row.id}`,
    });
    return { row: updated, fresh: true };
  });
  const row = await refundCancelled(deps, cancelled, (r) => sendOwedRefunds(deps, r));
  return { row, order: await summaryOf(db, row) };
}

/** Sends the refund a cancelled order still owes. Returns the row as it stands after. */
async function sendOwedRefunds(deps: PaymentDeps, row: OrderRow): Promise<OrderRow> {
  const state = await sendRefundsOwed(deps, {
    source: sourceOf(row.id),
    owed: row.paymentId ? [{ paymentId: row.paymentId, cents: row.cancelRefundCents ?? 0 }] : [],
    reason: 'Store order cancelled before shipping',
    requestedBy: row.cancelledBy,
    clientId: row.clientId,
  });
  const [after] = await deps.db
    .update(storeOrders)
    .set(owedRefundsOutcome(state, deps.clock.now(), deps.leaseMs))
    .where(eq(storeOrders.id, row.id))
    .returning();
  return after ?? row;
}

/** The sweep: the refunds of cancelled store orders still owed and due a try. */
export async function sendStoreCancellationRefunds(deps: PaymentDeps, limit = 20): Promise<number> {
  const rows = await deps.db
    .select()
    .from(storeOrders)
    .where(owedRefundsDue(storeOrders, storeOrders.cancelledAt, deps.clock.now()))
    .orderBy(asc(storeOrders.cancelledAt))
    .limit(limit);
  for (const row of rows) await sendOwedRefunds(deps, row);
  return rows.length;
}
