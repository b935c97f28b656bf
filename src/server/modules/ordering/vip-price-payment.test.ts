import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import { addDays } from '../../../domain/dates';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway';
import { operations, payments, vialRequests } from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { weekdayFrom } from '../../testing/dates';
import { addReleaseClient, saveCardOnFile, vialRequestBody } from '../../testing/form-fixtures';
import { staffLevelMember, staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * The ACT VIP price's charge: a decline gives the price back (a price awaiting approval keeps
 * waiting), and a confirmation whose owner died before its charge was sent is given back by the
 * sweep, charging nothing.
 */

let declining = false;
function declinable(real: PaymentGateway): PaymentGateway {
  return {
    name: real.name,
    notFoundGraceMs: real.notFoundGraceMs,
    refund: (request) => real.refund(request),
    void: (request) => real.void(request),
    lookupRefund: (request) => real.lookupRefund(request),
    saveMethod: (request) => real.saveMethod(request),
    async charge(request) {
      if (declining) {
        return {
          outcome: 'declined',
          reason: 'generic_decline',
          message: 'Your card was declined. Please use another card or contact your bank.',
          transactionId: null,
        };
      }
      return real.charge(request);
    },
    lookupCharge: (request) => real.lookupCharge(request),
  };
}

let t: TestApp;
let admin: string;
let keySeq = 0;
const newKey = () => `vip-payment-${Date.now()}-${++keySeq}`;
const log = { info() {}, warn() {} };

const post = (url: string, cookie: string, payload: object, key = newKey()) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, 'idempotency-key': key }, payload });
const confirm = (requestId: string, cookie: string, amountCents: number) =>
  post(`/api/staff/vial_requests/${requestId}/confirm_vip_price`, cookie, { amountCents });
const approve = (requestId: string, cookie: string, amountCents: number) =>
  post(`/api/staff/vial_requests/${requestId}/approve_vip_price`, cookie, { amountCents });

/** A new client with pre-paid vials and a Visa on file orders one vial by ACT VIP (nothing charged). */
async function vipRequest() {
  const added = await addReleaseClient(t.db, { bioInsuranceVialsAvailable: 3 });
  const cookie = await t.signIn(added.actId);
  await saveCardOnFile(t, cookie, newKey());
  const monday = weekdayFrom(addDays(todayFor(t.clock.now()), 3), 1);
  const response = await post(
    '/api/pay/send_CellRequest',
    cookie,
    vialRequestBody({ shipping_method: 'ACT VIP', ShipmentDate: monday, expectedTotalCents: 0 }),
  );
  expect(response.statusCode, response.body).toBe(200);
  return { ...added, requestId: response.json<{ id: string }>().id };
}

const vipCharges = (clientId: string) =>
  t.db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, clientId), eq(payments.purpose, 'vial_request_vip_shipping')));

const requestRow = async (id: string) =>
  (await t.db.select().from(vialRequests).where(eq(vialRequests.id, id)))[0];

beforeAll(async () => {
  t = await startTestApp(MANY_PAYMENT_ATTEMPTS, { gateway: declinable });
  admin = await staffSession(t);
});
afterAll(() => t.close());
beforeEach(() => {
  declining = false;
});

describe('the ACT VIP price’s charge', () => {
  it('gives a declined price back: nothing is confirmed, and a later confirmation charges once', async () => {
    const order = await vipRequest();
    declining = true;
    const declined = await confirm(order.requestId, admin, 15_000);
    expect(declined.statusCode, declined.body).toBe(402);
    expect(declined.json().error).toBe(
      'Your card was declined. Please use another card or contact your bank.',
    );
    expect(await requestRow(order.requestId)).toMatchObject({
      vipPriceOperationId: null,
      vipPriceCents: null,
      vipPriceConfirmedAt: null,
    });

    declining = false;
    const confirmed = await confirm(order.requestId, admin, 15_000);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().message).toBe('The ACT VIP price was confirmed and charged.');
    expect((await vipCharges(order.id)).map((c) => [c.status, c.totalCents])).toEqual([
      ['declined', 15_450],
      ['approved', 15_450],
    ]);
  });

  it('keeps a price awaiting approval waiting when its approved charge is declined', async () => {
    const member = await staffLevelMember(t, admin, 'vip.decline@bank.example.com', 'Vip Decline');
    const order = await vipRequest();
    expect((await confirm(order.requestId, member, 200_000)).statusCode).toBe(200);
    declining = true;
    const declined = await approve(order.requestId, admin, 200_000);
    expect(declined.statusCode, declined.body).toBe(402);
    const row = await requestRow(order.requestId);
    expect(row).toMatchObject({
      vipPriceOperationId: null,
      vipPriceCents: 200_000,
      vipPriceConfirmedAt: null,
    });
    expect(row?.vipPriceEnteredBy).not.toBeNull();

    declining = false;
    const approved = await approve(order.requestId, admin, 200_000);
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await requestRow(order.requestId))?.vipPriceConfirmedAt).not.toBeNull();
  });

  it('gives back a confirmation whose owner died before charging: the sweep charges nothing', async () => {
    const order = await vipRequest();
    // An owner that claimed the request and died before its charge was sent.
    const now = t.clock.now();
    const [op] = await t.db
      .insert(operations)
      .values({
        scope: 'staff:someone',
        idempotencyKey: newKey(),
        kind: 'staff-vial-vip-price',
        requestHash: 'x',
        status: 'running',
        leaseToken: 'gone',
        leaseUntil: new Date(now.getTime() - 1),
        createdAt: now,
      })
      .returning({ id: operations.id });
    const operationId = op?.id as string;
    await t.db
      .update(vialRequests)
      .set({ vipPriceOperationId: operationId, vipPriceCents: 12_000 })
      .where(eq(vialRequests.id, order.requestId));
    const claim = {
      requestId: order.requestId,
      clientId: order.id,
      operationId,
      amountCents: 12_000,
      chargeKey: `vip-price:${operationId}`,
      approvedBy: null,
    };
    await t.db
      .update(operations)
      .set({ stateJson: JSON.stringify(claim) })
      .where(eq(operations.id, operationId));

    await reconcile(t.app.deps, log);
    const [after] = await t.db.select().from(operations).where(eq(operations.id, operationId));
    expect(after?.status).toBe('failed');
    expect(await requestRow(order.requestId)).toMatchObject({
      vipPriceOperationId: null,
      vipPriceCents: null,
    });
    expect(await vipCharges(order.id)).toEqual([]);

    const confirmed = await confirm(order.requestId, admin, 12_000);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await vipCharges(order.id)).toHaveLength(1);
  });
});
