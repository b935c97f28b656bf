import { and, type Column, eq, isNotNull, isNull, lt, or, type SQL } from 'drizzle-orm';
import { isoDateOf } from '../../../domain/dates';
import type { CarrierEvent, ShipmentRequest } from '../../adapters/carrier/carrier-adapter';
import type { AppDeps } from '../../app-deps';
import { storeDocument } from '../../lib/document-store';
import { HttpError, notFound } from '../../lib/http-error';
import { type RecoveryRun, runOnce, type Transaction } from '../../lib/run-once';

/**
 * Staff "Create label" on something the bank ships (a vial request, a store order): once per
 * order whatever is pressed twice or by two members at once. The claim marks the order with the
 * operation (nothing else may label it meanwhile); the carrier is asked outside any transaction;
 * its label is kept (encrypted, like every document) and the order marked shipped in one
 * transaction with its e-mails. Cut short, the recovery asks the carrier again with the same
 * reference: the offline carrier answers the same shipment, and at FedEx a label made twice costs
 * nothing until it is scanned.
 */

export type LabelDeps = Pick<AppDeps, 'db' | 'clock' | 'carrier' | 'mailer' | 'documentsKey' | 'leaseMs'>;

export interface LabelClaim {
  orderId: string;
  clientId: string;
}

export interface MadeLabel {
  trackingNumber: string;
  labelDocumentId: string;
  now: Date;
}

/** What one kind of order says about itself to the label workflow. */
export interface LabelledOrders<B extends object = object> {
  /** The run-once kind, also the recovery's name. */
  kind: string;
  /** Locks the order, refuses what may not ship, marks it with the operation and what staff entered. */
  claim(tx: Transaction, orderId: string, operationId: string, body: B): Promise<LabelClaim>;
  /** Takes the operation's mark off the order (a label that was not made). */
  release(tx: Transaction, orderId: string): Promise<void>;
  /** The carrier's request for the order, read after the claim committed. */
  shipment(db: LabelDeps['db'], orderId: string, shipDate: string): Promise<ShipmentRequest>;
  /** Marks the order shipped with its label and tells whom it tells; refuses an order already shipped. */
  record(tx: Transaction, orderId: string, made: MadeLabel): Promise<void>;
  messages: { created: string; unavailable: string };
}

export function createCarrierLabel<B extends object>(
  deps: LabelDeps,
  orders: LabelledOrders<B>,
  input: { staffId: string; key: string; orderId: string; body: B },
): Promise<{ message: string }> {
  return runOnce<LabelClaim, { message: string }>(deps, {
    scope: `staff:${input.staffId}`,
    key: input.key,
    kind: orders.kind,
    request: { orderId: input.orderId, ...input.body },
    claim: (tx, operationId) => orders.claim(tx, input.orderId, operationId, input.body),
    release: (tx, claim) => orders.release(tx, claim.orderId),
    recover: (run, claim) => recoverLabel(deps, orders, run, claim),
    async work(run, claim) {
      run.setInDoubt(true);
      const done = await makeLabel(deps, orders, claim, (effects) => run.succeedWith(effects));
      deps.mailer.kick();
      return done;
    },
  });
}

async function makeLabel(
  deps: LabelDeps,
  orders: LabelledOrders<never>,
  claim: LabelClaim,
  commit: (effects: (tx: Transaction) => Promise<{ message: string }>) => Promise<{ message: string }>,
): Promise<{ message: string }> {
  const now = deps.clock.now();
  const request = await orders.shipment(deps.db, claim.orderId, isoDateOf(now));
  const made = await deps.carrier.createShipment(request);
  if (made.outcome === 'unavailable') throw new HttpError('CARRIER_UNAVAILABLE', orders.messages.unavailable);
  if (made.outcome === 'refused') throw new HttpError('CANNOT_SHIP', made.message);
  return commit(async (tx) => {
    const label = await storeDocument(tx, deps.documentsKey, {
      clientId: claim.clientId,
      kind: 'shipping_label',
      fileName: `label-${made.trackingNumber}.pdf`,
      contentType: 'application/pdf',
      content: made.labelPdf,
      now,
    });
    await orders.record(tx, claim.orderId, {
      trackingNumber: made.trackingNumber,
      labelDocumentId: label.id,
      now,
    });
    return { message: orders.messages.created };
  });
}

async function recoverLabel(
  deps: LabelDeps,
  orders: LabelledOrders<never>,
  run: RecoveryRun<{ message: string }>,
  claim: LabelClaim | null,
) {
  const interrupted = new HttpError('CARRIER_UNAVAILABLE', orders.messages.unavailable);
  if (!claim) {
    await run.fail(interrupted, async () => {});
    return 'settled' as const;
  }
  try {
    await makeLabel(deps, orders, claim, (effects) => run.succeedWith(effects));
  } catch (error) {
    await run.fail(error instanceof HttpError ? error : interrupted, (tx) =>
      orders.release(tx, claim.orderId),
    );
  }
  return 'settled' as const;
}

/** The recovery of a label cut short, by the workflow's kind (the reconciliation sweep's table). */
export function carrierLabelRecoveries(deps: LabelDeps, orders: LabelledOrders<never>) {
  return {
    [orders.kind]: (run: RecoveryRun<{ message: string }>, claim: LabelClaim | null) =>
      recoverLabel(deps, orders, run, claim),
  };
}

/** A label's document, to print: unknown order or no label yet, the same 404. */
export function labelOf(row: { clientId: string; labelDocumentId: string | null } | undefined) {
  if (!row?.labelDocumentId) throw notFound();
  return { clientId: row.clientId, documentId: row.labelDocumentId };
}

/**
 * Asks the carrier where a labelled shipment is: its scans so far, or null when it is not one the
 * carrier tracks (no label, already delivered) or the carrier had no answer. `asked` records when
 * it was asked, answered or not, so the sweep does not ask again at once.
 */
export async function carrierScans(
  deps: Pick<LabelDeps, 'clock' | 'carrier'>,
  shipment: {
    trackingNumber: string | null;
    carrier: string | null;
    shippedAt: Date | null;
    deliveredAt: Date | null;
    city: string;
    state: string;
  },
  asked: (now: Date) => Promise<unknown>,
): Promise<CarrierEvent[] | null> {
  const { trackingNumber, carrier, shippedAt, deliveredAt } = shipment;
  if (!trackingNumber || !carrier || !shippedAt || deliveredAt) return null;
  const now = deps.clock.now();
  const result = await deps.carrier.track({
    trackingNumber,
    shippedAt,
    now,
    destination: { city: shipment.city, state: shipment.state },
  });
  await asked(now);
  return result.outcome === 'tracked' ? result.events : null;
}

/** How long the tracking sweep waits before asking the carrier again about one shipment. */
const TRACK_EVERY_MS = 15 * 60_000;

/** The columns every shipped kind of order keeps for tracking. */
interface TrackedColumns {
  status: Column;
  carrier: Column;
  deliveredAt: Column;
  lastTrackedAt: Column;
}

/** The sweep's filter: labelled shipments not yet delivered and not asked about for a while. */
export function dueForTracking(table: TrackedColumns, now: Date): SQL | undefined {
  const before = new Date(now.getTime() - TRACK_EVERY_MS);
  return and(
    eq(table.status, 'shipped'),
    isNotNull(table.carrier),
    isNull(table.deliveredAt),
    or(isNull(table.lastTrackedAt), lt(table.lastTrackedAt, before)),
  );
}

/**
 * Staff "Check tracking now" on one order: unknown or not yet paid, the same 404; shipped without
 * a carrier label (by hand), refused with `notTracked`.
 */
export function trackableOrder<R extends { status: string; carrier: string | null }>(
  row: R | undefined,
  notTracked: string,
): R {
  if (!row || row.status === 'pending') throw notFound();
  if (!row.carrier) throw new HttpError('NOT_ALLOWED_NOW', notTracked);
  return row;
}
