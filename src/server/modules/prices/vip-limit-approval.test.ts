import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import { addDays } from '../../../domain/dates';
import { type PriceVersion, SHIPPED_PRICE_AMOUNTS } from '../../../domain/price-book';
import { payments } from '../../db/schema';
import { weekdayFrom } from '../../testing/dates';
import { addReleaseClient, saveCardOnFile, vialRequestBody } from '../../testing/form-fixtures';
import { staffLevelMember, staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * Issue 19's four-eyes rule on ACT VIP prices: one admin alone must not lift it by adding a price
 * version with a higher approval limit. Such a version awaits another admin's approval before it
 * counts; keeping or lowering the limit needs none.
 */
let t: TestApp;
let admin: string;
let secondAdmin: string;
let member: string;
let keySeq = 0;
const newKey = () => `vip-limit-${Date.now()}-${++keySeq}`;

const post = (url: string, cookie: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, 'idempotency-key': newKey() }, payload });
const get = (url: string, cookie = '') =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const today = () => todayFor(t.clock.now());

const versions = async () =>
  (await get('/api/staff/price_versions', admin)).json<{ versions: PriceVersion[] }>().versions;
const limitInForce = async () =>
  (await get('/api/pay/price_book')).json<{ amounts: { vipPriceApproval: number } }>().amounts
    .vipPriceApproval;
const withLimit = (vipPriceApproval: number, effectiveOn = today()) => ({
  effectiveOn,
  note: 'ACT VIP approval limit',
  amounts: { ...SHIPPED_PRICE_AMOUNTS, vipPriceApproval },
});

/** A new client with pre-paid vials and a Visa on file orders one vial by ACT VIP (nothing charged). */
async function vipRequest() {
  const added = await addReleaseClient(t.db, { bioInsuranceVialsAvailable: 3 });
  const cookie = await t.signIn(added.actId);
  await saveCardOnFile(t, cookie, newKey());
  const response = await post(
    '/api/pay/send_CellRequest',
    cookie,
    vialRequestBody({
      shipping_method: 'ACT VIP',
      ShipmentDate: weekdayFrom(addDays(today(), 3), 1),
      expectedTotalCents: 0,
    }),
  );
  expect(response.statusCode, response.body).toBe(200);
  return { ...added, requestId: response.json<{ id: string }>().id };
}

const vipCharges = (clientId: string) =>
  t.db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, clientId), eq(payments.purpose, 'vial_request_vip_shipping')));

const confirm = (requestId: string, cookie: string, amountCents: number) =>
  post(`/api/staff/vial_requests/${requestId}/confirm_vip_price`, cookie, { amountCents });

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
  admin = await staffSession(t);
  secondAdmin = await staffLevelMember(t, admin, 'limit.second@bank.example.com', 'Second Admin', 'admin');
  member = await staffLevelMember(t, admin, 'limit.member@bank.example.com', 'Limit Member');
});
afterAll(() => t.close());

describe('a price version raising the ACT VIP approval limit', () => {
  let raise = 0;
  let third = '';

  it('does not take effect by one admin: a $9,000.00 price that admin confirms alone is not charged', async () => {
    const created = await post('/api/staff/create_price_version', admin, withLimit(10_000_000));
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().awaitingApproval).toBe(true);
    raise = created.json<{ version: number }>().version;
    expect((await versions()).find((v) => v.version === raise)).toMatchObject({
      state: 'awaiting approval',
      createdBy: 'Demo Admin',
      approvedBy: null,
    });
    expect(await limitInForce()).toBe(100_000);

    // A double click adds no second version.
    const again = await post('/api/staff/create_price_version', admin, withLimit(10_000_000));
    expect(again.json().version).toBe(raise);
    expect((await versions()).filter((v) => v.state === 'awaiting approval')).toHaveLength(1);

    const order = await vipRequest();
    const entered = await confirm(order.requestId, admin, 900_000);
    expect(entered.statusCode, entered.body).toBe(200);
    expect(entered.json().message).toBe(
      'The ACT VIP price of $9,000.00 is above $1,000.00: it is charged once another admin approves it.',
    );
    expect(await vipCharges(order.id)).toEqual([]);
  });

  it('is approved by another admin only: not its author, not a staff-level member', async () => {
    const own = await post('/api/staff/approve_price_version', admin, { version: raise });
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toBe(
      'A second admin approves a version that raises the ACT VIP approval limit, not the admin who added it',
    );
    expect((await post('/api/staff/approve_price_version', member, { version: raise })).statusCode).toBe(404);
    expect((await post('/api/staff/approve_price_version', secondAdmin, { version: 9999 })).statusCode).toBe(
      404,
    );
    expect(await limitInForce()).toBe(100_000);

    const approved = await post('/api/staff/approve_price_version', secondAdmin, { version: raise });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<{ versions: PriceVersion[] }>().versions[0]).toMatchObject({
      version: raise,
      state: 'in force',
      approvedBy: 'Second Admin',
    });
    // A double click answers the same; a version not awaiting approval is told.
    expect((await post('/api/staff/approve_price_version', secondAdmin, { version: raise })).statusCode).toBe(
      200,
    );
    const shipped = await post('/api/staff/approve_price_version', admin, { version: raise });
    expect(shipped.statusCode).toBe(409);
    expect(shipped.json().error).toBe('Only a version awaiting approval can be approved');
    expect(await limitInForce()).toBe(10_000_000);

    // Now two admins raised the limit: one confirms $9,000.00 alone and it is charged.
    const order = await vipRequest();
    const charged = await confirm(order.requestId, admin, 900_000);
    expect(charged.statusCode, charged.body).toBe(200);
    expect(charged.json().message).toBe('The ACT VIP price was confirmed and charged.');
    expect(await vipCharges(order.id)).toMatchObject([
      { status: 'approved', amountCents: 900_000, feeCents: 27_000, totalCents: 927_000 },
    ]);
  });

  it('needs no approval to lower the limit; raising it again awaits one, and can be withdrawn', async () => {
    const lowered = await post('/api/staff/create_price_version', admin, withLimit(50_000));
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(lowered.json().awaitingApproval).toBe(false);
    expect(await limitInForce()).toBe(50_000);

    // Scheduled for later, above the limit in force today: it waits too.
    const later = await post(
      '/api/staff/create_price_version',
      admin,
      withLimit(200_000, addDays(today(), 5)),
    );
    expect(later.json().awaitingApproval).toBe(true);
    const version = later.json<{ version: number }>().version;
    const withdrawn = await post('/api/staff/withdraw_price_version', admin, { version });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await versions()).find((v) => v.version === version)?.state).toBe('withdrawn');
    const late = await post('/api/staff/approve_price_version', secondAdmin, { version });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('Only a version awaiting approval can be approved');
    expect(await limitInForce()).toBe(50_000);
  });

  it('approved after its day has passed, takes effect on the day of the approval, not before', async () => {
    const created = await post('/api/staff/create_price_version', admin, withLimit(300_000));
    expect(created.json().awaitingApproval).toBe(true);
    const version = created.json<{ version: number }>().version;
    const addedOn = today();

    // The bank's next day: the sessions ended; a third admin approves.
    while (today() === addedOn) t.clock.advance(60 * 60 * 1000);
    t.clock.advance(12 * 60 * 60 * 1000);
    admin = await staffSession(t);
    third = await staffLevelMember(t, admin, 'limit.third@bank.example.com', 'Third Admin', 'admin');
    expect(await limitInForce()).toBe(50_000);

    const approved = await post('/api/staff/approve_price_version', third, { version });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await versions()).find((v) => v.version === version)).toMatchObject({
      effectiveOn: addDays(addedOn, 1),
      state: 'in force',
      approvedBy: 'Third Admin',
    });
    expect(await limitInForce()).toBe(300_000);
  });

  it('is judged against the lower of the limits in force today and on its day: withdrawing an approved raise lifts nothing', async () => {
    const approvedRaise = await post(
      '/api/staff/create_price_version',
      admin,
      withLimit(600_000, addDays(today(), 5)),
    );
    const raiseVersion = approvedRaise.json<{ version: number }>().version;
    expect(
      (await post('/api/staff/approve_price_version', third, { version: raiseVersion })).statusCode,
    ).toBe(200);
    // The same limit after it, by one admin: still above the $3,000.00 in force today, so it waits.
    const after = await post('/api/staff/create_price_version', admin, {
      ...withLimit(600_000, addDays(today(), 10)),
      amounts: { ...SHIPPED_PRICE_AMOUNTS, vipPriceApproval: 600_000, serumPrice: 23_000 },
    });
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json().awaitingApproval).toBe(true);
    const withdrawn = await post('/api/staff/withdraw_price_version', admin, { version: raiseVersion });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const listed = await versions();
    expect(listed.find((v) => v.version === after.json().version)?.state).toBe('awaiting approval');
  });
});
