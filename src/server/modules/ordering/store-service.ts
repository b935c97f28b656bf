import { and, eq } from 'drizzle-orm';
import { storeEarliestShipmentDate } from '../../../domain/carrier-calendar';
import { todayFor } from '../../../domain/client';
import { isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { orderNumber } from '../../../domain/site';
import {
  priceStoreOrder,
  SERUM_NAME,
  type SendStoreRequest,
  type SendStoreRequestResponse,
  storeMessages,
  storeShipmentDateProblem,
} from '../../../domain/store';
import { HttpError, notFound } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { refuseChangedOrderTotal } from '../../lib/shown-amounts';
import { recordActivity } from '../clients/client-activities';
import { clientContact } from '../clients/client-directory';
import { preferredAddressFrom, savePreferredAddress } from '../clients/client-holdings';
import { describePayment, resolveFormPayment } from '../forms/form-payment';
import {
  type PaidCharge,
  type PaidClaim,
  type PaidOrderDeps,
  type PaidOrderKind,
  type Placement,
  paidOrderRecovery,
  placePaidOrder,
} from '../payments/paid-order';
import { findPhysician } from '../physicians/physician-repository';
import { priceBookInForce } from '../prices/price-book-repository';
import { storeOrders } from './schema';
import { shipmentBlackoutDates } from './shipment-calendar-repository';

/**
 * send_CP_StoreRequest: serum for a client, ordered by the client or by a physician acting for
 * them (who pays with the physician's own card or account). Priced by the server (a different
 * shown total answers 409), charged once per key, then kept for the bank to ship with its Client
 * Activity row and confirmation e-mail (to the client and the shipping address; a paying physician
 * gets their own, with the card or account charged), on the run-once engine with recovery.
 */

const m = storeMessages;
const KIND = 'store-order';
const SOURCE = 'ACT Client Portal';

type OrderRow = typeof storeOrders.$inferSelect;

interface StoreClaim {
  orderId: string;
}

async function orderRow(db: PaidOrderDeps['db'] | Transaction, id: string) {
  const [row] = await db.select().from(storeOrders).where(eq(storeOrders.id, id)).limit(1);
  return row;
}

function responseOf(row: OrderRow, transactionId: string | null): SendStoreRequestResponse {
  return {
    success: true,
    message: m.submitted,
    id: row.id,
    TransactionId: transactionId,
    quantity: row.quantity,
    itemsCents: row.itemsCents,
    processingFeeCents: row.processingFeeCents,
    amountChargedCents: row.totalCents,
    ShipmentDate: row.shipmentDate,
  };
}

async function confirmOrder(
  tx: Transaction,
  deps: PaidOrderDeps,
  claim: PaidClaim<StoreClaim>,
  charge: PaidCharge | null,
): Promise<SendStoreRequestResponse> {
  if (!charge) throw new Error('a store order is always charged');
  const now = deps.clock.now();
  const row = await orderRow(tx, claim.orderId);
  if (!row) throw notFound();
  const answer = responseOf(row, charge.transactionId);
  if (row.status !== 'pending') return answer;
  const activityId = await recordActivity(tx, {
    clientId: claim.clientId,
    type: 'Store Order',
    closeDate: todayFor(now),
    purchasedPlanName: `${SERUM_NAME} x ${row.quantity}`,
    stageName: 'Closed Won',
    paymentId: charge.paymentId,
    amountCents: charge.totalCents,
  });
  await tx
    .update(storeOrders)
    .set({
      status: 'ordered',
      paymentId: charge.paymentId,
      transactionId: charge.transactionId,
      clientActivityId: activityId,
      orderedAt: now,
    })
    .where(and(eq(storeOrders.id, claim.orderId), eq(storeOrders.status, 'pending')));
  const client = await clientContact(tx, claim.clientId);
  if (!client) throw notFound();
  if (row.saveAddress) {
    await savePreferredAddress(tx, claim.clientId, preferredAddressFrom(row), now);
  }
  const number = orderNumber('SO', row.id);
  const physician = row.physicianId ? await findPhysician(tx, row.physicianId) : undefined;
  const orderLines = [
    `${SERUM_NAME}: ${row.quantity} x ${formatUsd(row.perBottleCents)} = ${formatUsd(row.itemsCents)}`,
    `Shipping (FedEx): ${formatUsd(row.shippingCents)}`,
    `Processing fee: ${formatUsd(row.processingFeeCents)}`,
  ];
  const shipTo = `Arrival date: ${isoToUsDate(row.shipmentDate)}. Ship to: ${row.contactFirstName} ${row.contactLastName}, ${row.street}, ${row.city}, ${row.state} ${row.zip}, ${row.country}.`;
  const paidWith = `Total charged: ${formatUsd(row.totalCents)} with ${row.paymentDescription}. Transaction ${charge.transactionId}.`;
  // The physician's card or account is the physician's business: the client reads who paid.
  const clientText = [
    `Dear ${client.firstName},`,
    physician
      ? `Your physician, Dr. ${physician.firstName} ${physician.lastName}, placed store order ${number} for you.`
      : `Thank you for your store order ${number}.`,
    ...orderLines,
    physician ? `Total: ${formatUsd(row.totalCents)}, paid by your physician.` : paidWith,
    shipTo,
  ].join('\n\n');
  const physicianEmail = physician?.email.toLowerCase();
  for (const to of new Set([client.email, row.shippingEmail])) {
    // A shipping address that is the paying physician's own gets the physician's confirmation.
    if (to.toLowerCase() === physicianEmail && to !== client.email) continue;
    await deps.mailer.enqueue(
      tx,
      { to, subject: 'Client Portal: your store order', text: clientText },
      { dedupeKey: `store-order:${row.id}:${to.toLowerCase()}` },
    );
  }
  if (physician) {
    await deps.mailer.enqueue(
      tx,
      {
        to: physician.email,
        subject: 'Physician Portal: your store order',
        text: [
          `Dear Dr. ${physician.lastName},`,
          `Thank you for your store order ${number} for ${client.firstName} ${client.lastName} (Client ID ${client.clientActId}).`,
          ...orderLines,
          paidWith,
          shipTo,
        ].join('\n\n'),
      },
      { dedupeKey: `store-order:${row.id}:physician` },
    );
  }
  return answer;
}

async function giveBackOrder(tx: Transaction, claim: StoreClaim) {
  await tx
    .delete(storeOrders)
    .where(and(eq(storeOrders.id, claim.orderId), eq(storeOrders.status, 'pending')));
}

/** A store order on the paid-order workflow: its confirm, answer and give-back. */
const storeOrder: PaidOrderKind<StoreClaim, SendStoreRequestResponse> = {
  kind: KIND,
  confirm: confirmOrder,
  giveBack: giveBackOrder,
  stillClaimed: async (deps, claim) => (await orderRow(deps.db, claim.orderId)) !== undefined,
  messages: {
    interrupted: 'The order was interrupted. Please submit it again.',
    notPaid: 'The payment did not go through and nothing was ordered. Please try again.',
  },
};

export function storeRecoveries(deps: PaidOrderDeps) {
  return { [KIND]: paidOrderRecovery(deps, storeOrder) };
}

export async function sendStoreRequest(
  deps: PaidOrderDeps,
  input: { clientId: string; physicianId: string | null; idempotencyKey: string; body: SendStoreRequest },
): Promise<SendStoreRequestResponse> {
  const { clientId, physicianId, body } = input;
  return placePaidOrder(deps, storeOrder, {
    owner: { clientId },
    idempotencyKey: input.idempotencyKey,
    request: { body, physicianId },
    place: () => priceStoreRequest(deps, input),
  });
}

/** Prices and checks a new store order: its claim and its charge. */
async function priceStoreRequest(
  deps: PaidOrderDeps,
  input: { clientId: string; physicianId: string | null; idempotencyKey: string; body: SendStoreRequest },
): Promise<Placement<StoreClaim>> {
  const { db, clock } = deps;
  const { clientId, physicianId, body } = input;
  const today = todayFor(clock.now());
  if (!(await clientContact(db, clientId))) throw notFound();

  const problem = storeShipmentDateProblem(body.ShipmentDate, {
    earliest: storeEarliestShipmentDate(today),
    blackoutDates: await shipmentBlackoutDates(db),
  });
  if (problem) throw new HttpError('VALIDATION', problem.message, { ShipmentDate: problem.message });

  const kind = body.PaymentMethod === 'Credit Card' ? 'card' : 'ach';
  // The order is priced by the book in force as it is placed.
  const { book } = await priceBookInForce(db, clock.now());
  const price = priceStoreOrder(book, body.stemskinserum.quantity, kind);
  refuseChangedOrderTotal(
    body,
    price.totalCents,
    `The order total is ${formatUsd(price.totalCents)}. Please review the order summary and submit again.`,
  );
  const owner = physicianId ? { physicianId } : clientId;
  const payment = await resolveFormPayment(
    db,
    owner,
    body,
    { first: m.firstName, last: m.lastName, month: m.cardEmpty, year: m.cardEmpty, email: m.billingEmail },
    today,
  );
  if (payment.kind === 'check') throw new HttpError('VALIDATION', m.paymentMethod);
  const paymentDescription = describePayment(payment);

  return {
    charge: {
      source: SOURCE,
      purpose: 'store_order',
      amountCents: price.itemsCents + price.shippingCents,
      feeCents: price.processingFeeCents,
      payment,
      description: `Store: ${SERUM_NAME} x ${price.quantity}`,
      ...(physicianId ? { payer: { physicianId } } : {}),
    },
    async claim(tx, operationId) {
      const [row] = await tx
        .insert(storeOrders)
        .values({
          clientId,
          physicianId,
          operationId,
          idempotencyKey: input.idempotencyKey,
          status: 'pending',
          item: SERUM_NAME,
          quantity: price.quantity,
          perBottleCents: price.perBottleCents,
          itemsCents: price.itemsCents,
          shippingCents: price.shippingCents,
          processingFeeCents: price.processingFeeCents,
          totalCents: price.totalCents,
          shippingMethod: 'FedEx',
          shipmentDate: body.ShipmentDate,
          contactFirstName: body.FirstName,
          contactLastName: body.LastName,
          shippingEmail: body.ShippingEmail,
          phone: body.Phone,
          street: body.Street,
          city: body.City,
          state: body.State,
          zip: body.ZipCode,
          country: body.Country,
          saveAddress: body.saveAddressForFuture,
          paymentMethod: body.PaymentMethod,
          paymentDescription,
          createdAt: clock.now(),
        })
        .returning({ id: storeOrders.id });
      if (!row) throw new Error('the store order was not written');
      return { orderId: row.id };
    },
  };
}
