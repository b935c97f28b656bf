import { and, eq } from 'drizzle-orm';
import { storeEarliestShipmentDate } from '../../../domain/carrier-calendar';
import { todayFor } from '../../../domain/client';
import { isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import {
  priceStoreOrder,
  SERUM_NAME,
  type SendStoreRequest,
  type SendStoreRequestResponse,
  storeMessages,
  storeShipmentDateProblem,
} from '../../../domain/store';
import { clientActivities, clients, operations, storeOrders } from '../../db/schema';
import { HttpError, notFound } from '../../lib/http-error';
import { type Recovered, type RecoveryRun, type Run, runOnce, type Transaction } from '../../lib/run-once';
import { refuseChangedOrderTotal } from '../../lib/shown-amounts';
import { describePayment, resolveFormPayment } from '../forms/form-payment';
import { chargeOnce, type OneOffCharge, type PaymentDeps } from '../payments/payment-service';
import { priceBookInForce } from '../prices/price-book-repository';
import { shipmentBlackoutDates } from './shipment-calendar-repository';

/**
 * send_CP_StoreRequest: serum for a client, ordered by the client or by a physician acting for
 * them (who pays with the physician's own card or account). Priced by the server (a different
 * shown total answers 409), charged once per key, then kept for the bank to ship with its Client
 * Activity row and confirmation e-mail, on the run-once engine with recovery.
 */

const m = storeMessages;
const KIND = 'store-order';
const SOURCE = 'ACT Client Portal';
const RECHECK_AFTER_MS = 60_000;

type OrderRow = typeof storeOrders.$inferSelect;

interface StoreClaim {
  orderId: string;
  clientId: string;
  chargeKey: string;
}

async function orderRow(db: PaymentDeps['db'] | Transaction, id: string) {
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
  deps: Pick<PaymentDeps, 'mailer' | 'clock'>,
  claim: StoreClaim,
  charge: OneOffCharge,
) {
  const now = deps.clock.now();
  const row = await orderRow(tx, claim.orderId);
  if (row?.status !== 'pending') return;
  const [activity] = await tx
    .insert(clientActivities)
    .values({
      clientId: claim.clientId,
      type: 'Store Order',
      closeDate: todayFor(now),
      purchasedPlanName: `${SERUM_NAME} x ${row.quantity}`,
      stageName: 'Closed Won',
      paymentId: charge.paymentId,
      amountCents: charge.totalCents,
    })
    .returning({ id: clientActivities.id });
  await tx
    .update(storeOrders)
    .set({
      status: 'ordered',
      paymentId: charge.paymentId,
      transactionId: charge.transactionId,
      clientActivityId: activity?.id ?? null,
      orderedAt: now,
    })
    .where(and(eq(storeOrders.id, claim.orderId), eq(storeOrders.status, 'pending')));
  const [client] = await tx
    .select({ email: clients.email, first: clients.firstName })
    .from(clients)
    .where(eq(clients.id, claim.clientId))
    .limit(1);
  if (!client) throw notFound();
  if (row.saveAddress) {
    await tx
      .update(clients)
      .set({
        preferredAddressContactFullName: `${row.contactFirstName} ${row.contactLastName}`,
        preferredAddressPhone: row.phone,
        preferredAddressStreet: row.street,
        preferredAddressCity: row.city,
        preferredAddressState: row.state,
        preferredAddressZip: row.zip,
        preferredAddressCountry: row.country,
        shippingClinicEmail: row.shippingEmail,
        updatedAt: now,
      })
      .where(eq(clients.id, claim.clientId));
  }
  const text = [
    `Dear ${client.first},`,
    `Thank you for your store order ${row.id}.`,
    `${SERUM_NAME}: ${row.quantity} x ${formatUsd(row.perBottleCents)} = ${formatUsd(row.itemsCents)}`,
    `Shipping (FedEx): ${formatUsd(row.shippingCents)}`,
    `Processing fee: ${formatUsd(row.processingFeeCents)}`,
    `Total charged: ${formatUsd(row.totalCents)} with ${row.paymentDescription}. Transaction ${charge.transactionId}.`,
    `Arrival date: ${isoToUsDate(row.shipmentDate)}. Ship to: ${row.contactFirstName} ${row.contactLastName}, ${row.street}, ${row.city}, ${row.state} ${row.zip}, ${row.country}.`,
  ].join('\n\n');
  for (const to of new Set([client.email, row.shippingEmail])) {
    await deps.mailer.enqueue(
      tx,
      { to, subject: 'Client Portal: your store order', text },
      { dedupeKey: `store-order:${row.id}:${to.toLowerCase()}` },
    );
  }
}

async function releaseOrder(tx: Transaction, claim: StoreClaim) {
  await tx
    .delete(storeOrders)
    .where(and(eq(storeOrders.id, claim.orderId), eq(storeOrders.status, 'pending')));
}

async function recoverOrder(
  deps: PaymentDeps,
  run: RecoveryRun<SendStoreRequestResponse>,
  claim: StoreClaim | null,
): Promise<Recovered> {
  const giveBack = (error: HttpError) =>
    run.fail(error, async (tx) => {
      if (claim) await releaseOrder(tx, claim);
    });
  const row = claim ? await orderRow(deps.db, claim.orderId) : undefined;
  if (!claim || !row) {
    await giveBack(
      new HttpError('IDEMPOTENCY_CONFLICT', 'The order was interrupted. Please submit it again.'),
    );
    return 'settled';
  }
  const [chargeOp] = await deps.db
    .select()
    .from(operations)
    .where(
      and(eq(operations.scope, `client:${claim.clientId}`), eq(operations.idempotencyKey, claim.chargeKey)),
    )
    .limit(1);
  if (chargeOp?.status === 'running') return { retryAfterMs: RECHECK_AFTER_MS };
  if (chargeOp?.status === 'succeeded') {
    const charge = JSON.parse(chargeOp.responseJson ?? 'null') as OneOffCharge;
    await run.succeed((tx) => confirmOrder(tx, deps, claim, charge), responseOf(row, charge.transactionId));
    return 'settled';
  }
  await giveBack(
    new HttpError(
      'PAYMENT_DECLINED',
      'The payment did not go through and nothing was ordered. Please try again.',
    ),
  );
  return 'settled';
}

export function storeRecoveries(deps: PaymentDeps) {
  return {
    [KIND]: (run: RecoveryRun<SendStoreRequestResponse>, claim: StoreClaim | null) =>
      recoverOrder(deps, run, claim),
  };
}

export async function sendStoreRequest(
  deps: PaymentDeps,
  input: { clientId: string; physicianId: string | null; idempotencyKey: string; body: SendStoreRequest },
): Promise<SendStoreRequestResponse> {
  const { db, clock } = deps;
  const { clientId, physicianId, body } = input;
  const today = todayFor(clock.now());
  const [client] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, clientId)).limit(1);
  if (!client) throw notFound();

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
  const chargeKey = `${input.idempotencyKey}:charge`;

  return runOnce<StoreClaim, SendStoreRequestResponse>(deps, {
    scope: `client:${clientId}`,
    key: input.idempotencyKey,
    kind: KIND,
    request: { body, physicianId },
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
      return { orderId: row.id, clientId, chargeKey };
    },
    release: (tx, claim) => releaseOrder(tx, claim),
    recover: (run, claim) => recoverOrder(deps, run, claim),
    async work(run: Run<SendStoreRequestResponse>, claim) {
      run.setInDoubt(true);
      let charge: OneOffCharge;
      try {
        charge = await chargeOnce(deps, {
          clientId,
          source: SOURCE,
          purpose: 'store_order',
          idempotencyKey: claim.chargeKey,
          request: { body, physicianId },
          amountCents: price.itemsCents + price.shippingCents,
          feeCents: price.processingFeeCents,
          kind: payment.kind,
          method:
            'onFile' in payment
              ? { onFile: payment.onFile }
              : { token: payment.token, keepOnFile: payment.keepOnFile },
          description: `Store: ${SERUM_NAME} x ${price.quantity}`,
          ...(physicianId ? { payer: { physicianId } } : {}),
        });
      } catch (error) {
        if (error instanceof HttpError && error.code !== 'PAYMENT_PENDING') run.setInDoubt(false);
        throw error;
      }
      const row = await orderRow(db, claim.orderId);
      if (!row) throw notFound();
      const answer = await run.succeed(
        (tx) => confirmOrder(tx, deps, claim, charge),
        responseOf(row, charge.transactionId),
      );
      deps.mailer.kick();
      return answer;
    },
  });
}
