import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../../domain/client';
import { addDays, addYears, isoDateOf, isoToUsDate } from '../../../../domain/dates';
import { planStoreQueueMessages as m, staffQueueMessages } from '../../../../domain/staff-queues';
import { auditEvents, clientActivities, clients, storagePlanOrders, storeOrders } from '../../../db/schema';
import { validTuesday } from '../../../testing/dates';
import { addClient, saveBankOnFile } from '../../../testing/form-fixtures';
import { staffLevelMember, staffSession } from '../../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../../testing/test-app';

/**
 * Two more work queues (issue 11): Banking and Storage Plans orders paid by check (recording the
 * check applies the plan once, however many clicks or staff) and store orders (shipped with a
 * tracking number, then delivered; the client is e-mailed and sees the stage on Client Activity).
 */
let t: TestApp;
let admin: string;
let member: string;
let keySeq = 0;
const newKey = () => `plan-store-${Date.now()}-${++keySeq}`;

async function post(url: string, cookie: string | undefined, payload: object, headers: object = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
}
async function get(url: string, cookie?: string) {
  return t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
}

// 5 years $1,575 + 25 vials $10,000 = $11,575 by check (no fee).
const CHECK_TOTAL = 1_157_500;

/** A new client, storage paid until `paidUntil`, orders 5 years + 25 Bio-Insurance vials by check. */
async function planOrderByCheck(paidUntil: string | null) {
  const client = await addClient(t.db, { annualStoragePaidUntil: paidUntil });
  const cookie = await t.signIn(client.actId);
  const sent = await post(
    '/api/pay/send_StoragePlan',
    cookie,
    {
      Source: 'Client Portal',
      Annual_Storage_Plan: '5 Year',
      Plan: 'Bio-Insurance Plan',
      Vials: 25,
      Tissue_Info: 'Adipose',
      PaymentMethod: 'Check',
      expectedTotalCents: CHECK_TOTAL,
    },
    { 'idempotency-key': newKey() },
  );
  expect(sent.statusCode, sent.body).toBe(200);
  return { ...client, cookie, orderId: sent.json<{ id: string }>().id };
}

async function stateOf(clientId: string) {
  const [client] = await t.db.select().from(clients).where(eq(clients.id, clientId));
  const activity = await t.db.select().from(clientActivities).where(eq(clientActivities.clientId, clientId));
  const orders = await t.db.select().from(storagePlanOrders).where(eq(storagePlanOrders.clientId, clientId));
  return { client, activity, orders };
}

const todayUs = () => isoToUsDate(isoDateOf(t.clock.now()));
const check = (orderId: string, overrides: object = {}) => ({
  orderId,
  checkNumber: '4471',
  checkAmount: '11,575.00',
  checkDate: todayUs(),
  ...overrides,
});

async function storeOrder() {
  const client = await addClient(t.db);
  const cookie = await t.signIn(client.actId);
  await saveBankOnFile(t, cookie, newKey());
  const sent = await post(
    '/api/pay/send_CP_StoreRequest',
    cookie,
    {
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
      PaymentMethod: 'ACH Payment',
    },
    { 'idempotency-key': newKey() },
  );
  expect(sent.statusCode, sent.body).toBe(200);
  const [row] = await t.db.select().from(storeOrders).where(eq(storeOrders.clientId, client.id));
  return { ...client, cookie, orderId: row?.id as string };
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
  admin = await staffSession(t);
  member = await staffLevelMember(t, admin, 'desk.three@bank.example.com', 'Desk Three');
});
afterAll(() => t.close());

describe('plan checks and store orders: who may reach them', () => {
  const routes: Array<['GET' | 'POST', string]> = [
    ['GET', '/api/staff/plan_checks'],
    ['POST', '/api/staff/record_plan_check'],
    ['GET', '/api/staff/queues/store-orders'],
    ['POST', '/api/staff/store_orders/00000000-0000-4000-8000-000000000000/ship'],
    ['POST', '/api/staff/store_orders/00000000-0000-4000-8000-000000000000/deliver'],
  ];
  it.each(routes)('%s %s answers 404 to a client and to a physician', async (method, url) => {
    const client = await t.signIn('ACT10001');
    const physician = await t.signInPhysician('PHY20001');
    for (const cookie of [client, physician]) {
      const answer = await t.app.inject({
        method,
        url,
        headers: { cookie, 'idempotency-key': newKey() },
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(answer.statusCode, answer.body).toBe(404);
    }
  });
});

describe('Plan orders paid by check', () => {
  it('lists the order; recording the check applies the plan once, even clicked twice', async () => {
    const paidUntil = addDays(todayFor(t.clock.now()), 100);
    const order = await planOrderByCheck(paidUntil);
    const listed = await get('/api/staff/plan_checks', admin);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ orders: { orderId: string }[] }>().orders).toContainEqual(
      expect.objectContaining({ orderId: order.orderId, amountDueCents: CHECK_TOTAL, paidUntil }),
    );
    const counts = await get('/api/staff/queues', admin);
    expect(counts.json<{ queues: { key: string; count: number }[] }>().queues).toContainEqual(
      expect.objectContaining({ key: 'plan-checks', title: 'Plan Orders Paid by Check' }),
    );

    const wrong = await post(
      '/api/staff/record_plan_check',
      admin,
      check(order.orderId, { checkAmount: '100' }),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(staffQueueMessages.checkAmountMismatch(CHECK_TOTAL));

    const before = await stateOf(order.id);
    const [first, second] = await Promise.all([
      post('/api/staff/record_plan_check', admin, check(order.orderId)),
      post('/api/staff/record_plan_check', admin, check(order.orderId)),
    ]);
    expect(first?.statusCode, first?.body).toBe(200);
    expect(second?.statusCode, second?.body).toBe(200);
    expect(second?.json()).toEqual(first?.json());
    const expected = addYears(paidUntil, 5);
    expect(first?.json()).toMatchObject({ message: m.planCheckRecorded, paidUntil: expected });

    const after = await stateOf(order.id);
    expect(after.client?.annualStoragePaidUntil).toBe(expected);
    expect(after.client?.bioInsuranceVialsAvailable).toBe(
      (before.client?.bioInsuranceVialsAvailable ?? 0) + 25,
    );
    expect(after.client?.lastBioInsurancePurchasedDate).toBe(todayFor(t.clock.now()));
    expect(after.activity).toHaveLength(before.activity.length + 1);
    expect(after.activity.at(-1)).toMatchObject({ amountCents: CHECK_TOTAL, stageName: 'Closed Won' });
    expect(after.orders[0]).toMatchObject({ status: 'paid', checkNumber: '4471', paidUntilAfter: expected });

    const mails = await t.mailTo(order.email);
    const confirmation = mails.find((mail) => mail.textBody?.includes('check no. 4471'));
    expect(confirmation?.textBody).toContain(`paid until ${isoToUsDate(expected)}`);
    expect(confirmation?.textBody).toContain('[Attachment: receipt.pdf, application/pdf');

    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.clientId, order.id), eq(auditEvents.action, 'record-plan-check')));
    expect(audit.length).toBeGreaterThan(0);
    const gone = await get('/api/staff/plan_checks', admin);
    expect(gone.json<{ orders: { orderId: string }[] }>().orders.map((o) => o.orderId)).not.toContain(
      order.orderId,
    );
  });

  it('two staff at once: the plan is applied once, the other is told who recorded it', async () => {
    const order = await planOrderByCheck(null);
    const answers = await Promise.all([
      post('/api/staff/record_plan_check', admin, check(order.orderId)),
      post('/api/staff/record_plan_check', member, check(order.orderId, { checkNumber: '4472' })),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const lost = answers.find((a) => a.statusCode === 409);
    expect(lost?.json().error).toMatch(/^This check was already recorded by (.+) on \d\d\/\d\d\/\d{4}\.$/);
    const after = await stateOf(order.id);
    expect(after.client?.annualStoragePaidUntil).toBe(addYears(todayFor(t.clock.now()), 5));
    expect(after.client?.bioInsuranceVialsAvailable).toBe(25);
    expect(after.activity).toHaveLength(1);
  });

  it('an order paid by card, or unknown, is not in this queue: 404', async () => {
    const unknown = await post(
      '/api/staff/record_plan_check',
      admin,
      check('00000000-0000-4000-8000-000000000000'),
    );
    expect(unknown.statusCode).toBe(404);
  });
});

describe('Store orders', () => {
  it('shipped (once, however clicked), then delivered; the client is e-mailed and sees the stage', async () => {
    const order = await storeOrder();
    const listed = await get('/api/staff/queues/store-orders', admin);
    expect(listed.json<{ orders: { id: string; status: string }[] }>().orders).toContainEqual(
      expect.objectContaining({ id: order.orderId, status: 'ordered' }),
    );

    const early = await post(
      `/api/staff/store_orders/${order.orderId}/deliver`,
      admin,
      {},
      {
        'idempotency-key': newKey(),
      },
    );
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe(m.storeNotShipped);

    const noKey = await post(`/api/staff/store_orders/${order.orderId}/ship`, admin, {
      trackingNumber: '7712 3456 7890',
    });
    expect(noKey.statusCode).toBe(400);

    const key = newKey();
    const [a, b] = await Promise.all([
      post(
        `/api/staff/store_orders/${order.orderId}/ship`,
        admin,
        { trackingNumber: '7712 3456 7890' },
        {
          'idempotency-key': key,
        },
      ),
      post(
        `/api/staff/store_orders/${order.orderId}/ship`,
        admin,
        { trackingNumber: '7712 3456 7890' },
        {
          'idempotency-key': key,
        },
      ),
    ]);
    expect(a?.statusCode, a?.body).toBe(200);
    expect(b?.json().message).toBe(a?.json().message);
    expect(a?.json().order).toMatchObject({ status: 'shipped', trackingNumber: '7712 3456 7890' });

    const other = await post(
      `/api/staff/store_orders/${order.orderId}/ship`,
      member,
      { trackingNumber: '1' },
      {
        'idempotency-key': newKey(),
      },
    );
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toMatch(
      /^This order was already marked shipped by .+ on \d\d\/\d\d\/\d{4}\.$/,
    );

    const activity = await get('/api/pay/get_ClientActivity', order.cookie);
    expect(activity.body).toContain('Shipped');

    const delivered = await post(
      `/api/staff/store_orders/${order.orderId}/deliver`,
      member,
      {},
      {
        'idempotency-key': newKey(),
      },
    );
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(delivered.json().order.status).toBe('delivered');
    const again = await post(
      `/api/staff/store_orders/${order.orderId}/deliver`,
      admin,
      {},
      {
        'idempotency-key': newKey(),
      },
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/^This order was already marked delivered by Desk Three on /);

    const mails = await t.mailTo(order.email);
    const subjects = mails.map((mail) => mail.subject);
    expect(subjects.filter((s) => s === 'Client Portal: your store order shipped')).toHaveLength(1);
    expect(subjects.filter((s) => s === 'Client Portal: your store order delivered')).toHaveLength(1);
    const [row] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, order.orderId));
    expect(row).toMatchObject({ status: 'delivered', trackingNumber: '7712 3456 7890' });
    const [stage] = await t.db
      .select({ stage: clientActivities.stageName })
      .from(clientActivities)
      .where(eq(clientActivities.id, row?.clientActivityId as string));
    expect(stage?.stage).toBe('Delivered');
    const gone = await get('/api/staff/queues/store-orders', admin);
    expect(gone.json<{ orders: { id: string }[] }>().orders.map((o) => o.id)).not.toContain(order.orderId);
  });
});
