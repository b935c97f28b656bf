import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import { addDays } from '../../../domain/dates';
import {
  type PriceAmounts,
  type PriceVersion,
  priceVersionMessages,
  SHIPPED_PRICE_AMOUNTS,
} from '../../../domain/price-book';
import { auditEvents, priceBookVersions, staffAccounts } from '../../db/schema';
import { staffLevelMember, staffSession } from '../../testing/staff-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';

/**
 * The price book in versions (issue 11): admins add a version taking effect on a day; an order is
 * priced by the version in force when it is placed, and a page that showed the old price is told.
 */
let t: TestApp;
let admin: string;
let member: string;
let keySeq = 0;

const post = (url: string, cookie: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, ...headers }, payload });
const get = (url: string, cookie = '') =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

const today = () => todayFor(t.clock.now());
const raised: PriceAmounts = {
  ...SHIPPED_PRICE_AMOUNTS,
  storagePlan5Year: 160_000,
  bioInsurance25to49: 41_000,
  cardProcessingFee: 350,
};

/** A 5 Year plan with 25 Bio-Insurance vials, paid by check: the plans' amounts, no card fee. */
const planOrder = (expectedTotalCents?: number) => ({
  Source: 'Client Portal',
  Annual_Storage_Plan: '5 Year',
  Plan: 'Bio-Insurance Plan',
  Vials: 25,
  Tissue_Info: 'Adipose',
  PaymentMethod: 'Check',
  ...(expectedTotalCents === undefined ? {} : { expectedTotalCents }),
});
const shippedPlanTotal = 157_500 + 25 * 40_000;
const raisedPlanTotal = 160_000 + 25 * 41_000;

async function quote(cookie: string, PaymentMethod = 'Check') {
  const response = await post('/api/pay/get_StoragePlanQuote', cookie, {
    Annual_Storage_Plan: '5 Year',
    Plan: 'Bio-Insurance Plan',
    Vials: 25,
    PaymentMethod,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ totalCents: number }>().totalCents;
}

const versions = async () =>
  (await get('/api/staff/price_versions', admin)).json<{ versions: PriceVersion[] }>().versions;

/** Moves the test clock to about noon of the bank's next day; the admin signs in again (sessions ended). */
async function nextDay(days = 1) {
  for (let day = 0; day < days; day++) {
    const start = today();
    while (today() === start) t.clock.advance(60 * 60 * 1000);
  }
  t.clock.advance(12 * 60 * 60 * 1000);
  admin = await staffSession(t);
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000' });
  admin = await staffSession(t);
  member = await staffLevelMember(t, admin, 'prices-member@example.com');
});
afterAll(() => t.close());

describe('the price book in force', () => {
  it('is the book as shipped (version 0) until an admin adds one, to anyone', async () => {
    const response = await get('/api/pay/price_book');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ version: 0, effectiveOn: null, amounts: SHIPPED_PRICE_AMOUNTS });
  });
});

describe('adding a version', () => {
  it('is for admins only: a staff member, a client and a physician get 404', async () => {
    const body = { effectiveOn: addDays(today(), 1), note: 'New prices', amounts: raised };
    expect((await post('/api/staff/create_price_version', member, body)).statusCode).toBe(404);
    expect((await get('/api/staff/price_versions', member)).statusCode).toBe(404);
    const jane = await t.signIn('ACT10001');
    expect((await post('/api/staff/create_price_version', jane, body)).statusCode).toBe(404);
    const physician = await t.signInPhysician('PHY20001');
    expect((await post('/api/staff/create_price_version', physician, body)).statusCode).toBe(404);
    expect(await versions()).toHaveLength(1);
  });

  it('refuses a day before today, a missing note and amounts that are not whole cents of a whole book', async () => {
    const past = await post('/api/staff/create_price_version', admin, {
      effectiveOn: addDays(today(), -1),
      note: 'Back-dated',
      amounts: raised,
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toBe(priceVersionMessages.notPast);

    const { vialPrice: _left, ...partial } = raised;
    for (const amounts of [
      { ...raised, vialPrice: -1 },
      { ...raised, vialPrice: 500.5 },
      { ...raised, vialPrice: '50000' },
      { ...raised, vialPrice: 10_000_001 },
      partial,
    ]) {
      const response = await post('/api/staff/create_price_version', admin, {
        effectiveOn: addDays(today(), 1),
        note: 'Bad',
        amounts,
      });
      expect(response.statusCode, JSON.stringify(amounts)).toBe(400);
    }
    const noNote = await post('/api/staff/create_price_version', admin, {
      effectiveOn: addDays(today(), 1),
      note: '  ',
      amounts: raised,
    });
    expect(noNote.statusCode).toBe(400);
    expect(await versions()).toHaveLength(1);
  });

  it('schedules a version: orders placed before its day keep the old prices, orders from its day take the new', async () => {
    const jane = await t.signIn('ACT10001');
    expect(await quote(jane)).toBe(shippedPlanTotal);
    expect(await quote(jane, 'Credit Card')).toBe(shippedPlanTotal + Math.round(shippedPlanTotal * 0.03));

    // Two clicks at once add one version.
    const body = { effectiveOn: addDays(today(), 1), note: 'Plan prices for the new year', amounts: raised };
    const [first, second] = await Promise.all([
      post('/api/staff/create_price_version', admin, body),
      post('/api/staff/create_price_version', admin, body),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    expect(first.json().version).toBe(second.json().version);
    const listed = await versions();
    expect(listed.map((v) => [v.version, v.state])).toEqual([
      [first.json().version, 'scheduled'],
      [0, 'in force'],
    ]);
    expect(listed[0]).toMatchObject({ note: body.note, createdBy: expect.any(String), amounts: raised });

    // Today: still the book as shipped, for the page and for an order.
    expect((await get('/api/pay/price_book')).json().version).toBe(0);
    expect(await quote(jane)).toBe(shippedPlanTotal);
    const before = await post('/api/pay/send_StoragePlan', jane, planOrder(shippedPlanTotal), {
      'idempotency-key': `prices-${++keySeq}`,
    });
    expect(before.statusCode, before.body).toBe(200);

    // From its day: the new version prices everything; a page that showed the old total is told.
    await nextDay();
    const inForce = (await get('/api/pay/price_book')).json();
    expect(inForce).toEqual({
      version: first.json().version,
      effectiveOn: body.effectiveOn,
      amounts: raised,
    });
    const janeNow = await t.signIn('ACT10001');
    expect(await quote(janeNow)).toBe(raisedPlanTotal);
    // The card fee's rate is the version's too: 3.5% of $11,850.00.
    expect(await quote(janeNow, 'Credit Card')).toBe(raisedPlanTotal + 41_475);
    const stale = await post('/api/pay/send_StoragePlan', janeNow, planOrder(shippedPlanTotal), {
      'idempotency-key': `prices-${++keySeq}`,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('AMOUNT_CHANGED');
    const placed = await post('/api/pay/send_StoragePlan', janeNow, planOrder(raisedPlanTotal), {
      'idempotency-key': `prices-${++keySeq}`,
    });
    expect(placed.statusCode, placed.body).toBe(200);
    expect((await versions()).map((v) => v.state)).toEqual(['in force', 'past']);

    // Asking again for the prices in force adds nothing.
    const again = await post('/api/staff/create_price_version', admin, {
      effectiveOn: today(),
      note: 'Same again',
      amounts: raised,
    });
    expect(again.json().version).toBe(first.json().version);
    expect(await versions()).toHaveLength(2);
  });

  it('withdraws a scheduled version once; a version in force stays', async () => {
    const body = {
      effectiveOn: addDays(today(), 10),
      note: 'A typing slip',
      amounts: { ...raised, serumPrice: 2_250_000 },
    };
    const created = await post('/api/staff/create_price_version', admin, body);
    expect(created.statusCode, created.body).toBe(200);
    const version = created.json().version as number;

    const [a, b] = await Promise.all([
      post('/api/staff/withdraw_price_version', admin, { version }),
      post('/api/staff/withdraw_price_version', admin, { version }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((await versions()).find((v) => v.version === version)?.state).toBe('withdrawn');

    // Its day comes: it never applies.
    await nextDay(11);
    expect((await get('/api/pay/price_book')).json().amounts.serumPrice).toBe(raised.serumPrice);

    const inForce = (await versions()).find((v) => v.state === 'in force');
    const refused = await post('/api/staff/withdraw_price_version', admin, { version: inForce?.version });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(priceVersionMessages.notScheduled);
    expect((await post('/api/staff/withdraw_price_version', admin, { version: 9_999 })).statusCode).toBe(404);
    member = await staffLevelMember(t, admin, 'prices-member-2@example.com');
    expect((await post('/api/staff/withdraw_price_version', member, { version })).statusCode).toBe(404);
  });

  it('leaves an audit row for every change, with who made it', async () => {
    const rows = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'change-prices'));
    // The concurrent pair (both asked), the repeat, one more, and the two withdrawals.
    expect(rows.length).toBe(6);
    expect(rows.every((row) => row.actorRole === 'staff')).toBe(true);
  });
});

describe('a version stored before an entry was added to the book', () => {
  let older: TestApp;
  beforeAll(async () => {
    older = await startTestApp();
  });
  afterAll(() => older.close());

  it('reads the new entry (the ACT VIP approval limit) as shipped: $1,000.00', async () => {
    const [staff] = await older.db.select({ id: staffAccounts.id }).from(staffAccounts).limit(1);
    const { vipPriceApproval: _added, ...before } = { ...SHIPPED_PRICE_AMOUNTS, vialPrice: 55_000 };
    await older.db.insert(priceBookVersions).values({
      effectiveOn: todayFor(older.clock.now()),
      amounts: before,
      note: 'Stored before the approval limit was in the book',
      createdBy: staff?.id as string,
    });
    const response = await older.app.inject({ method: 'GET', url: '/api/pay/price_book' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().amounts).toMatchObject({ vialPrice: 55_000, vipPriceApproval: 100_000 });
  });
});
