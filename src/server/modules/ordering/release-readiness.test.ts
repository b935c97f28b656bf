import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import { addDays, addMonths } from '../../../domain/dates';
import { annualStorageFees, clients, payments, vialRequests } from '../../db/schema';
import { validTuesday } from '../../testing/dates';
import {
  addReleaseClient,
  newCardFields,
  saveCardOnFile,
  tokenizeCard,
  vialRequestBody,
} from '../../testing/form-fixtures';
import { staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * Release readiness (issue 22): the checklist the client, their physician and staff read, the
 * three-month rule send_CellRequest enforces, and overdue annual storage joining the order's one
 * charge (DESIGN.md 8 item 30).
 */

let t: TestApp;
let jane: string;
let maria: string;
let david: string;
let today: string;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
  jane = await t.signIn('ACT10001');
  maria = await t.signInPhysician('PHY20001');
  david = await t.signInPhysician('PHY20002');
  today = todayFor(t.clock.now());
});
afterAll(() => t.close());

let keySeq = 0;
const newKey = () => `release-${Date.now()}-${++keySeq}`;

const send = (cookie: string, body: Record<string, unknown>, key = newKey()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/pay/send_CellRequest',
    headers: { cookie, 'idempotency-key': key },
    payload: body,
  });

const readiness = (cookie: string, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/pay/get_ReleaseReadiness${query}`, headers: { cookie } });

// One vial by FedEx to New York, paid by card: $500.00 + $118.38 = $618.38, 3% $18.55: $636.93.
const ONE_VIAL_BY_CARD = 63_693;
const order = (overrides: Record<string, unknown> = {}) =>
  vialRequestBody({ ShipmentDate: validTuesday(today, 28), ...overrides });

async function ledgerOf(clientId: string) {
  return t.db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, clientId), eq(payments.purpose, 'vial_request')));
}

async function feesOf(clientId: string) {
  return t.db
    .select()
    .from(annualStorageFees)
    .where(eq(annualStorageFees.clientId, clientId))
    .orderBy(annualStorageFees.dueDate);
}

/** A client owing two years of $339.81, overdue since their retries ended, and the card ending 4242 on file. */
async function clientOwingTwoYears(card = '4242424242424242') {
  const client = await addReleaseClient(t.db, { annualStoragePaidUntil: addDays(addMonths(today, -24), 30) });
  const cookie = await t.signIn(client.actId);
  await saveCardOnFile(t, cookie, newKey(), card);
  await t.db.insert(annualStorageFees).values(
    [-24, -12].map((months) => ({
      clientId: client.id,
      dueDate: addDays(addMonths(today, months), 30),
      amountCents: 35_000,
      achAmountCents: 33_981,
      status: 'overdue' as const,
    })),
  );
  return { ...client, cookie };
}

describe('get_ReleaseReadiness', () => {
  it("shows Jane's missing consent as holding a request, and what the other items wait for", async () => {
    const response = await readiness(jane);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.canRequest).toBe(false);
    expect(body.items.map((i: { key: string }) => i.key)).toEqual([
      'consent',
      'screening',
      'storage',
      'cellsReady',
      'enrollment',
      'approval',
      'address',
    ]);
    expect(body.items[0]).toEqual({
      key: 'consent',
      label: 'Consent signed',
      done: false,
      holdsRequest: true,
      byClient: true,
      text: 'Waits for the signature on the client consent.',
      clearsOn: null,
    });
    expect(body.items[1]).toMatchObject({ done: false, text: 'Waits for the infectious disease screening.' });
    expect(body.items[3]).toMatchObject({ done: true });
    expect(body.items[4]).toMatchObject({ done: true });
  });

  it("is read by the client's physician; another physician, or an unknown id, gets the same 404", async () => {
    expect((await readiness(maria, '?Client_id=ACT10001')).statusCode).toBe(200);
    const foreign = await readiness(david, '?Client_id=ACT10001');
    const unknown = await readiness(david, '?Client_id=ACT99999');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
  });

  it("answers another client's request as an unknown one", async () => {
    const owner = await addReleaseClient(t.db);
    const cookie = await t.signIn(owner.actId);
    await saveCardOnFile(t, cookie, newKey());
    const placed = await send(cookie, order({ expectedTotalCents: ONE_VIAL_BY_CARD }));
    expect(placed.statusCode, placed.body).toBe(200);
    const id = placed.json().id as string;

    const own = await readiness(cookie, `?id=${id}`);
    expect(own.statusCode).toBe(200);
    const items = own.json().items as { key: string; done: boolean; text: string }[];
    expect(items.find((i) => i.key === 'approval')).toMatchObject({
      done: false,
      text: "Waits for the practitioner's approval.",
    });
    expect(items.find((i) => i.key === 'address')).toMatchObject({
      done: false,
      text: 'Waits for ACT to confirm the shipping address (not verified with FedEx).',
    });
    const foreign = await readiness(jane, `?id=${id}`);
    const unknown = await readiness(jane, '?id=00000000-0000-4000-8000-000000000000');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
  });

  it('is part of the staff record of a client', async () => {
    const staff = await staffSession(t);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/staff/client?id=ACT10001',
      headers: { cookie: staff },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().releaseReadiness.items[0]).toMatchObject({
      label: 'Consent signed',
      done: false,
      text: 'Waits for the signature on the client consent.',
    });
  });
});

describe('send_CellRequest: release requests from three months after the Enrollment Date', () => {
  it('refuses a client enrolled two months ago, naming the rule and the day it clears; nothing charged', async () => {
    const enrolled = addMonths(today, -2);
    const client = await addReleaseClient(t.db, {
      enrollmentDate: enrolled,
      dateBankedIn: addDays(enrolled, 1),
    });
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const response = await send(cookie, order());
    expect(response.statusCode, response.body).toBe(409);
    const opens = addMonths(enrolled, 3);
    const [y, m, d] = opens.split('-');
    expect(response.json()).toEqual({
      code: 'RELEASE_NOT_READY',
      error: `Release requests are accepted from three months after the Enrollment Date. You can send this request from ${m}/${d}/${y}.`,
    });
    expect(await ledgerOf(client.id)).toHaveLength(0);
    expect(await t.db.select().from(vialRequests).where(eq(vialRequests.clientId, client.id))).toHaveLength(
      0,
    );

    // The checklist says the same, with the day.
    const item = (await readiness(cookie)).json().items.find((i: { key: string }) => i.key === 'enrollment');
    expect(item).toMatchObject({ done: false, holdsRequest: true, clearsOn: opens });
  });

  it('counts from the banked date where no Enrollment Date is recorded', async () => {
    const client = await addReleaseClient(t.db, { dateBankedIn: addDays(today, -30) });
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const response = await send(cookie, order());
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatch(
      /^Release requests are accepted from three months after the Enrollment Date\. You can send this request from \d{2}\/\d{2}\/\d{4}\.$/,
    );
  });

  it('refuses a client whose sample has not arrived (neither date recorded)', async () => {
    const client = await addReleaseClient(t.db, { dateBankedIn: null });
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const response = await send(cookie, order());
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe(
      'Release requests are accepted from three months after the Enrollment Date, and yours is not recorded yet: the laboratory has not received your sample.',
    );
  });

  it('accepts the first day: three months to the day after the Enrollment Date', async () => {
    const client = await addReleaseClient(t.db, { enrollmentDate: addMonths(today, -3) });
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const response = await send(cookie, order({ expectedTotalCents: ONE_VIAL_BY_CARD }));
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('overdue annual storage joins the order: one charge, once', () => {
  // $636.93 of the vial, and two years at the $350.00 by card their notices fixed, no fee on
  // them: $700.00 (not $679.62 and 3%, $700.01). $1,336.93.
  const WITH_TWO_YEARS = ONE_VIAL_BY_CARD + 70_000;
  const TWO_YEARS_CHARGES = {
    card: { amountCents: 70_000, feeCents: 0, totalCents: 70_000 },
    ach: { amountCents: 67_962, feeCents: 0, totalCents: 67_962 },
  };
  const NOTHING = {
    card: { amountCents: 0, feeCents: 0, totalCents: 0 },
    ach: { amountCents: 0, feeCents: 0, totalCents: 0 },
  };

  it('20 submissions with one key and a second tab with another: the years charged once, in one charge', async () => {
    const client = await clientOwingTwoYears();
    const view = (await readiness(client.cookie)).json();
    expect(view.overdueStorage).toEqual({
      years: 2,
      amountCents: 67_962,
      addedToOrder: true,
      charges: TWO_YEARS_CHARGES,
    });
    expect(view.items[2]).toMatchObject({
      done: false,
      holdsRequest: false,
      text: '2 years of annual storage overdue ($679.62): added to the payment of the next request.',
    });

    const body = order({ expectedTotalCents: WITH_TWO_YEARS });
    const key = newKey();
    const responses = await Promise.all([
      ...Array.from({ length: 20 }, () => send(client.cookie, body, key)),
      send(client.cookie, body),
    ]);
    // Both showed the years in their total: whichever claimed them first is the one order; the
    // other found them held, or paid and its total changed, and was refused with nothing charged.
    const ok = responses.filter((r) => r.statusCode === 200);
    expect(new Set(ok.map((r) => r.json().id)).size).toBe(1);
    for (const refused of responses.filter((r) => r.statusCode !== 200)) {
      expect(refused.statusCode, refused.body).toBe(409);
    }
    const answer = ok[0]?.json();
    expect(answer.amountChargedCents).toBe(WITH_TWO_YEARS);
    expect(answer.request).toMatchObject({
      overdueStorageYears: 2,
      overdueStorageCents: 70_000,
      processingFeeCents: 1_855,
      totalCents: WITH_TWO_YEARS,
    });

    const ledger = (await ledgerOf(client.id)).filter((p) => p.status === 'approved');
    expect(ledger.map((p) => p.totalCents)).toEqual([WITH_TWO_YEARS]);
    const withYears = ledger;
    const fees = await feesOf(client.id);
    expect(fees.map((f) => [f.status, f.paymentId, f.claimOperationId])).toEqual([
      ['paid', withYears[0]?.id, null],
      ['paid', withYears[0]?.id, null],
    ]);
    const [row] = await t.db.select().from(clients).where(eq(clients.id, client.id));
    expect(row?.annualStoragePaidUntil).toBe(addDays(today, 30));

    // Paid: the checklist clears and Payment Information has nothing overdue to charge.
    const after = (await readiness(client.cookie)).json();
    expect(after.overdueStorage).toEqual({ years: 0, amountCents: 0, addedToOrder: false, charges: NOTHING });
    expect(after.items[2]).toMatchObject({ done: true });
  });

  it('a cancellation refunds the request, never the storage years paid with it', async () => {
    const client = await clientOwingTwoYears();
    const placed = await send(client.cookie, order({ expectedTotalCents: WITH_TWO_YEARS }));
    expect(placed.statusCode, placed.body).toBe(200);
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/pay/get_CellRequest?id=${placed.json().id}`,
      headers: { cookie: client.cookie },
    });
    expect(shown.json().cancellation).toMatchObject({
      state: 'open',
      phase: 'full',
      refundCents: ONE_VIAL_BY_CARD,
    });
  });

  it('a declined charge gives the years back, still overdue and free for any payment', async () => {
    const client = await clientOwingTwoYears('4000000000000341');
    const response = await send(client.cookie, order({ expectedTotalCents: WITH_TWO_YEARS }));
    expect(response.statusCode, response.body).toBe(402);
    const fees = await feesOf(client.id);
    expect(fees.map((f) => [f.status, f.paymentId, f.claimOperationId])).toEqual([
      ['overdue', null, null],
      ['overdue', null, null],
    ]);
  });

  it('with no method on file the overdue years hold the request, with where to pay them', async () => {
    const client = await addReleaseClient(t.db);
    const cookie = await t.signIn(client.actId);
    await t.db.insert(annualStorageFees).values({
      clientId: client.id,
      dueDate: addDays(today, -200),
      amountCents: 33_981,
      status: 'overdue',
    });
    const response = await send(
      cookie,
      order({ ...newCardFields(t, await tokenizeCard(t, '4111111111111111')), update_card: true }),
    );
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json()).toEqual({
      code: 'RELEASE_NOT_READY',
      error:
        'Your annual storage is overdue (1 year, $339.81) and must be paid before vials are released. Please pay it on the Payment Information page; it is charged when you save a card or bank account.',
    });
    expect(await ledgerOf(client.id)).toHaveLength(0);
    const view = (await readiness(cookie)).json();
    expect(view.canRequest).toBe(false);
    expect(view.overdueStorage).toMatchObject({ years: 1, amountCents: 33_981, addedToOrder: false });
  });

  it('a year still in its retry days does not hold a release, nor join its charge', async () => {
    const client = await addReleaseClient(t.db);
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const retryOn = addDays(today, 4);
    await t.db.insert(annualStorageFees).values({
      clientId: client.id,
      dueDate: addDays(today, -3),
      yearNumber: 4,
      amountCents: 35_000,
      achAmountCents: 33_981,
      status: 'retrying',
      tries: 1,
      nextTryOn: retryOn,
    });
    const view = (await readiness(cookie)).json();
    expect(view.canRequest).toBe(true);
    expect(view.overdueStorage.years).toBe(0);
    const [y, m, d] = retryOn.split('-');
    expect(view.items[2]).toMatchObject({
      done: true,
      text: `Payment due, retrying on ${m}/${d}/${y}: a payment still being retried does not hold a release.`,
    });
    const response = await send(cookie, order({ expectedTotalCents: ONE_VIAL_BY_CARD }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().amountChargedCents).toBe(ONE_VIAL_BY_CARD);
    const [fee] = await feesOf(client.id);
    expect(fee).toMatchObject({ status: 'retrying', paymentId: null, claimOperationId: null });
  });
});
