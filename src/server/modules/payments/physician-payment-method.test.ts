import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway';
import { clients, operations, paymentMethods, payments, physicians } from '../../db/schema';
import { tokenizeBank, tokenizeCard } from '../../testing/sandbox-tokens';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * A physician's own card and bank account, from the physician portal's Payment Information page:
 * shown, replaced and removed by that physician only, never a client's.
 */
let t: TestApp;
let maria: string;
let david: string;
let jane: string;
let mariaId: string;
let johnId: string;
let keySeq = 0;
/** While set, the gateway holds a save until the test lets it go (an owner stuck mid-save). */
let hold: Promise<void> | null = null;

function holding(real: PaymentGateway): PaymentGateway {
  return {
    name: real.name,
    notFoundGraceMs: real.notFoundGraceMs,
    charge: (request) => real.charge(request),
    lookupCharge: (request) => real.lookupCharge(request),
    refund: (request) => real.refund(request),
    void: (request) => real.void(request),
    lookupRefund: (request) => real.lookupRefund(request),
    async saveMethod(request) {
      if (hold) await hold;
      return real.saveMethod(request);
    },
  };
}

const NOT_FOUND = { error: 'Not found', code: 'NOT_FOUND' };

beforeAll(async () => {
  t = await startTestApp({ ...MANY_PAYMENT_ATTEMPTS, RATE_LIMIT_LOGIN_PER_IP: '1000' }, { gateway: holding });
  maria = await t.signInPhysician('PHY20001');
  david = await t.signInPhysician('PHY20002');
  jane = await t.signIn('ACT10001');
  const [physician] = await t.db
    .select({ id: physicians.id })
    .from(physicians)
    .where(eq(physicians.physicianActId, 'PHY20001'));
  mariaId = physician?.id as string;
  const [john] = await t.db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.clientActId, 'ACT10002'));
  johnId = john?.id as string;
});
afterAll(() => t.close());

const newKey = () => {
  keySeq += 1;
  return `physician-method-${keySeq}-${Date.now()}`;
};

function cardBody(token: { descriptor: string; value: string }, extra: Record<string, unknown> = {}) {
  return {
    Payment_Type: 'CC',
    token,
    Credit_Card_Type: 'Visa',
    Month_of_Expiry: '12',
    Year_of_Expiry: String(t.clock.now().getUTCFullYear() + 3),
    Credit_Card_Holder_First_Name: 'Maria',
    Credit_Card_Holder_Last_Name: 'Alvarez',
    Credit_Card_Biling_Email_Address: 'maria.alvarez@example.com',
    Country: 'United States',
    Credit_Card_Billing_Street: '1200 Brickell Avenue',
    Credit_Card_Billing_City: 'Miami',
    Credit_Card_Billing_State: 'FL',
    Credit_Card_Billing_Zip_Code: '33131',
    ...extra,
  };
}

async function achBody(accountNumber = '000123456789') {
  return {
    Payment_Type: 'ACH',
    token: await tokenizeBank(t, accountNumber),
    Name_On_Account: 'Maria Alvarez',
    ABA_Routing_Number: '110000000',
  };
}

const save = (cookie: string, body: unknown, key: string | null = newKey()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/pay/set_PhysicianPaymentInfo',
    headers: { cookie, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body as Record<string, unknown>,
  });

const remove = (cookie: string | null, paymentType: 'CC' | 'ACH') =>
  t.app.inject({
    method: 'POST',
    url: '/api/pay/remove_PhysicianPaymentInfo',
    headers: cookie ? { cookie } : {},
    payload: { Payment_Type: paymentType },
  });

const shown = async (cookie: string) => {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/pay/get_PaymentInfo',
    headers: { cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result as Record<string, unknown>;
};

const mariaRows = () => t.db.select().from(paymentMethods).where(eq(paymentMethods.physicianId, mariaId));

const johnsDefaultCard = async () => {
  const [row] = await t.db
    .select({ last4: paymentMethods.last4 })
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.clientId, johnId),
        eq(paymentMethods.kind, 'card'),
        eq(paymentMethods.isDefault, true),
      ),
    );
  return row?.last4;
};

describe("a physician's own card and bank account", () => {
  it('starts with nothing on file, saves a card without charging, shows its brand, last 4 and expiry, and e-mails the physician', async () => {
    expect(await shown(maria)).toMatchObject({
      Physician_ID: 'PHY20001',
      Credit_Card_Number: null,
      Account_Number: null,
    });
    const year = String(t.clock.now().getUTCFullYear() + 3);
    const response = await save(maria, cardBody(await tokenizeCard(t, '4242424242424242')));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message:
        'Your payment information has been updated successfully. We are now getting the portal services ready for you!',
      page_name: 'Physician Portal Payment Info Page',
      TransactionId: null,
      amountCharged: 0,
      processingFee: 0,
    });
    const info = await shown(maria);
    expect(info).toMatchObject({
      Credit_Card_Number: '************4242',
      Credit_Card_Type: 'Visa',
      Month_of_Expiry: '12',
      Year_of_Expiry: year,
      Credit_Card_Holder_First_Name: 'Maria',
      Credit_Card_Holder_Last_Name: 'Alvarez',
    });
    expect(JSON.stringify(info)).not.toContain('4242424242424242');
    expect(JSON.stringify(response.json())).not.toContain('4242424242424242');
    // Nothing was charged: no ledger row names the physician.
    expect(await t.db.select().from(payments).where(eq(payments.paidByPhysicianId, mariaId))).toEqual([]);
    const [mail] = await t.mailTo('maria.alvarez@example.com');
    expect(mail?.subject).toBe('Physician Portal: your payment information was updated');
    expect(mail?.textBody).toContain('Visa ending in 4242');
    expect(mail?.textBody).not.toContain('4242424242424242');
  });

  it('replaces the card on file with a new one, the old one no longer shown', async () => {
    const response = await save(maria, cardBody(await tokenizeCard(t, '4111111111111111')));
    expect(response.statusCode, response.body).toBe(200);
    expect(await shown(maria)).toMatchObject({ Credit_Card_Number: '************1111' });
    const cards = (await mariaRows()).filter((r) => r.kind === 'card');
    expect(cards.filter((r) => r.isDefault).map((r) => r.last4)).toEqual(['1111']);
  });

  it('saves a bank account beside the card, shown by its last 4 digits only', async () => {
    const response = await save(maria, await achBody('000123456789'));
    expect(response.statusCode, response.body).toBe(200);
    const info = await shown(maria);
    expect(info).toMatchObject({
      Credit_Card_Number: '************1111',
      Account_Number: '*****6789',
      Name_On_Account: 'Maria Alvarez',
    });
    expect(JSON.stringify(info)).not.toContain('000123456789');
    expect(JSON.stringify(info)).not.toContain('110000000');
  });

  it('saves once per Idempotency-Key, refuses the key with another body, and needs a key', async () => {
    const key = newKey();
    const body = cardBody(await tokenizeCard(t, '4242424242424242'));
    const before = (await mariaRows()).length;
    const first = await save(maria, body, key);
    const again = await save(maria, body, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await mariaRows()).length).toBe(before + 1);
    const other = await save(maria, cardBody(await tokenizeCard(t, '4111111111111111')), key);
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const keyless = await save(maria, body, null);
    expect(keyless.statusCode).toBe(400);
    expect(keyless.json().code).toBe('VALIDATION');
  });

  it('refuses a card number or CVV in the body, a card with a year or less left, and keeps a declined card off file', async () => {
    const withNumber = await save(maria, {
      ...cardBody(await tokenizeCard(t, '4242424242424242')),
      Credit_Card_Number: '4242424242424242',
      CVV: '123',
    });
    expect(withNumber.statusCode).toBe(400);
    expect(withNumber.json().code).toBe('FORBIDDEN_FIELD');
    expect(withNumber.body).not.toContain('4242424242424242');

    const soon = await save(
      maria,
      cardBody(await tokenizeCard(t, '4242424242424242'), {
        Year_of_Expiry: String(t.clock.now().getUTCFullYear()),
      }),
    );
    expect(soon.statusCode).toBe(400);
    expect(soon.json().fields.Year_of_Expiry).toBe(
      'Please use credit card which has more than one year of expiry period remaining.',
    );

    const onFile = (await shown(maria)).Credit_Card_Number;
    const declined = await save(maria, cardBody(await tokenizeCard(t, '4000000000000002')));
    expect(declined.statusCode).toBe(402);
    expect(declined.json().error).toBe(
      'Your card was declined. Please use another card or contact your bank.',
    );
    expect((await shown(maria)).Credit_Card_Number).toBe(onFile);
  });

  it('removes the card, and no replaced card comes back; the bank account stays; a repeat answers the same', async () => {
    const removed = await remove(maria, 'CC');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ success: true, message: 'Your card on file was removed.' });
    const info = await shown(maria);
    expect(info).toMatchObject({
      Credit_Card_Number: null,
      Credit_Card_Type: null,
      Account_Number: '*****6789',
    });
    expect((await mariaRows()).filter((r) => r.kind === 'card')).toEqual([]);
    const [mail] = await t.mailTo('maria.alvarez@example.com');
    expect(mail?.textBody).toContain('was removed from your payment information');

    const repeat = await remove(maria, 'CC');
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual({ success: true, message: 'Your card on file was removed.' });

    const ach = await remove(maria, 'ACH');
    expect(ach.json()).toEqual({ success: true, message: 'Your bank account on file was removed.' });
    expect(await shown(maria)).toMatchObject({ Credit_Card_Number: null, Account_Number: null });
  });

  it('refuses to remove a method while a payment with it is still running', async () => {
    expect((await save(maria, cardBody(await tokenizeCard(t, '4242424242424242')))).statusCode).toBe(200);
    const [card] = (await mariaRows()).filter((r) => r.kind === 'card' && r.isDefault);
    const [running] = await t.db
      .insert(payments)
      .values({
        clientId: johnId,
        idempotencyKey: newKey(),
        requestHash: 'a-store-order-still-charging',
        source: 'Physician Portal Store',
        purpose: 'store_order',
        methodKind: 'card',
        paidByPhysicianId: mariaId,
        paymentMethodId: card?.id,
        amountCents: 10_000,
        feeCents: 300,
        totalCents: 10_300,
        status: 'in_progress',
        createdAt: t.clock.now(),
      })
      .returning({ id: payments.id });
    const refused = await remove(maria, 'CC');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'PAYMENT_IN_PROGRESS',
      error: 'A payment with this method is still being processed. Please try again in a minute.',
    });
    expect((await shown(maria)).Credit_Card_Number).toBe('************4242');
    await t.db
      .update(payments)
      .set({ status: 'approved' })
      .where(eq(payments.id, running?.id as string));
    expect((await remove(maria, 'CC')).statusCode).toBe(200);
  });
});

describe('a save cut short', () => {
  it('is given back once its owner is gone: the retry says nothing was saved, and the late owner saves nothing', async () => {
    const key = newKey();
    const body = cardBody(await tokenizeCard(t, '5555555555554444', {}), { Credit_Card_Type: 'Mastercard' });
    const before = (await shown(maria)).Credit_Card_Number;
    let letGo = () => {};
    hold = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const stuck = save(maria, body, key);
    const scope = `physician:${mariaId}`;
    let running: (typeof operations.$inferSelect)[] = [];
    for (let i = 0; i < 200 && running.length === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      running = await t.db
        .select()
        .from(operations)
        .where(and(eq(operations.scope, scope), eq(operations.idempotencyKey, key)));
    }
    expect(running.map((op) => op.kind)).toEqual(['physician-payment-method']);
    // The owner dies: its lease lapses.
    await t.db
      .update(operations)
      .set({ leaseToken: 'dead', leaseUntil: new Date(t.clock.now().getTime() - 1) })
      .where(eq(operations.id, running[0]?.id as string));
    hold = null;
    const retried = await save(maria, body, key);
    expect(retried.statusCode, retried.body).toBe(503);
    expect(retried.json().error).toBe('Your payment information was not saved. Please try again.');

    letGo();
    expect((await stuck).statusCode).not.toBe(200);
    expect((await shown(maria)).Credit_Card_Number).toBe(before);
  });
});

describe('whose method it is', () => {
  it("never shows or changes another physician's method", async () => {
    expect((await save(maria, cardBody(await tokenizeCard(t, '4242424242424242')))).statusCode).toBe(200);
    expect(await shown(david)).toMatchObject({
      Physician_ID: 'PHY20002',
      Credit_Card_Number: null,
      Account_Number: null,
    });
    expect((await remove(david, 'CC')).statusCode).toBe(200);
    expect((await shown(maria)).Credit_Card_Number).toBe('************4242');
    const named = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_PaymentInfo?id=PHY20001',
      headers: { cookie: david },
    });
    expect(named.statusCode).toBe(404);
    expect(named.json()).toEqual(NOT_FOUND);
  });

  it("a client's session does not reach a physician's routes, and no session answers 401", async () => {
    const asClient = await save(jane, cardBody(await tokenizeCard(t, '4111111111111111')));
    expect(asClient.statusCode).toBe(404);
    expect(asClient.json()).toEqual(NOT_FOUND);
    expect((await remove(jane, 'CC')).json()).toEqual(NOT_FOUND);
    expect((await remove(null, 'CC')).statusCode).toBe(401);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/pay/set_PhysicianPaymentInfo',
      headers: { 'idempotency-key': newKey() },
      payload: cardBody(await tokenizeCard(t, '4111111111111111')),
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await shown(maria)).Credit_Card_Number).toBe('************4242');
  });

  it("a physician acting for a client changes their own method, never the client's", async () => {
    const chosen = await t.app.inject({
      method: 'POST',
      url: '/api/pay/set_ActingClient',
      headers: { cookie: maria },
      payload: { clientId: 'ACT10002' },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(await johnsDefaultCard()).toBe('1111');

    const saved = await save(
      maria,
      cardBody(await tokenizeCard(t, '5555555555554444'), {
        Credit_Card_Type: 'Mastercard',
        ClientSFRecordId: johnId,
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await shown(maria)).toMatchObject({
      Physician_ID: 'PHY20001',
      Credit_Card_Number: '************4444',
      Credit_Card_Type: 'Mastercard',
    });
    expect(await johnsDefaultCard()).toBe('1111');

    expect((await remove(maria, 'CC')).statusCode).toBe(200);
    expect((await shown(maria)).Credit_Card_Number).toBeNull();
    expect(await johnsDefaultCard()).toBe('1111');
  });
});
