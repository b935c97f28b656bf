import { and, asc, eq, isNull } from 'drizzle-orm';
import { type CreateStoreLabel, carrierCountryCode, shipmentMessages } from '../../../domain/shipment';
import { orderNumber } from '../../../domain/site';
import { planStoreQueueMessages as m } from '../../../domain/staff-queues';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { updateActivity } from '../clients/client-activities';
import { clientContact } from '../clients/client-directory';
import {
  carrierLabelRecoveries,
  carrierScans,
  createCarrierLabel,
  dueForTracking,
  type LabelledOrders,
  labelOf,
  trackableOrder,
} from './carrier-label';
import { storeOrders } from './schema';

/**
 * Shipping a store order (issue 22): staff "Create label" asks the carrier for the label (from the
 * laboratory, the serum's declared contents, no dry shipper), marks the order shipped with its
 * tracking number and e-mails the client; tracking is polled until the carrier scans it delivered,
 * which marks it delivered and tells the client. An order staff shipped by hand with a typed
 * tracking number has no carrier and is marked delivered by hand.
 */

export type StoreShippingDeps = Pick<
  AppDeps,
  'db' | 'clock' | 'carrier' | 'mailer' | 'documentsKey' | 'leaseMs'
>;
type OrderRow = typeof storeOrders.$inferSelect;

const KIND = 'store-label';
/** How often a shipment is asked about (the sweep runs every minute). */

/** Our reference for an order's package, printed on the label. */
export const storePackageReference = (orderId: string) => orderNumber('SO', orderId);

/** The order's e-mail to its client, and its Client Activity row's stage, in one transaction. */
export async function tellStoreClient(
  tx: Transaction,
  deps: Pick<AppDeps, 'mailer'>,
  row: OrderRow,
  event: 'shipped' | 'delivered',
  lines: string[],
) {
  if (row.clientActivityId) {
    await updateActivity(tx, row.clientActivityId, {
      stageName: event === 'shipped' ? 'Shipped' : 'Delivered',
    });
  }
  const client = await clientContact(tx, row.clientId);
  if (!client) return;
  await deps.mailer.enqueue(
    tx,
    {
      to: client.email,
      subject: `Client Portal: your store order ${event}`,
      text: [
        `Dear ${client.firstName},`,
        ...lines,
        `Order ${storePackageReference(row.id)}: ${row.quantity} × ${row.item}. You can follow it under Client Activity in the Client Portal.`,
      ].join('\n\n'),
    },
    { dedupeKey: `store-order:${row.id}:${event}` },
  );
}

const storeLabels = (deps: StoreShippingDeps): LabelledOrders<CreateStoreLabel> => ({
  kind: KIND,
  messages: { created: m.storeLabelCreated, unavailable: shipmentMessages.carrierUnavailable },
  async claim(tx, orderId, operationId, body) {
    const [row] = await tx
      .select()
      .from(storeOrders)
      .where(eq(storeOrders.id, orderId))
      .for('update')
      .limit(1);
    if (!row || row.status === 'pending') throw notFound();
    if (row.status === 'cancelled') throw new HttpError('NOT_ALLOWED_NOW', m.storeLabelCancelled);
    if (row.shippedAt) throw new HttpError('ALREADY_COMPLETED', m.storeLabelShipped);
    if (!carrierCountryCode(row.country)) throw new HttpError('CANNOT_SHIP', m.storeCountryUnknown);
    if (row.labelOperationId) throw new HttpError('ALREADY_COMPLETED', m.storeLabelUnderWay);
    await tx
      .update(storeOrders)
      .set({ labelOperationId: operationId, declaredContents: body.contents })
      .where(eq(storeOrders.id, row.id));
    return { orderId: row.id, clientId: row.clientId };
  },
  async release(tx, orderId) {
    await tx.update(storeOrders).set({ labelOperationId: null }).where(eq(storeOrders.id, orderId));
  },
  async shipment(db, orderId, shipDate) {
    const [row] = await db.select().from(storeOrders).where(eq(storeOrders.id, orderId)).limit(1);
    if (!row) throw notFound();
    return {
      reference: storePackageReference(row.id),
      recipient: {
        contactName: `${row.contactFirstName} ${row.contactLastName}`,
        company: '',
        phone: row.phone,
        streetLines: [row.street],
        city: row.city,
        state: row.state,
        zip: row.zip,
        country: carrierCountryCode(row.country) ?? 'US',
      },
      shipDate,
      contents: row.declaredContents ?? '',
    };
  },
  async record(tx, orderId, made) {
    const [shipped] = await tx
      .update(storeOrders)
      .set({
        status: 'shipped',
        shippedAt: made.now,
        trackingNumber: made.trackingNumber,
        carrier: deps.carrier.name,
        labelDocumentId: made.labelDocumentId,
        labelOperationId: null,
      })
      .where(
        and(eq(storeOrders.id, orderId), eq(storeOrders.status, 'ordered'), isNull(storeOrders.shippedAt)),
      )
      .returning();
    if (!shipped) throw new HttpError('ALREADY_COMPLETED', m.storeLabelShipped);
    await tellStoreClient(tx, deps, shipped, 'shipped', [
      `Your store order left our laboratory today by FedEx (reference ${storePackageReference(shipped.id)}).`,
      `Tracking number: ${made.trackingNumber}`,
    ]);
  },
});

/** Staff "Create label" on a store order not yet shipped. */
export function createStoreLabel(
  deps: StoreShippingDeps,
  input: { staffId: string; key: string; orderId: string; body: CreateStoreLabel },
): Promise<{ message: string }> {
  return createCarrierLabel(deps, storeLabels(deps), input);
}

export const storeLabelRecoveries = (deps: StoreShippingDeps) =>
  carrierLabelRecoveries(deps, storeLabels(deps));

/** The label PDF of a shipped store order, for staff to print. */
export async function storeLabelDocumentOf(db: Database, orderId: string) {
  const [row] = await db
    .select({ clientId: storeOrders.clientId, labelDocumentId: storeOrders.labelDocumentId })
    .from(storeOrders)
    .where(eq(storeOrders.id, orderId))
    .limit(1);
  return labelOf(row);
}

/** Asks the carrier where one order is; its delivery scan marks it delivered and tells the client. */
async function trackStoreOrder(deps: StoreShippingDeps, row: OrderRow): Promise<void> {
  const scans = await carrierScans(deps, row, (now) =>
    deps.db.update(storeOrders).set({ lastTrackedAt: now }).where(eq(storeOrders.id, row.id)),
  );
  const delivered = scans?.find((e) => e.status === 'delivered');
  if (!delivered) return;
  await deps.db.transaction(async (tx) => {
    const [done] = await tx
      .update(storeOrders)
      .set({ status: 'delivered', deliveredAt: delivered.at })
      .where(and(eq(storeOrders.id, row.id), isNull(storeOrders.deliveredAt)))
      .returning();
    if (done) {
      await tellStoreClient(tx, deps, done, 'delivered', [
        `FedEx delivered your store order in ${delivered.place}.`,
      ]);
    }
  });
  deps.mailer.kick();
}

/** The sweep's part: labelled orders not yet delivered and not asked about for a while. */
export async function pollStoreShipments(deps: StoreShippingDeps, limit = 50): Promise<number> {
  const rows = await deps.db
    .select()
    .from(storeOrders)
    .where(dueForTracking(storeOrders, deps.clock.now()))
    .orderBy(asc(storeOrders.lastTrackedAt))
    .limit(limit);
  for (const row of rows) await trackStoreOrder(deps, row);
  return rows.length;
}

/** Staff "Check tracking now" on one order. */
export async function trackStoreOrderNow(deps: StoreShippingDeps, orderId: string): Promise<void> {
  const [row] = await deps.db.select().from(storeOrders).where(eq(storeOrders.id, orderId)).limit(1);
  await trackStoreOrder(deps, trackableOrder(row, m.storeNotTracked));
}
