import { and, asc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { cancellationMessages, vialsText } from '../../../domain/cell-request-cancellation';
import { objectionMessages } from '../../../domain/cell-request-objection';
import { isoDateOf, isoToUsDate } from '../../../domain/dates';
import {
  type CreateLabel,
  type DeliveryConfirmation,
  shipmentMessages as m,
  type TrackingEvent,
  trackingStatusLabels,
} from '../../../domain/shipment';
import { orderNumber } from '../../../domain/site';
import type { CarrierEvent } from '../../adapters/carrier/carrier-adapter';
import type { AppDeps } from '../../app-deps';
import { HttpError, notFound } from '../../lib/http-error';
import { createIdLinkToken, readIdLinkToken } from '../../lib/link-tokens';
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
import { shipmentEvents, vialRequests } from './schema';

/**
 * Shipping a vial request (issue 22). A FedEx request gets its label from the carrier once the
 * practitioner approved it: the label is kept (encrypted, like every document), the request marked
 * shipped with its tracking number, the client and the clinic told. Tracking is polled until the
 * carrier scans it delivered, each scan on the request's timeline; delivery e-mails the clinic a
 * link to confirm the cells arrived frozen, recorded on the timeline too.
 */

export type ShippingDeps = Pick<
  AppDeps,
  'db' | 'clock' | 'carrier' | 'mailer' | 'documentsKey' | 'linkSecret' | 'leaseMs' | 'config'
>;
type RequestRow = typeof vialRequests.$inferSelect;

const KIND = 'vial-label';
/** How often a shipment is asked about (the sweep runs every minute). */
const CONFIRMATION_LINK_MS = 30 * 24 * 60 * 60_000;

/** Our reference for a request's package: short, printed on the label. */
export const packageReference = (requestId: string) => orderNumber('VR', requestId);

/**
 * Why a request may not ship now, or null: approval first, an ACT VIP price confirmed, and a
 * physician's request only once the client's objection window closed.
 */
export function shipRefusal(row: RequestRow, now: Date): HttpError | null {
  if (row.status === 'cancelled') return new HttpError('NOT_ALLOWED_NOW', cancellationMessages.isCancelled);
  if (row.objectionDeadline && now.getTime() < row.objectionDeadline.getTime()) {
    return new HttpError('NOT_ALLOWED_NOW', objectionMessages.shipBeforeWindowEnds(row.objectionDeadline));
  }
  if (!row.approvedByPractitionerAt) return new HttpError('NOT_ALLOWED_NOW', m.notApproved);
  if (row.shippingPriceToBeConfirmed && !row.vipPriceConfirmedAt) {
    return new HttpError('NOT_ALLOWED_NOW', m.vipPriceNotConfirmed);
  }
  return null;
}

async function tell(
  tx: Transaction,
  deps: ShippingDeps,
  row: RequestRow,
  event: string,
  message: { subject: string; lines: string[] },
  to: 'client' | 'clinic',
) {
  const address = to === 'clinic' ? row.shippingEmail : (await clientContact(tx, row.clientId))?.email;
  if (!address) return;
  await deps.mailer.enqueue(
    tx,
    { to: address, subject: message.subject, text: message.lines.join('\n\n') },
    { dedupeKey: `vial-request:${row.id}:${event}:${to}` },
  );
}

/** A vial request to the label workflow: FedEx only, approved, and an ACT VIP price confirmed. */
const vialLabels = (deps: ShippingDeps): LabelledOrders<CreateLabel> => ({
  kind: KIND,
  messages: { created: m.labelCreated, unavailable: m.carrierUnavailable },
  async claim(tx, requestId, operationId, body) {
    const [row] = await tx
      .select()
      .from(vialRequests)
      .where(eq(vialRequests.id, requestId))
      .for('update')
      .limit(1);
    if (!row || row.status === 'pending') throw notFound();
    if (row.shippingMethod !== 'FedEx') throw new HttpError('NOT_ALLOWED_NOW', m.notFedEx);
    if (row.shippedAt) throw new HttpError('ALREADY_COMPLETED', m.alreadyShipped);
    const refusal = shipRefusal(row, deps.clock.now());
    if (refusal) throw refusal;
    if (row.labelOperationId) throw new HttpError('ALREADY_COMPLETED', m.labelUnderWay);
    await tx
      .update(vialRequests)
      .set({
        labelOperationId: operationId,
        declaredContents: body.contents,
        dryShipperId: body.dryShipperId,
      })
      .where(eq(vialRequests.id, row.id));
    return { orderId: row.id, clientId: row.clientId };
  },
  async release(tx, requestId) {
    await tx.update(vialRequests).set({ labelOperationId: null }).where(eq(vialRequests.id, requestId));
  },
  async shipment(db, requestId, shipDate) {
    const [row] = await db.select().from(vialRequests).where(eq(vialRequests.id, requestId)).limit(1);
    if (!row) throw notFound();
    return {
      reference: packageReference(row.id),
      recipient: {
        contactName: `${row.contactFirstName} ${row.contactLastName}`,
        company: row.clinicName,
        phone: row.phone,
        streetLines: [row.street],
        city: row.city,
        state: row.state,
        zip: row.zip,
        country: 'US',
      },
      shipDate,
      contents: row.declaredContents ?? '',
      dryShipperId: row.dryShipperId ?? '',
    };
  },
  async record(tx, requestId, made) {
    const [shipped] = await tx
      .update(vialRequests)
      .set({
        status: 'shipped',
        shippedAt: made.now,
        trackingNumber: made.trackingNumber,
        carrier: deps.carrier.name,
        labelDocumentId: made.labelDocumentId,
        labelOperationId: null,
      })
      .where(and(eq(vialRequests.id, requestId), isNull(vialRequests.shippedAt)))
      .returning();
    if (!shipped) throw new HttpError('ALREADY_COMPLETED', m.alreadyShipped);
    if (shipped.clientActivityId)
      await updateActivity(tx, shipped.clientActivityId, { stageName: 'Shipped' });
    const lines = [
      `The stem cells of request ${packageReference(shipped.id)} (${vialsText(shipped.vials)}) left the laboratory today by FedEx Priority Overnight, for delivery on ${isoToUsDate(shipped.shipmentDate)}.`,
      `FedEx tracking number: ${made.trackingNumber}.`,
    ];
    await tell(tx, deps, shipped, 'shipped', { subject: 'Your stem cells have shipped', lines }, 'client');
    await tell(
      tx,
      deps,
      shipped,
      'shipped',
      {
        subject: 'Stem cells on their way to your clinic',
        lines: [
          `Dear ${shipped.contactFirstName} ${shipped.contactLastName},`,
          ...lines,
          'The package is a liquid nitrogen dry shipper: please receive it on arrival and keep it upright.',
        ],
      },
      'clinic',
    );
  },
});

/** Staff "Create label" on an approved FedEx request. */
export function createLabel(
  deps: ShippingDeps,
  input: { staffId: string; key: string; requestId: string; body: CreateLabel },
): Promise<{ message: string }> {
  return createCarrierLabel(deps, vialLabels(deps), {
    staffId: input.staffId,
    key: input.key,
    orderId: input.requestId,
    body: input.body,
  });
}

export const vialLabelRecoveries = (deps: ShippingDeps) => carrierLabelRecoveries(deps, vialLabels(deps));

/** The label PDF of a shipped request, for staff to print. */
export async function labelDocumentOf(deps: Pick<AppDeps, 'db'>, requestId: string) {
  const [row] = await deps.db
    .select({ clientId: vialRequests.clientId, labelDocumentId: vialRequests.labelDocumentId })
    .from(vialRequests)
    .where(eq(vialRequests.id, requestId))
    .limit(1);
  return labelOf(row);
}

/** Reads one shipment's scans and records the new ones; the delivery scan marks it delivered. */
export async function trackShipment(deps: ShippingDeps, row: RequestRow): Promise<void> {
  const scans = await carrierScans(deps, row, (now) =>
    deps.db.update(vialRequests).set({ lastTrackedAt: now }).where(eq(vialRequests.id, row.id)),
  );
  if (!scans) return;
  await recordScans(deps, row, scans);
  // A delivery's e-mails are in the outbox: send them now rather than at the next sweep.
  deps.mailer.kick();
}

async function recordScans(deps: ShippingDeps, row: RequestRow, events: CarrierEvent[]) {
  if (events.length === 0) return;
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(shipmentEvents)
      .values(events.map((e) => ({ vialRequestId: row.id, ...e })))
      .onConflictDoNothing();
    const delivered = events.find((e) => e.status === 'delivered');
    if (!delivered) return;
    const [done] = await tx
      .update(vialRequests)
      .set({ status: 'delivered', deliveredAt: delivered.at })
      .where(and(eq(vialRequests.id, row.id), isNull(vialRequests.deliveredAt)))
      .returning();
    if (!done) return;
    if (done.clientActivityId) await updateActivity(tx, done.clientActivityId, { stageName: 'Delivered' });
    const token = createIdLinkToken(
      deps.linkSecret,
      'delivery-confirmation',
      done.id,
      deps.clock.now(),
      CONFIRMATION_LINK_MS,
    );
    const link = `${deps.config.publicUrl.replace(/\/$/, '')}/delivery-confirmation/${token}`;
    await tell(
      tx,
      deps,
      done,
      'delivered',
      {
        subject: 'Your stem cells were delivered',
        lines: [
          `FedEx delivered the stem cells of request ${packageReference(done.id)} to ${done.clinicName || done.city}.`,
        ],
      },
      'client',
    );
    await tell(
      tx,
      deps,
      done,
      'delivered',
      {
        subject: m.confirmSubject,
        lines: [
          `Dear ${done.contactFirstName} ${done.contactLastName},`,
          `FedEx reports the stem cells of request ${packageReference(done.id)} (${vialsText(done.vials)}) delivered.`,
          `Please confirm they arrived frozen, or tell us what was wrong: ${link}`,
        ],
      },
      'clinic',
    );
  });
}

/** The sweep's part: shipments not yet delivered and not asked about for a while. */
export async function pollShipments(deps: ShippingDeps, limit = 50): Promise<number> {
  const rows = await deps.db
    .select()
    .from(vialRequests)
    .where(dueForTracking(vialRequests, deps.clock.now()))
    .orderBy(asc(vialRequests.lastTrackedAt))
    .limit(limit);
  for (const row of rows) await trackShipment(deps, row);
  return rows.length;
}

/** Staff "Check tracking now" on one request. */
export async function trackNow(deps: ShippingDeps, requestId: string): Promise<void> {
  const [row] = await deps.db.select().from(vialRequests).where(eq(vialRequests.id, requestId)).limit(1);
  await trackShipment(deps, trackableOrder(row, 'This request has no carrier label to track.'));
}

/** The scans of these requests, oldest first, by request. */
export async function scansOf(db: AppDeps['db'], requestIds: readonly string[]) {
  const byRequest = new Map<string, TrackingEvent[]>();
  if (requestIds.length === 0) return byRequest;
  const rows = await db
    .select()
    .from(shipmentEvents)
    .where(inArray(shipmentEvents.vialRequestId, [...requestIds]))
    .orderBy(asc(shipmentEvents.at));
  for (const row of rows) {
    const list = byRequest.get(row.vialRequestId) ?? [];
    list.push({
      at: row.at.toISOString(),
      status: row.status,
      place: row.place,
      description: row.description,
    });
    byRequest.set(row.vialRequestId, list);
  }
  return byRequest;
}

/** What the clinic's link shows: the package, and the answer already given if any. */
export async function deliveryOfLink(deps: ShippingDeps, token: string) {
  const id = readIdLinkToken(deps.linkSecret, 'delivery-confirmation', token, deps.clock.now());
  if (!id) throw new HttpError('NOT_FOUND', m.confirmInvalid);
  const [row] = await deps.db.select().from(vialRequests).where(eq(vialRequests.id, id)).limit(1);
  if (!row?.deliveredAt) throw new HttpError('NOT_FOUND', m.confirmInvalid);
  return {
    reference: packageReference(row.id),
    clinicName: row.clinicName,
    vials: row.vials,
    deliveredOn: isoToUsDate(isoDateOf(row.deliveredAt)),
    answer:
      row.deliveryConfirmedAt && row.deliveryArrivedFrozen !== null
        ? { arrivedFrozen: row.deliveryArrivedFrozen, note: row.deliveryConfirmationNote ?? '' }
        : null,
  };
}

/** The clinic's answer: recorded once (a second answer returns the first). */
export async function confirmDelivery(deps: ShippingDeps, input: DeliveryConfirmation) {
  const id = readIdLinkToken(deps.linkSecret, 'delivery-confirmation', input.token, deps.clock.now());
  if (!id) throw new HttpError('NOT_FOUND', m.confirmInvalid);
  if (!input.arrivedFrozen && !input.note) {
    throw new HttpError('VALIDATION', m.confirmNoteRequired, { note: m.confirmNoteRequired });
  }
  await deps.db
    .update(vialRequests)
    .set({
      deliveryConfirmedAt: deps.clock.now(),
      deliveryArrivedFrozen: input.arrivedFrozen,
      deliveryConfirmationNote: input.note,
    })
    .where(
      and(
        eq(vialRequests.id, id),
        isNotNull(vialRequests.deliveredAt),
        isNull(vialRequests.deliveryConfirmedAt),
      ),
    );
  return deliveryOfLink(deps, input.token);
}

/** The timeline's shipping rows: each scan, and the clinic's confirmation. */
export function shippingTimeline(row: RequestRow, scans: TrackingEvent[]) {
  return {
    carrier: row.carrier,
    courier: row.courier,
    scans: scans.map((s) => ({ ...s, label: trackingStatusLabels[s.status] })),
    deliveryConfirmation: row.deliveryConfirmedAt
      ? {
          at: row.deliveryConfirmedAt.toISOString(),
          arrivedFrozen: row.deliveryArrivedFrozen ?? false,
          note: row.deliveryConfirmationNote ?? '',
        }
      : null,
  };
}
