import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import { clientActivities, payments, refunds, storeOrders } from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { validTuesday } from '../../testing/dates';
import { addClient, newCardFields, tokenizeCard } from '../../testing/form-fixtures';
import { staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * Cancelling a store order (issue 22): before it ships, everything refunded, once whatever runs
 * at once; refused once shipped; scoped to the order's client; staff with a reason.
 */

const DAY = 24 * 60 * 60_000;
const log = { info() {}, warn() {} };
let t: TestApp;
let keySeq = 0;
const newKey = () => `store-cancel-${++keySeq}`;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '10000', ...MANY_PAYMENT_ATTEMPTS });
});
afterAll(() => t.close());

/** A new client who orders 2 bottles by card: 2 x $225.00 + 3% = $463.50. */
async function clientWithOrder() {
  const client = await addClient(t.db, { clientConsentFormCompleted: true });
  const cookie = await t.signIn(client.actId);
  const placed = await t.app.inject({
    method: 'POST',
    url: '/api/pay/send_CP_StoreRequest',
    headers: { cookie, 'idempotency-key': newKey() },
    payload: {
      stemskinserum: { name: 'Stem Cell Face Serum', quantity: 2 },
      ShipmentDate: validTuesday(todayFor(t.clock.now()), 7),
      FirstName: 'Test',
      LastName: 'Client',
      ShippingEmail: 'receiving@example.com',
      Phone: '3055550142',
      Street: '1200 Brickell Avenue',
      City: 'Miami',
      State: 'FL',
      Country: 'United States',
      ZipCode: '33131',
      PaymentMethod: 'Credit Card',
      update_card: true,
      ...newCardFields(t, await tokenizeCard(t, '4242424242424242')),
      expectedTotalCents: 46_350,
    },
  });
  expect(placed.statusCode, placed.body).toBe(200);
  const id = placed.json().id as string;
  const [charge] = await t.db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, client.id), eq(payments.purpose, 'store_order')));
  if (!charge) throw new Error('no charge');
  return { ...client, clientId: client.id, cookie, id, charge };
}

const cancel = (cookie: string, id: string, key = newKey()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/pay/cancel_StoreOrder',
    headers: { cookie, 'idempotency-key': key },
    payload: { id },
  });

const listed = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/pay/get_StoreOrders', headers: { cookie } })).json();

const refundsOf = (paymentId: string) => t.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));

describe('a client cancels a store order', () => {
  it('before it ships: the whole $463.50 comes back (voided, unsettled), on Client Activity and by e-mail', async () => {
    const c = await clientWithOrder();
    expect(c.charge.totalCents).toBe(46_350);
    expect((await listed(c.cookie)).orders).toMatchObject([
      { id: c.id, status: 'ordered', totalCents: 46_350 },
    ]);

    const response = await cancel(c.cookie, c.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: c.id,
      status: 'cancelled',
      refundCents: 46_350,
      refundedCents: 46_350,
    });
    const [refund] = await refundsOf(c.charge.id);
    expect(refund).toMatchObject({ kind: 'void', status: 'voided', amountCents: 46_350 });
    const activity = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.clientId, c.clientId));
    expect(activity.map((a) => a.stageName)).toEqual(expect.arrayContaining(['Cancelled', 'Voided']));
    const mail = await t.mailTo(c.email);
    expect(mail.map((m) => m.subject)).toContain('Your store order is cancelled');
    expect((await listed(c.cookie)).orders).toEqual([]);
  });

  it('once the charge settled: refunded whole (not voided), settled, and the sweep sends nothing more', async () => {
    const c = await clientWithOrder();
    t.clock.advance(DAY);
    const cookie = await t.signIn(c.actId);
    const response = await cancel(cookie, c.id);
    expect(response.statusCode, response.body).toBe(200);
    await reconcile(t.app.deps, log);
    const done = (await refundsOf(c.charge.id)).filter((r) => r.status !== 'failed');
    expect(done.map((r) => [r.kind, r.amountCents])).toEqual([['refund', 46_350]]);
    const [row] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, c.id));
    expect(row?.cancelRefundsSettledAt).not.toBeNull();
  });

  it('20 at once, with different keys: one cancellation, one refund, the same answer to all', async () => {
    const c = await clientWithOrder();
    const answers = await Promise.all(Array.from({ length: 20 }, () => cancel(c.cookie, c.id)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.json().cancelledAt)).size).toBe(1);
    expect((await refundsOf(c.charge.id)).filter((r) => r.status !== 'failed')).toHaveLength(1);
    await reconcile(t.app.deps, log);
    expect((await refundsOf(c.charge.id)).filter((r) => r.status !== 'failed')).toHaveLength(1);
  });

  it('once shipped: refused in plain words, nothing refunded', async () => {
    const c = await clientWithOrder();
    await t.db
      .update(storeOrders)
      .set({ status: 'shipped', shippedAt: t.clock.now(), trackingNumber: '794600000001' })
      .where(eq(storeOrders.id, c.id));
    const response = await cancel(c.cookie, c.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('No cancellation is possible once the order has shipped.');
    expect(await refundsOf(c.charge.id)).toHaveLength(0);
  });

  it("another client's order, or an unknown one: the same 404; a physician cannot cancel; a key is needed", async () => {
    const c = await clientWithOrder();
    const other = await addClient(t.db, { clientConsentFormCompleted: true });
    const otherCookie = await t.signIn(other.actId);
    const theirs = await cancel(otherCookie, c.id);
    const unknown = await cancel(otherCookie, '00000000-0000-4000-8000-000000000000');
    expect([theirs.statusCode, unknown.statusCode]).toEqual([404, 404]);
    expect(theirs.json().error).toBe(unknown.json().error);
    expect((await listed(otherCookie)).orders).toEqual([]);
    const physician = await t.signInPhysician('PHY20001');
    expect([403, 404]).toContain((await cancel(physician, c.id)).statusCode);
    const keyless = await t.app.inject({
      method: 'POST',
      url: '/api/pay/cancel_StoreOrder',
      headers: { cookie: c.cookie },
      payload: { id: c.id },
    });
    expect(keyless.statusCode).toBe(400);
    const [row] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, c.id));
    expect(row?.status).toBe('ordered');
  });
});

describe('staff cancel a store order from its queue', () => {
  it('needs a reason; then cancels with everything refunded, and a repeat answers the same', async () => {
    const c = await clientWithOrder();
    const staff = await staffSession(t);
    const send = (reason: string, key = newKey()) =>
      t.app.inject({
        method: 'POST',
        url: `/api/staff/store_orders/${c.id}/cancel`,
        headers: { cookie: staff, 'idempotency-key': key },
        payload: { reason },
      });
    const empty = await send('  ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.reason).toBe('Please give a reason for the cancellation');
    const done = await send('Out of stock');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      message: 'The order was cancelled, its refund sent and the client e-mailed.',
      order: { id: c.id, status: 'cancelled' },
    });
    expect((await send('Again')).statusCode).toBe(200);
    const [row] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, c.id));
    expect(row).toMatchObject({ cancelReason: 'Out of stock', cancelRefundCents: 46_350 });
    expect((await refundsOf(c.charge.id)).filter((r) => r.status !== 'failed')).toHaveLength(1);
    const queue = await t.app.inject({
      method: 'GET',
      url: '/api/staff/queues/store-orders',
      headers: { cookie: staff },
    });
    expect(queue.json().orders.map((o: { id: string }) => o.id)).not.toContain(c.id);
  });
});
