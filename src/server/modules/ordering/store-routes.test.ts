import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import { addDays, isoToUsDate } from '../../../domain/dates';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway';
import { clientActivities, clients, paymentMethods, payments, storeOrders } from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { validTuesday, weekdayFrom } from '../../testing/dates';
import {
  addClient,
  expiryInDays,
  newCardExpiring,
  newCardFields,
  saveBankOnFile,
} from '../../testing/form-fixtures';
import { tokenizeBank, tokenizeCard } from '../../testing/sandbox-tokens';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';
import { setShipmentBlackoutDates } from './shipment-calendar-repository';

let lostAfterApproval = false;
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
    lookupCharge: (request) => real.lookupCharge(request),
  };
}

let t: TestApp;
let today: string;
let keySeq = 0;
const newKey = () => `store-${Date.now()}-${++keySeq}`;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS }, { gateway: faulty });
  today = todayFor(t.clock.now());
});
afterAll(() => t.close());

const send = (cookie: string, body: Record<string, unknown>, key = newKey()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/pay/send_CP_StoreRequest',
    headers: { cookie, 'idempotency-key': key },
    payload: body,
  });

function order(overrides: Record<string, unknown> = {}) {
  return {
    stemskinserum: { name: 'Stem Cell Face Serum', quantity: 11 },
    ShipmentDate: validTuesday(today, 7),
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
    ...overrides,
  };
}

/** One bottle: $225.00 and the card's 3% ($6.75), what the single-bottle card cases order. */
const ONE_BOTTLE = { stemskinserum: { quantity: 1 }, expectedTotalCents: 23_175 };

/** An order paid by a new card: `card` its token and display fields, `overrides` what a case changes. */
function cardOrder(card: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  return order({ PaymentMethod: 'Credit Card', update_card: true, ...card, ...overrides });
}

/** A new card's fields without its billing e-mail, for the cases that send their own or none. */
async function cardWithoutBillingEmail() {
  const { Credit_Card_Biling_Email_Address: _email, ...card } = newCardFields(
    t,
    await tokenizeCard(t, '4242424242424242'),
  );
  return card;
}

const methodsOf = (clientId: string) =>
  t.db.select().from(paymentMethods).where(eq(paymentMethods.clientId, clientId));

async function stateOf(clientId: string) {
  const ledger = await t.db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, clientId), eq(payments.purpose, 'store_order')));
  const orders = await t.db.select().from(storeOrders).where(eq(storeOrders.clientId, clientId));
  const activity = await t.db.select().from(clientActivities).where(eq(clientActivities.clientId, clientId));
  return { ledger, orders, activity };
}

describe('send_CP_StoreRequest', () => {
  it('11 bottles by ACH: $200 a bottle, no fee, charged once per key, kept to ship, e-mailed', async () => {
    const client = await addClient(t.db);
    const cookie = await t.signIn(client.actId);
    await saveBankOnFile(t, cookie, newKey());
    const key = newKey();
    const body = order({ expectedTotalCents: 220_000, StoreFee: 1 });
    const first = await send(cookie, body, key);
    expect(first.statusCode, first.body).toBe(200);
    const second = await send(cookie, body, key);
    expect(second.json()).toEqual(first.json());
    expect(first.json()).toMatchObject({
      quantity: 11,
      itemsCents: 220_000,
      processingFeeCents: 0,
      amountChargedCents: 220_000,
    });
    const state = await stateOf(client.id);
    expect(state.ledger.filter((row) => row.status === 'approved')).toHaveLength(1);
    expect(state.ledger[0]?.totalCents).toBe(220_000);
    expect(state.orders.map((o) => o.status)).toEqual(['ordered']);
    expect(state.activity).toHaveLength(1);
    expect(state.activity[0]?.purchasedPlanName).toBe('Stem Cell Face Serum x 11');
    const [mail] = await t.mailTo(client.email);
    expect(mail?.textBody).toContain('Stem Cell Face Serum: 11 x $200.00 = $2,200.00');
    // A short order number people can read out, never the order's whole id.
    const orderId = state.orders[0]?.id ?? '';
    expect(mail?.textBody).toContain(
      `Thank you for your store order SO-${orderId.slice(0, 8).toUpperCase()}.`,
    );
    expect(mail?.textBody).not.toContain(orderId);
  });

  it('a forged total answers 409 and charges nothing', async () => {
    const client = await addClient(t.db);
    const cookie = await t.signIn(client.actId);
    await saveBankOnFile(t, cookie, newKey());
    const response = await send(
      cookie,
      order({ stemskinserum: { quantity: 10, price: 200 }, expectedTotalCents: 200_000 }),
    );
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toContain('$2,250.00');
    expect((await stateOf(client.id)).ledger).toHaveLength(0);
  });

  it('refuses a date sooner than 3 days, a Monday, and no bottles', async () => {
    const cookie = await t.signIn('ACT10001');
    const monday = weekdayFrom(addDays(today, 7), 1);
    for (const date of [addDays(today, 1), monday]) {
      const response = await send(cookie, order({ ShipmentDate: date }));
      expect(response.statusCode, date).toBe(400);
      expect(response.json().fields?.ShipmentDate).toBeTruthy();
    }
    expect((await send(cookie, order({ stemskinserum: { quantity: 0 } }))).statusCode).toBe(400);
  });

  it("a physician orders for a client they act for with the physician's own card; another client is 404", async () => {
    const physician = await t.signInPhysician('PHY20001');
    const card = newCardFields(t, await tokenizeCard(t, '4242424242424242'), {
      first: 'Maria',
      last: 'Alvarez',
    });
    const response = await send(
      physician,
      cardOrder(card, { Client_id: 'ACT10002', stemskinserum: { quantity: 2 }, expectedTotalCents: 46_350 }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const [john] = await t.db.select().from(clients).where(eq(clients.clientActId, 'ACT10002'));
    const state = await stateOf(john?.id as string);
    expect(state.ledger[0]).toMatchObject({ totalCents: 46_350, feeCents: 1_350 });
    expect(state.ledger[0]?.paidByPhysicianId).toBeTruthy();
    expect(state.orders[0]?.physicianId).toBeTruthy();
    expect(response.json().message).toBe('Please check your email for order confirmation');

    // Spec 3 (the store): the physician who placed and paid the order checks their e-mail for its
    // confirmation, with the card charged; the client reads who paid, never the physician's card.
    const number = `SO-${(state.orders[0]?.id ?? '').slice(0, 8).toUpperCase()}`;
    const [toPhysician] = await t.mailTo('maria.alvarez@example.com');
    expect(toPhysician?.subject).toBe('Physician Portal: your store order');
    expect(toPhysician?.textBody).toBe(
      [
        'Dear Dr. Alvarez,',
        `Thank you for your store order ${number} for John Roe (Client ID ACT10002).`,
        'Stem Cell Face Serum: 2 x $225.00 = $450.00',
        'Shipping (FedEx): $0.00',
        'Processing fee: $13.50',
        `Total charged: $463.50 with Visa of Maria Alvarez, expiring ${card.Month_of_Expiry}/${card.Year_of_Expiry} (not kept on file). Transaction ${response.json().TransactionId}.`,
        `Arrival date: ${isoToUsDate(order().ShipmentDate)}. Ship to: Test Client, 1200 Brickell Avenue, Miami, FL 33131, United States.`,
      ].join('\n\n'),
    );
    const [toClient] = await t.mailTo('john.roe@example.com');
    expect(toClient?.subject).toBe('Client Portal: your store order');
    expect(toClient?.textBody).toBe(
      [
        'Dear John,',
        `Your physician, Dr. Maria Alvarez, placed store order ${number} for you.`,
        'Stem Cell Face Serum: 2 x $225.00 = $450.00',
        'Shipping (FedEx): $0.00',
        'Processing fee: $13.50',
        'Total: $463.50, paid by your physician.',
        `Arrival date: ${isoToUsDate(order().ShipmentDate)}. Ship to: Test Client, 1200 Brickell Avenue, Miami, FL 33131, United States.`,
      ].join('\n\n'),
    );
    expect(toClient?.textBody).not.toMatch(/Visa|expiring|Transaction/);
    const [toShipping] = await t.mailTo('receiving@example.com');
    expect(toShipping?.textBody).toBe(toClient?.textBody);

    const other = await addClient(t.db);
    expect((await send(physician, order({ Client_id: other.actId }))).statusCode).toBe(404);
  });

  it('a declined card orders nothing; an answer lost after approval is settled once by reconciliation', async () => {
    const client = await addClient(t.db);
    const cookie = await t.signIn(client.actId);
    const declined = newCardFields(t, await tokenizeCard(t, '4000000000009995'));
    const refused = await send(cookie, cardOrder(declined));
    expect(refused.statusCode, refused.body).toBe(402);
    expect((await stateOf(client.id)).orders).toHaveLength(0);

    await saveBankOnFile(t, cookie, newKey());
    const key = newKey();
    lostAfterApproval = true;
    const lost = await send(cookie, order(), key);
    lostAfterApproval = false;
    expect(lost.statusCode, lost.body).toBe(503);
    expect((await stateOf(client.id)).orders.map((o) => o.status)).toEqual(['pending']);
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(120_000);
      await reconcile(t.app.deps, { info() {}, warn() {} });
    }
    const state = await stateOf(client.id);
    expect(state.orders.map((o) => o.status)).toEqual(['ordered']);
    expect(state.ledger.filter((row) => row.status === 'approved')).toHaveLength(1);
    expect(state.activity).toHaveLength(1);
    const replay = await send(await t.signIn(client.actId), order(), key);
    expect(replay.statusCode, replay.body).toBe(200);
    expect((await stateOf(client.id)).ledger.filter((row) => row.status === 'approved')).toHaveLength(1);
  });

  it("refuses today, today + 1, today + 2 and a staff blackout date with the store sentence, a Monday with FedEx's", async () => {
    const client = await addClient(t.db);
    const cookie = await t.signIn(client.actId);
    await saveBankOnFile(t, cookie, newKey());
    const blackout = validTuesday(today, 7);
    const monday = weekdayFrom(addDays(today, 7), 1);
    await setShipmentBlackoutDates(t.db, [blackout]);
    try {
      const cases: Array<[string, string]> = [
        [today, 'Please contact ACT directly by phone or email for this store order date.'],
        [addDays(today, 1), 'Please contact ACT directly by phone or email for this store order date.'],
        [addDays(today, 2), 'Please contact ACT directly by phone or email for this store order date.'],
        [blackout, 'Please contact ACT directly by phone or email for this store order date.'],
        [
          monday,
          'FedEx does not deliver on Sunday and Monday. Please choose a different date from Tuesday to Saturday for shipment arrival',
        ],
        ['02/30/2027', 'Invalid date'],
        ['01/04/2050', 'Invalid date'],
      ];
      for (const [date, message] of cases) {
        const response = await send(cookie, order({ ShipmentDate: date }));
        expect(response.statusCode, date).toBe(400);
        expect(response.json().fields, date).toEqual({ ShipmentDate: message });
      }
      const dates = await t.app.inject({
        method: 'GET',
        url: '/api/pay/get_ShipmentDates',
        headers: { cookie },
        query: { from: today, to: addDays(today, 60), purpose: 'store' },
      });
      expect(dates.json().blackoutDates).toEqual([blackout]);
      expect(dates.json().dates).not.toContain(blackout);
    } finally {
      await setShipmentBlackoutDates(t.db, []);
    }
    expect((await stateOf(client.id)).ledger).toHaveLength(0);
  });

  it('refuses 100 bottles with a message that says at most 99, and 0 bottles with at least one', async () => {
    const cookie = await t.signIn('ACT10001');
    const many = await send(cookie, order({ stemskinserum: { quantity: 100 } }));
    expect(many.statusCode).toBe(400);
    expect(many.json().fields).toEqual({
      stemskinserum:
        'Please choose at most 99 bottles. For a larger order, please contact ACT directly by phone or email.',
    });
    const none = await send(cookie, order({ stemskinserum: { quantity: 0 } }));
    expect(none.json().fields).toEqual({ stemskinserum: 'Please choose at least one bottle' });
  });

  it.each([
    ['no billing e-mail', undefined, 'Please enter billing email'],
    ['an empty billing e-mail', '', 'Please enter billing email'],
    ['a billing e-mail that is not one', 'billing@', 'Invalid email.'],
  ])('refuses a new card with %s and charges nothing', async (_what, email, message) => {
    const client = await addClient(t.db);
    const cookie = await t.signIn(client.actId);
    const response = await send(
      cookie,
      cardOrder(
        await cardWithoutBillingEmail(),
        email === undefined ? {} : { Credit_Card_Biling_Email_Address: email },
      ),
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fields).toEqual({ Credit_Card_Biling_Email_Address: message });
    expect((await stateOf(client.id)).ledger).toHaveLength(0);
  });

  it("takes the card's billing e-mail by the spec's name, Credit_Card_Billing_Email", async () => {
    const client = await addClient(t.db);
    const cookie = await t.signIn(client.actId);
    const response = await send(
      cookie,
      cardOrder(await cardWithoutBillingEmail(), {
        ...ONE_BOTTLE,
        save_card: true,
        Credit_Card_Billing_Email: 'spec.names@example.com',
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const [kept] = await methodsOf(client.id);
    expect(kept).toMatchObject({ last4: '4242', billingEmail: 'spec.names@example.com' });
  });

  describe('a card about 8 months from expiry', () => {
    /** A new client orders one bottle with a new card expiring in `expiry`, kept on file or not. */
    const orderOneBottle = async (expiry: { month: number; year: number }, saveCard: boolean) => {
      const client = await addClient(t.db);
      const cookie = await t.signIn(client.actId);
      const card = await newCardExpiring(t, expiry);
      const response = await send(cookie, cardOrder(card, { ...ONE_BOTTLE, save_card: saveCard }));
      return { client, response };
    };

    it('pays for a bottle when it is used once and not kept (spec 3 section 5: only unexpired)', async () => {
      const { client, response } = await orderOneBottle(expiryInDays(t, 240), false);
      expect(response.statusCode, response.body).toBe(200);
      const state = await stateOf(client.id);
      expect(state.ledger).toHaveLength(1);
      expect(state.ledger[0]).toMatchObject({ status: 'approved', amountCents: 22_500, feeCents: 675 });
      expect(await methodsOf(client.id)).toEqual([]);
    });

    it('refuses it when "Save card" is ticked: a card kept on file needs more than a year left', async () => {
      const { client, response } = await orderOneBottle(expiryInDays(t, 240), true);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().fields).toEqual({
        Year_of_Expiry: 'Please use credit card which has more than one year of expiry period remaining.',
      });
      expect((await stateOf(client.id)).ledger).toHaveLength(0);
      expect(await methodsOf(client.id)).toEqual([]);
    });

    it('refuses a card used once whose year is past, whatever the browser checked', async () => {
      const { client, response } = await orderOneBottle(
        { month: 12, year: t.clock.now().getUTCFullYear() - 1 },
        false,
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().fields).toEqual({ Year_of_Expiry: 'Something Wrong with Expiration Year' });
      expect((await stateOf(client.id)).ledger).toHaveLength(0);
    });
  });

  it("a physician pays by ACH: with none on file the spec's sentence; a new account pays, no fee", async () => {
    const physician = await t.signInPhysician('PHY20001');
    const noAch = await send(physician, order({ Client_id: 'ACT10002', stemskinserum: { quantity: 1 } }));
    expect(noAch.statusCode, noAch.body).toBe(400);
    expect(noAch.json().error).toBe(
      'Please store your ACH Details in the update payment information tab to use ACH Payment Method.',
    );

    const response = await send(
      physician,
      order({
        Client_id: 'ACT10002',
        stemskinserum: { quantity: 1 },
        PaymentMethod: 'ACH Payment',
        update_ach: true,
        token: await tokenizeBank(t),
        Name_On_Account: 'Maria Alvarez',
        ABA_Routing_Number: '110000000',
        expectedTotalCents: 22_500,
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ processingFeeCents: 0, amountChargedCents: 22_500 });
    const [john] = await t.db.select().from(clients).where(eq(clients.clientActId, 'ACT10002'));
    const ledger = (await stateOf(john?.id as string)).ledger.filter((row) => row.methodKind === 'ach');
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ totalCents: 22_500, feeCents: 0, status: 'approved' });
    expect(ledger[0]?.paidByPhysicianId).toBeTruthy();
  });
});
