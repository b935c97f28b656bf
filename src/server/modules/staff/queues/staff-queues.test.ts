import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todayFor } from '../../../../domain/client';
import { addDays } from '../../../../domain/dates';
import { type AuditEvent, auditLine } from '../../../../domain/staff';
import { queueMessages } from '../../../../domain/staff-queues';
import type { ChargeLookup, PaymentGateway } from '../../../adapters/payments/payment-gateway';
import { auditEvents, operations, payments, staffAccounts, vialRequests } from '../../../db/schema';
import { reconcile } from '../../../jobs/reconcile';
import { weekdayFrom } from '../../../testing/dates';
import { addReleaseClient, saveCardOnFile, vialRequestBody } from '../../../testing/form-fixtures';
import { staffLevelMember, staffSession } from '../../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../../testing/test-app';

/**
 * The back office's vial requests and payments-in-doubt queues: only a staff session past both
 * factors reaches them; a VIP price is charged once however many confirmations race; a
 * double-clicked shipment records once; a payment whose outcome was lost is settled from the
 * gateway's records.
 */

let lostAfterApproval = false;
let lookupOverride: ChargeLookup | null = null;
function faulty(real: PaymentGateway): PaymentGateway {
  return {
    name: real.name,
    notFoundGraceMs: real.notFoundGraceMs,
    refund: (request) => real.refund(request),
    void: (request) => real.void(request),
    lookupRefund: (request) => real.lookupRefund(request),
    saveMethod: (request) => real.saveMethod(request),
    async charge(request) {
      const result = await real.charge(request);
      if (lostAfterApproval) throw new Error('the connection to the gateway was lost');
      return result;
    },
    lookupCharge: async (request) => lookupOverride ?? real.lookupCharge(request),
  };
}

let t: TestApp;
let staff: string;
let client: string;
let physician: string;
let keySeq = 0;
const newKey = () => `staff-queue-${Date.now()}-${++keySeq}`;
const log = { info() {}, warn() {} };

const post = (url: string, cookie: string, payload: object = {}, key: string | null = newKey()) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });
const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

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
  return { ...added, cookie, requestId: response.json<{ id: string }>().id };
}

async function vipCharges(clientId: string) {
  return t.db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, clientId), eq(payments.purpose, 'vial_request_vip_shipping')));
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS }, { gateway: faulty });
  staff = await staffSession(t);
  client = await t.signIn('ACT10001');
  physician = await t.signInPhysician('PHY20001');
});
afterAll(() => t.close());
beforeEach(() => {
  lostAfterApproval = false;
  lookupOverride = null;
});

describe('the work queues', () => {
  it('are the staff scope’s only: a client or physician session gets 404 on every queue route', async () => {
    const { requestId } = await vipRequest();
    const [ledger] = await t.db.select({ id: payments.id }).from(payments).limit(1);
    for (const cookie of [client, physician]) {
      for (const url of [
        '/api/staff/queues',
        '/api/staff/queues/vial-requests',
        '/api/staff/queues/payments-in-doubt',
      ]) {
        expect((await get(url, cookie)).statusCode, url).toBe(404);
      }
      for (const [url, body] of [
        [`/api/staff/vial_requests/${requestId}/approve`, {}],
        [`/api/staff/vial_requests/${requestId}/confirm_vip_price`, { amountCents: 15_000 }],
        [`/api/staff/vial_requests/${requestId}/ship`, { trackingNumber: '7712 3456 7890' }],
        [`/api/staff/vial_requests/${requestId}/deliver`, {}],
        [`/api/staff/payments/${ledger?.id}/settle`, {}],
      ] as const) {
        expect((await post(url, cookie, body)).statusCode, url).toBe(404);
      }
    }
    const [row] = await t.db.select().from(vialRequests).where(eq(vialRequests.id, requestId));
    expect(row).toMatchObject({ vipPriceConfirmedAt: null, shippedAt: null, approvedByPractitionerAt: null });
  });

  it('lists each queue with its count; the vial requests oldest first', async () => {
    const first = await vipRequest();
    t.clock.advance(60_000);
    const second = await vipRequest();
    const queues = await get('/api/staff/queues', staff);
    expect(queues.statusCode, queues.body).toBe(200);
    const byKey = Object.fromEntries(
      queues.json<{ queues: { key: string; count: number }[] }>().queues.map((q) => [q.key, q]),
    );
    expect(byKey['vial-requests']?.count).toBeGreaterThanOrEqual(2);
    expect(byKey['payments-in-doubt']).toBeDefined();
    // One style for every queue's title (the home page's cards): Title Case, short words lower.
    expect(queues.json<{ queues: { title: string }[] }>().queues.map((q) => q.title)).toEqual([
      'New Samples Paid by Check',
      'Samples to Receive',
      'Lab Reports',
      'Vial Requests',
      'Payments in Doubt',
      'Plan Orders Paid by Check',
      'Storage Years Paid by Check',
      'Store Orders',
    ]);
    const list = await get('/api/staff/queues/vial-requests', staff);
    const ids = list.json<{ requests: { id: string }[] }>().requests.map((r) => r.id);
    expect(ids.indexOf(first.requestId)).toBeLessThan(ids.indexOf(second.requestId));
  });

  it('charges a VIP price once when two staff confirm at once: one wins, the other is told', async () => {
    const order = await vipRequest();
    const url = `/api/staff/vial_requests/${order.requestId}/confirm_vip_price`;
    const [a, b] = await Promise.all([
      post(url, staff, { amountCents: 15_000 }),
      post(url, staff, { amountCents: 15_000 }),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses, `${a.body} ${b.body}`).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect([queueMessages.alreadyConfirmed, queueMessages.confirming]).toContain(loser.json().error);
    const winner = a.statusCode === 200 ? a : b;
    expect(winner.json().message).toBe(queueMessages.priceConfirmed);
    expect(winner.json().request).toMatchObject({ vipPriceCents: 15_000 });

    const charges = await vipCharges(order.id);
    expect(charges).toHaveLength(1);
    // $150.00 plus the 3% card fee, to the Visa on file.
    expect(charges[0]).toMatchObject({
      status: 'approved',
      amountCents: 15_000,
      feeCents: 450,
      totalCents: 15_450,
    });

    // A later confirmation is told too, and charges nothing.
    const again = await post(url, staff, { amountCents: 20_000 });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(queueMessages.alreadyConfirmed);
    expect(await vipCharges(order.id)).toHaveLength(1);

    // The client sees it on the request's timeline, and was e-mailed.
    const mine = await get(`/api/pay/get_CellRequest?id=${order.requestId}`, order.cookie);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().vipPriceConfirmedAt).not.toBeNull();
    expect(mine.json().shippingCents).toBe(15_000);
    const mail = await t.mailTo(order.email);
    expect(
      mail.some((m) =>
        m.textBody.includes('The ACT VIP shipping price of your stem cell request is $150.00'),
      ),
    ).toBe(true);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.clientId, order.id), eq(auditEvents.action, 'change-vial-request')));
    expect(audit.length).toBeGreaterThanOrEqual(1);
  });

  it('charges once for a double click (the same submission twice)', async () => {
    const order = await vipRequest();
    const url = `/api/staff/vial_requests/${order.requestId}/confirm_vip_price`;
    const key = newKey();
    const [a, b] = await Promise.all([
      post(url, staff, { amountCents: 9_900 }, key),
      post(url, staff, { amountCents: 9_900 }, key),
    ]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([200, 200]);
    expect(await vipCharges(order.id)).toHaveLength(1);
  });

  it('records a double-clicked shipment once; another shipment is told; delivery follows', async () => {
    const order = await vipRequest();
    const ship = `/api/staff/vial_requests/${order.requestId}/ship`;
    expect((await post(ship, staff, { trackingNumber: 'bad\u0007number' })).statusCode).toBe(400);
    expect((await post(ship, staff, { trackingNumber: '' })).statusCode).toBe(400);
    expect((await post(ship, staff, { trackingNumber: '7712 3456 7890' }, null)).statusCode).toBe(400);

    const deliverEarly = await post(`/api/staff/vial_requests/${order.requestId}/deliver`, staff);
    expect(deliverEarly.statusCode).toBe(409);
    expect(deliverEarly.json().error).toBe(queueMessages.notShipped);

    // Refused, not warned: nothing ships before the practitioner's approval and a confirmed VIP price.
    const unapproved = await post(ship, staff, { trackingNumber: '7712 3456 7890' });
    expect(unapproved.statusCode).toBe(409);
    expect(unapproved.json().error).toBe(
      'The practitioner has not approved this request yet: it cannot ship.',
    );
    const approve = await post(`/api/staff/vial_requests/${order.requestId}/approve`, staff);
    expect(approve.statusCode, approve.body).toBe(200);
    expect(approve.json().request.approvedByPractitionerAt).not.toBeNull();
    expect((await post(`/api/staff/vial_requests/${order.requestId}/approve`, staff)).json().error).toBe(
      queueMessages.alreadyApproved,
    );
    const unpriced = await post(ship, staff, { trackingNumber: '7712 3456 7890' });
    expect(unpriced.json().error).toBe('The ACT VIP price is not confirmed yet: the request cannot ship.');
    const priced = await post(`/api/staff/vial_requests/${order.requestId}/confirm_vip_price`, staff, {
      amountCents: 9_900,
    });
    expect(priced.statusCode, priced.body).toBe(200);

    const key = newKey();
    const [a, b] = await Promise.all([
      post(ship, staff, { trackingNumber: '7712 3456 7890' }, key),
      post(ship, staff, { trackingNumber: '7712 3456 7890' }, key),
    ]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([200, 200]);
    expect(a.json().request).toMatchObject({ status: 'shipped', trackingNumber: '7712 3456 7890' });
    const shippedAt = a.json().request.shippedAt;
    expect(b.json().request.shippedAt).toBe(shippedAt);
    const shipMail = (await t.mailTo(order.email)).filter((m) =>
      m.textBody.includes('Tracking number: 7712 3456 7890'),
    );
    expect(shipMail).toHaveLength(1);

    const other = await post(ship, staff, { trackingNumber: '999999999' });
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe(queueMessages.alreadyShipped);
    const [row] = await t.db.select().from(vialRequests).where(eq(vialRequests.id, order.requestId));
    expect(row?.trackingNumber).toBe('7712 3456 7890');
    expect(row?.shippedAt?.toISOString()).toBe(shippedAt);

    const delivered = await post(`/api/staff/vial_requests/${order.requestId}/deliver`, staff);
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(delivered.json().request).toMatchObject({ status: 'delivered' });
    const mine = await get(`/api/pay/get_CellRequest?id=${order.requestId}`, order.cookie);
    expect(mine.json()).toMatchObject({ status: 'delivered', trackingNumber: '7712 3456 7890' });
    expect(mine.json().deliveredAt).not.toBeNull();
    // Delivered with its price confirmed: done, out of the queue.
    const list = await get('/api/staff/queues/vial-requests', staff);
    expect(list.json<{ requests: { id: string }[] }>().requests.map((r) => r.id)).not.toContain(
      order.requestId,
    );
  });

  it('settles a payment whose answer was lost from the gateway’s records, once', async () => {
    const order = await vipRequest();
    lostAfterApproval = true;
    const confirm = await post(`/api/staff/vial_requests/${order.requestId}/confirm_vip_price`, staff, {
      amountCents: 12_500,
    });
    lostAfterApproval = false;
    expect(confirm.statusCode, confirm.body).toBe(503);
    const [ledger] = await vipCharges(order.id);
    expect(ledger?.status).toBe('in_progress');

    const queue = await get('/api/staff/queues/payments-in-doubt', staff);
    expect(queue.json<{ payments: { id: string }[] }>().payments.map((p) => p.id)).toContain(ledger?.id);

    const settled = await post(`/api/staff/payments/${ledger?.id}/settle`, staff, {}, null);
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json()).toEqual({ outcome: 'paid', message: queueMessages.settledPaid });
    const [after] = await vipCharges(order.id);
    expect(after).toMatchObject({ status: 'approved', totalCents: 12_875 });
    const again = await post(`/api/staff/payments/${ledger?.id}/settle`, staff, {}, null);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(queueMessages.alreadySettled);
    const left = await get('/api/staff/queues/payments-in-doubt', staff);
    expect(left.json<{ payments: { id: string }[] }>().payments.map((p) => p.id)).not.toContain(ledger?.id);
    expect(
      (await t.mailTo(order.email)).some((m) => m.subject === 'Client Portal: the outcome of your payment'),
    ).toBe(true);

    // The sweep then finishes the confirmation the charge paid for, once.
    await reconcile(t.app.deps, log);
    const [row] = await t.db.select().from(vialRequests).where(eq(vialRequests.id, order.requestId));
    expect(row?.vipPriceConfirmedAt).not.toBeNull();
    expect(await vipCharges(order.id)).toHaveLength(1);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.clientId, order.id), eq(auditEvents.action, 'settle-payment')));
    expect(audit).toHaveLength(1);
    // The trail says what was settled, with the amount charged ($125.00 and the 3% card fee).
    const trail = await get(`/api/staff/audit?clientId=${order.id}`, staff);
    const line = trail.json<{ events: AuditEvent[] }>().events.find((e) => e.action === 'settle-payment');
    expect(line).toMatchObject({ route: 'POST /api/staff/payments/:id/settle', amountCents: 12_875 });
    expect(auditLine(line as AuditEvent)).toBe('Settled a payment in doubt: $128.75');
  });

  it('settles a charge held for review once the gateway decides, though the sweep keeps looking', async () => {
    const order = await vipRequest();
    lostAfterApproval = true;
    const confirm = await post(`/api/staff/vial_requests/${order.requestId}/confirm_vip_price`, staff, {
      amountCents: 8_000,
    });
    lostAfterApproval = false;
    expect(confirm.statusCode, confirm.body).toBe(503);
    const [ledger] = await vipCharges(order.id);
    const settleUrl = `/api/staff/payments/${ledger?.id}/settle`;

    // Held for review: the sweep looks and waits a minute before looking again.
    lookupOverride = { status: 'pending', transactionId: 'held-1' };
    t.clock.advance(10 * 60_000);
    await reconcile(t.app.deps, log);
    const held = await post(settleUrl, staff, {}, null);
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json()).toEqual({ outcome: 'in_doubt', message: queueMessages.stillInDoubt });
    expect((await vipCharges(order.id))[0]?.status).toBe('in_progress');

    // The gateway has decided (declined after review): staff settle it now, not after the wait.
    lookupOverride = { status: 'failed', transactionId: 'held-1' };
    const settled = await post(settleUrl, staff, {}, null);
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json().outcome).toBe('failed');
    expect((await vipCharges(order.id))[0]?.status).toBe('declined');
  });

  it('settles an errored payment that never reached the gateway as failed', async () => {
    const order = await vipRequest();
    const [op] = await t.db.select({ id: operations.id }).from(operations).limit(1);
    const [row] = await t.db
      .insert(payments)
      .values({
        clientId: order.id,
        idempotencyKey: newKey(),
        requestHash: 'x',
        source: 'ACT Client Portal',
        purpose: 'vial_request',
        methodKind: 'card',
        amountCents: 5_000,
        feeCents: 150,
        totalCents: 5_150,
        status: 'error',
        operationId: op?.id ?? null,
        message: 'The payment could not be processed.',
        createdAt: t.clock.now(),
      })
      .returning({ id: payments.id });
    const settled = await post(`/api/staff/payments/${row?.id}/settle`, staff, {}, null);
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json().outcome).toBe('failed');
    const [after] = await t.db
      .select()
      .from(payments)
      .where(eq(payments.id, row?.id as string));
    expect(after?.status).toBe('declined');
  });
});

describe('an ACT VIP price above the approval limit of the price book ($1,000.00 as shipped)', () => {
  let member: string;
  let secondAdmin: string;
  beforeAll(async () => {
    member = await staffLevelMember(t, staff, 'vip.desk@bank.example.com', 'Vip Desk');
    secondAdmin = await staffLevelMember(t, staff, 'second.admin@bank.example.com', 'Second Admin', 'admin');
  });
  const confirm = (requestId: string, cookie: string, amountCents: number, key?: string) =>
    post(`/api/staff/vial_requests/${requestId}/confirm_vip_price`, cookie, { amountCents }, key);
  const approve = (requestId: string, cookie: string, amountCents: number, key?: string) =>
    post(`/api/staff/vial_requests/${requestId}/approve_vip_price`, cookie, { amountCents }, key);

  it('lets one staff-level member confirm and charge $1,000.00, the limit itself, alone', async () => {
    const order = await vipRequest();
    const response = await confirm(order.requestId, member, 100_000);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('The ACT VIP price was confirmed and charged.');
    expect(response.json().request.vipPriceAwaitingApproval).toBeNull();
    const charges = await vipCharges(order.id);
    expect(charges).toMatchObject([
      { status: 'approved', amountCents: 100_000, feeCents: 3_000, totalCents: 103_000 },
    ]);
  });

  it('charges nothing for $1,000.01 entered by a staff-level member until another admin approves it', async () => {
    const order = await vipRequest();
    const entered = await confirm(order.requestId, member, 100_001);
    expect(entered.statusCode, entered.body).toBe(200);
    expect(entered.json().message).toBe(
      'The ACT VIP price of $1,000.01 is above $1,000.00: it is charged once another admin approves it.',
    );
    expect(entered.json().request).toMatchObject({
      vipPriceConfirmedAt: null,
      vipPriceAwaitingApproval: { amountCents: 100_001, enteredBy: 'Vip Desk', canApprove: false },
    });
    expect(await vipCharges(order.id)).toEqual([]);

    // The member cannot approve it: an admin approves.
    const byMember = await approve(order.requestId, member, 100_001);
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().error).toBe(
      'Only an admin can approve an ACT VIP price above the approval limit.',
    );
    expect(await vipCharges(order.id)).toEqual([]);

    // Any admin sees the pending price with its amount and may approve it.
    const queue = await get('/api/staff/queues/vial-requests', staff);
    const item = queue
      .json<{ requests: { id: string; vipPriceAwaitingApproval: unknown }[] }>()
      .requests.find((r) => r.id === order.requestId);
    expect(item?.vipPriceAwaitingApproval).toMatchObject({ amountCents: 100_001, canApprove: true });
    const approved = await approve(order.requestId, staff, 100_001);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().message).toBe('The ACT VIP price was confirmed and charged.');
    expect((await vipCharges(order.id)).map((c) => c.totalCents)).toEqual([103_001]);
  });

  it('refuses the admin who entered a price its approval; a second admin approves it and the client is told the amount charged', async () => {
    const order = await vipRequest();
    const entered = await confirm(order.requestId, staff, 300_000);
    expect(entered.statusCode, entered.body).toBe(200);
    expect(entered.json().request.vipPriceAwaitingApproval).toMatchObject({
      amountCents: 300_000,
      enteredBy: 'Demo Admin',
      canApprove: false,
    });

    const own = await approve(order.requestId, staff, 300_000);
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toBe(
      'You entered this ACT VIP price: an admin other than the one who entered it must approve it.',
    );
    const unseen = await approve(order.requestId, secondAdmin, 250_000);
    expect(unseen.statusCode).toBe(409);
    expect(unseen.json().error).toBe(
      'The ACT VIP price awaiting approval is no longer the one you saw. Please review it again.',
    );
    expect(await vipCharges(order.id)).toEqual([]);

    const key = newKey();
    const approved = await approve(order.requestId, secondAdmin, 300_000, key);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().request).toMatchObject({ vipPriceCents: 300_000, vipPriceAwaitingApproval: null });
    // A double click answers the first result; another approval is told.
    expect((await approve(order.requestId, secondAdmin, 300_000, key)).body).toBe(approved.body);
    const again = await approve(order.requestId, secondAdmin, 300_000);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(
      'Another staff member already confirmed the ACT VIP price of this request.',
    );

    const charges = await vipCharges(order.id);
    expect(charges).toMatchObject([
      { status: 'approved', amountCents: 300_000, feeCents: 9_000, totalCents: 309_000 },
    ]);
    const [row] = await t.db.select().from(vialRequests).where(eq(vialRequests.id, order.requestId));
    const [admin] = await t.db
      .select({ id: staffAccounts.id })
      .from(staffAccounts)
      .where(eq(staffAccounts.email, 'second.admin@bank.example.com'));
    expect(row?.vipPriceApprovedBy).toBe(admin?.id);
    expect(row?.vipPriceEnteredBy).not.toBe(admin?.id);
    const mail = (await t.mailTo(order.email)).find((m) => m.textBody.includes('ACT VIP shipping price'));
    expect(mail?.textBody).toContain('The ACT VIP shipping price of your stem cell request is $3,000.00.');
    expect(mail?.textBody).toMatch(
      /We charged \$3,090\.00 to your .* ending in 4242 \(including a \$90\.00 card processing fee\)/,
    );
  });

  it('takes the limit from the price book in force: an admin lowers it to $500.00', async () => {
    const amounts = (await get('/api/pay/price_book', staff)).json().amounts;
    const created = await post('/api/staff/create_price_version', staff, {
      effectiveOn: todayFor(t.clock.now()),
      note: 'Second approval from $500',
      amounts: { ...amounts, vipPriceApproval: 50_000 },
    });
    expect(created.statusCode, created.body).toBe(200);
    const order = await vipRequest();
    const entered = await confirm(order.requestId, member, 60_000);
    expect(entered.json().message).toBe(
      'The ACT VIP price of $600.00 is above $500.00: it is charged once another admin approves it.',
    );
    expect(await vipCharges(order.id)).toEqual([]);
  });
});
