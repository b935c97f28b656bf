import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import { addYears, isoDateOf, isoToUsDate } from '../../../domain/dates';
import { clientActivities, clients, payments, refunds, storagePlanOrders } from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { addClient, saveCardOnFile } from '../../testing/form-fixtures';
import { staffLevelMember, staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * Taking back a storage plan's unused part (issue 22): an admin, with a reason, takes back the
 * years not yet begun and the vials not yet used, and refunds those only, once whatever runs at
 * once; staff-level members read the figures; an unknown order is 404.
 */

const DAY = 24 * 60 * 60_000;
const log = { info() {}, warn() {} };
let t: TestApp;
let admin: string;
let keySeq = 0;
const newKey = () => `plan-refund-${++keySeq}`;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '10000', ...MANY_PAYMENT_ATTEMPTS });
  admin = await staffSession(t);
});
afterAll(() => t.close());

/**
 * A new client paid until a year from today, holding 4 Bio-Insurance vials, who orders the 5 Year
 * Storage Plan ($1,575.00) and Bio-Insurance 25 vials ($10,000.00) by card: + $347.25 = $11,922.25.
 */
async function clientWithPlan() {
  const today = todayFor(t.clock.now());
  const client = await addClient(t.db, {
    annualStoragePaidUntil: addYears(today, 1),
    bioInsuranceVialsAvailable: 4,
  });
  const cookie = await t.signIn(client.actId);
  await saveCardOnFile(t, cookie, newKey());
  const placed = await t.app.inject({
    method: 'POST',
    url: '/api/pay/send_StoragePlan',
    headers: { cookie, 'idempotency-key': newKey() },
    payload: {
      Source: 'Client Portal',
      Annual_Storage_Plan: '5 Year',
      Plan: 'Bio-Insurance Plan',
      Vials: 25,
      Tissue_Info: 'Adipose',
      PaymentMethod: 'Credit Card',
      expectedTotalCents: 1_192_225,
    },
  });
  expect(placed.statusCode, placed.body).toBe(200);
  const [charge] = await t.db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, client.id), eq(payments.purpose, 'storage_plan')));
  if (!charge) throw new Error('no charge');
  return { ...client, id: placed.json().id as string, clientId: client.id, charge, today };
}

const takeBack = (id: string, reason = 'Moving abroad', key = newKey(), cookie = admin) =>
  t.app.inject({
    method: 'POST',
    url: `/api/staff/storage_plans/${id}/refund`,
    headers: { cookie, 'idempotency-key': key },
    payload: { reason },
  });

const planOrders = async (actId: string, cookie = admin) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/staff/clients/${actId}/storage_plans`,
    headers: { cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

const usToday = () => isoToUsDate(isoDateOf(t.clock.now()));
const clientRow = async (clientId: string) => {
  const [row] = await t.db.select().from(clients).where(eq(clients.id, clientId));
  if (!row) throw new Error('no client');
  return row;
};
const liveRefunds = async (paymentId: string) =>
  (await t.db.select().from(refunds).where(eq(refunds.paymentId, paymentId))).filter(
    (r) => r.status !== 'failed',
  );

describe('an admin takes back a storage plan’s unused part', () => {
  it('before any year begun, no vial used: everything, $11,922.25, shown first and then voided', async () => {
    const c = await clientWithPlan();
    const shown = await planOrders(c.actId);
    expect(shown.canRefund).toBe(true);
    expect(shown.orders).toMatchObject([
      {
        id: c.id,
        paidCents: 1_192_225,
        preview: {
          years: 5,
          bioInsuranceVials: 25,
          storageRefundCents: 157_500,
          bankingRefundCents: 1_000_000,
          feeRefundCents: 34_725,
          refundCents: 1_192_225,
          paidUntilAfterTakeBack: addYears(c.today, 1),
        },
        takenBack: null,
      },
    ]);

    const response = await takeBack(c.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      message:
        'The unused part of the plan was taken back and $11,922.25 refunded to the account it was paid with.',
      order: {
        preview: null,
        takenBack: { years: 5, bioInsuranceVials: 25, refundCents: 1_192_225, refundedCents: 1_192_225 },
      },
    });
    const client = await clientRow(c.clientId);
    expect(client.annualStoragePaidUntil).toBe(addYears(c.today, 1));
    expect(client.bioInsuranceVialsAvailable).toBe(4);
    expect((await liveRefunds(c.charge.id)).map((r) => [r.kind, r.status, r.amountCents])).toEqual([
      ['void', 'voided', 1_192_225],
    ]);
    const [order] = await t.db.select().from(storagePlanOrders).where(eq(storagePlanOrders.id, c.id));
    expect(order).toMatchObject({
      takeBackReason: 'Moving abroad',
      yearsTakenBack: 5,
      takeBackRefundByCheck: false,
    });
    expect(order?.cancelRefundsSettledAt).not.toBeNull();
    const activity = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.clientId, c.clientId));
    expect(activity).toContainEqual(
      expect.objectContaining({
        type: 'Storage Plan Take-Back',
        stageName: 'Taken Back',
        purchasedPlanName:
          '5 Year Storage Plan + Bio-Insurance 250 (250,000,000 cells, 25 Vials): 5 storage years and 25 Bio-Insurance vials taken back',
      }),
    );
    expect(activity.map((a) => a.stageName)).toContain('Voided');
    const mail = await t.mailTo(c.email);
    const told = mail.find((m) => m.subject === 'Your Banking and Storage Plans refund');
    expect(told?.textBody).toContain('$11,922.25 is refunded to the account you paid with.');
  });

  it('after one year begun: 4 years and the 25 vials, 4 x $315.00 + $10,000.00 + 3% = $11,597.80, refunded', async () => {
    const c = await clientWithPlan();
    t.clock.advance(366 * DAY);
    admin = await staffSession(t);
    const response = await takeBack(c.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().order.takenBack).toMatchObject({
      years: 4,
      bioInsuranceVials: 25,
      refundCents: 1_159_780,
    });
    expect((await clientRow(c.clientId)).annualStoragePaidUntil).toBe(addYears(c.today, 2));
    expect((await liveRefunds(c.charge.id)).map((r) => [r.kind, r.status, r.amountCents])).toEqual([
      ['refund', 'refunded', 1_159_780],
    ]);
  });

  it('15 of the 25 vials used, the charge not settled yet: $5,742.25, sent by the sweep once it settles', async () => {
    const c = await clientWithPlan();
    // The client's vial requests reserved 19 of the 29 vials held: 10 left, all of this order's.
    await t.db.update(clients).set({ bioInsuranceVialsAvailable: 10 }).where(eq(clients.id, c.clientId));
    expect((await planOrders(c.actId)).orders[0].preview).toMatchObject({
      years: 5,
      bioInsuranceVials: 10,
      storageRefundCents: 157_500,
      bankingRefundCents: 400_000,
      feeRefundCents: 16_725,
      refundCents: 574_225,
    });
    const response = await takeBack(c.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().order.takenBack).toMatchObject({ refundCents: 574_225, refundedCents: 0 });
    expect((await clientRow(c.clientId)).bioInsuranceVialsAvailable).toBe(0);
    expect(await liveRefunds(c.charge.id)).toEqual([]);

    t.clock.advance(DAY);
    await reconcile(t.app.deps, log);
    expect((await liveRefunds(c.charge.id)).map((r) => [r.kind, r.status, r.amountCents])).toEqual([
      ['refund', 'refunded', 574_225],
    ]);
    await reconcile(t.app.deps, log);
    expect(await liveRefunds(c.charge.id)).toHaveLength(1);
    admin = await staffSession(t);
  });

  it('10 at once with different keys: one take-back, one refund; the others are told it was done', async () => {
    const c = await clientWithPlan();
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => takeBack(c.id, 'Moving abroad', i === 0 ? key : newKey())),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, ...Array(9).fill(409)]);
    const refused = answers.find((a) => a.statusCode === 409);
    expect(refused?.json().error).toMatch(
      /^This plan's unused part was already taken back on \d\d\/\d\d\/\d{4}\.$/,
    );
    expect(await liveRefunds(c.charge.id)).toHaveLength(1);
    expect((await clientRow(c.clientId)).bioInsuranceVialsAvailable).toBe(4);
    const later = await takeBack(c.id);
    expect(later.statusCode).toBe(409);
    expect(await liveRefunds(c.charge.id)).toHaveLength(1);
  });

  it('the same submission repeated answers the take-back', async () => {
    const c = await clientWithPlan();
    const key = newKey();
    const first = await takeBack(c.id, 'Moving abroad', key);
    const again = await takeBack(c.id, 'Moving abroad', key);
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(again.json().order.takenBack).toEqual(first.json().order.takenBack);
    expect(await liveRefunds(c.charge.id)).toHaveLength(1);
  });

  it('nothing to take back (every vial used, no storage years): refused in plain words', async () => {
    const c = await clientWithPlan();
    t.clock.advance(5 * 366 * DAY);
    admin = await staffSession(t);
    await t.db.update(clients).set({ bioInsuranceVialsAvailable: 0 }).where(eq(clients.id, c.clientId));
    const response = await takeBack(c.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe(
      'Nothing is left to take back: every storage year of this plan has begun and its vials are used.',
    );
    expect(await liveRefunds(c.charge.id)).toEqual([]);
  });

  it('needs a reason and a key; admins only; an unknown order is 404', async () => {
    const c = await clientWithPlan();
    const noReason = await takeBack(c.id, '  ');
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fields).toMatchObject({ reason: 'Please give a reason for the refund' });
    const keyless = await t.app.inject({
      method: 'POST',
      url: `/api/staff/storage_plans/${c.id}/refund`,
      headers: { cookie: admin },
      payload: { reason: 'Moving abroad' },
    });
    expect(keyless.statusCode).toBe(400);
    const member = await staffLevelMember(t, admin, `plan-refund-member-${c.actId}@example.com`);
    expect((await takeBack(c.id, 'Moving abroad', newKey(), member)).statusCode).toBe(404);
    const read = await planOrders(c.actId, member);
    expect(read.canRefund).toBe(false);
    expect(read.orders[0].preview.refundCents).toBe(1_192_225);
    expect((await takeBack('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await clientRow(c.clientId)).bioInsuranceVialsAvailable).toBe(29);
    expect(await liveRefunds(c.charge.id)).toEqual([]);
  });

  it('a check order: refused until its check is recorded, then taken back with a check to mail, nothing sent to the gateway', async () => {
    const client = await addClient(t.db, { annualStoragePaidUntil: addYears(todayFor(t.clock.now()), 1) });
    const cookie = await t.signIn(client.actId);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/pay/send_StoragePlan',
      headers: { cookie, 'idempotency-key': newKey() },
      payload: {
        Source: 'Client Portal',
        Annual_Storage_Plan: '5 Year',
        Plan: 'Bio-Insurance Plan',
        Vials: 25,
        Tissue_Info: 'Adipose',
        PaymentMethod: 'Check',
        expectedTotalCents: 1_157_500,
      },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const id = sent.json().id as string;
    const unpaid = await takeBack(id);
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().error).toBe('This order is not paid: there is nothing to take back.');

    const recorded = await t.app.inject({
      method: 'POST',
      url: '/api/staff/record_plan_check',
      headers: { cookie: admin },
      payload: { orderId: id, checkNumber: '4471', checkAmount: '11,575.00', checkDate: usToday() },
    });
    expect(recorded.statusCode, recorded.body).toBe(200);
    const response = await takeBack(id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      message:
        'The unused part of the plan was taken back. It was paid by check: mail the client a check for $11,575.00.',
      order: {
        paidByCheck: true,
        takenBack: { years: 5, bioInsuranceVials: 25, refundCents: 1_157_500, byCheck: true },
      },
    });
    expect(await t.db.select().from(refunds).where(eq(refunds.clientId, client.id))).toEqual([]);
    const mail = await t.mailTo(client.email);
    expect(mail.find((m) => m.subject === 'Your Banking and Storage Plans refund')?.textBody).toContain(
      'We will mail you a check for $11,575.00.',
    );
  });
});
