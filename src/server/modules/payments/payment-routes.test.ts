import { eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_INFO_UPDATED } from '../../../domain/payment-info';
import { clients, paymentMethods, payments } from '../../db/schema';
import { expectSeen, itLooks, readPdf, valueAfter } from '../../testing/pdf-ocr';
import { pageText } from '../../testing/pdf-reading';
import {
  tokenizeBank as tokenizeBankFor,
  tokenizeCard as tokenizeCardFor,
} from '../../testing/sandbox-tokens';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let jane: string;
let john: string;
let johnId: string;
let keySeq = 0;

const TEST_NUMBERS = [
  '4242424242424242',
  '4111111111111111',
  '4000000000009995',
  '4000000000000341',
  '000123456789',
];

beforeAll(async () => {
  t = await startTestApp(MANY_PAYMENT_ATTEMPTS);
  jane = await t.signIn('ACT10001');
  john = await t.signIn('ACT10002');
  const [row] = await t.db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.clientActId, 'ACT10002'));
  johnId = row?.id as string;
});
afterAll(() => t.close());

function newKey() {
  keySeq += 1;
  return `test-key-${keySeq}-${Date.now()}`;
}

const tokenizeCard = (number: string, overrides: Record<string, unknown> = {}) =>
  tokenizeCardFor(t, number, overrides);
const tokenizeBank = (accountNumber?: string, routingNumber?: string) =>
  tokenizeBankFor(t, accountNumber, routingNumber);

function cardBody(token: { descriptor: string; value: string }, extra: Record<string, unknown> = {}) {
  return {
    Payment_Type: 'CC',
    token,
    Credit_Card_Type: 'Visa',
    Month_of_Expiry: '12',
    Year_of_Expiry: String(new Date().getFullYear() + 3),
    Credit_Card_Holder_First_Name: 'Jane',
    Credit_Card_Holder_Last_Name: 'Doe',
    Credit_Card_Biling_Email_Address: 'jane.doe@example.com',
    Country: 'United States',
    Credit_Card_Billing_Street: '1200 Brickell Avenue',
    Credit_Card_Billing_City: 'Miami',
    Credit_Card_Billing_State: 'FL',
    Credit_Card_Billing_Zip_Code: '33131',
    PaymentSource: 'CP Payment Info Page',
    ...extra,
  };
}

function save(cookie: string, body: unknown, key: string | null = newKey()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/set_PaymentInfo',
    headers: { cookie, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body as Record<string, unknown>,
  });
}

function paymentInfo(cookie: string, id?: string) {
  return t.app.inject({
    method: 'GET',
    url: '/api/pay/get_PaymentInfo',
    query: id ? { id } : {},
    headers: { cookie },
  });
}

describe('set_PaymentInfo refuses what must never reach the server', () => {
  it.each(['Credit_Card_Number', 'CVV', 'Account_Number', 'Credit_Card_Number__c', 'cardNumber'])(
    'refuses a body with a %s field, before anything is saved',
    async (field) => {
      const token = await tokenizeCard('4242424242424242');
      const response = await save(jane, { ...cardBody(token), [field]: '4242424242424242' });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('FORBIDDEN_FIELD');
      expect(response.body).not.toContain('4242424242424242');
    },
  );

  it('needs an idempotency key', async () => {
    const token = await tokenizeCard('4242424242424242');
    const response = await save(jane, cardBody(token), null);
    expect(response.statusCode).toBe(400);
  });

  it("answers 404 for another client's payment information, like an unknown id", async () => {
    expect((await paymentInfo(jane, 'ACT10002')).statusCode).toBe(404);
    expect((await paymentInfo(jane, johnId)).statusCode).toBe(404);
    expect((await paymentInfo(jane, 'ACT99999')).statusCode).toBe(404);
    const token = await tokenizeCard('4242424242424242');
    const response = await save(jane, cardBody(token, { ClientSFRecordId: johnId }));
    expect(response.statusCode).toBe(404);
  });
});

describe('saving a card with nothing overdue', () => {
  it('saves it, charges nothing, and answers the last 4 digits only', async () => {
    const token = await tokenizeCard('4242 4242 4242 4242');
    const response = await save(jane, cardBody(token));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      message: PAYMENT_INFO_UPDATED,
      amountCharged: 0,
      TransactionId: null,
    });

    const info = (await paymentInfo(jane)).json().result;
    expect(info).toMatchObject({
      Credit_Card_Number: '************4242',
      Credit_Card_Number__c: '************4242',
      Credit_Card_Type: 'Visa',
      Credit_Card_Holder_First_Name: 'Jane',
      Credit_Card_Holder_Last_Name__c: 'Doe',
      Month_of_Expiry: '12',
    });
    expect(info).not.toHaveProperty('CVV');
    const client = (
      await t.app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie: jane } })
    ).json();
    expect(client.result.listResponse[0].creditCardNumber).toBe('************4242');

    const [mail] = await t.mailTo('jane.doe@example.com');
    expect(mail?.subject).toMatch(/payment information was updated/);
    expect(mail?.textBody).toContain('Visa ending in 4242');
  });

  it('refuses a declining test card with the reason, and saves nothing', async () => {
    const before = await t.db.select().from(paymentMethods);
    const token = await tokenizeCard('4000000000009995');
    const response = await save(jane, cardBody(token));
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ code: 'PAYMENT_DECLINED' });
    expect(response.json().error).toMatch(/insufficient funds/);
    expect(await t.db.select().from(paymentMethods)).toEqual(before);
  });

  it('applies the more-than-a-year rule on the server too', async () => {
    const token = await tokenizeCard('4242424242424242');
    const soon = new Date(t.clock.now().getTime() + 200 * 86_400_000);
    const response = await save(
      jane,
      cardBody(token, {
        Month_of_Expiry: String(soon.getUTCMonth() + 1).padStart(2, '0'),
        Year_of_Expiry: String(soon.getUTCFullYear()),
      }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(
      'Please use credit card which has more than one year of expiry period remaining.',
    );
  });

  it('answers a gateway failure as 503, apart from a decline', async () => {
    const token = await tokenizeCard('4000000000000119');
    const response = await save(jane, cardBody(token));
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('GATEWAY_UNAVAILABLE');
  });

  it('refuses a token used twice', async () => {
    const token = await tokenizeCard('4111111111111111');
    expect((await save(jane, cardBody(token))).statusCode).toBe(200);
    const again = await save(jane, cardBody(token));
    expect(again.statusCode).toBe(402);
    expect(again.json().error).toMatch(/expired before they were saved/);
  });

  it('answers the spec message for a missing display field', async () => {
    const token = await tokenizeCard('4242424242424242');
    const response = await save(jane, cardBody(token, { Credit_Card_Holder_First_Name: '' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.Credit_Card_Holder_First_Name).toBe("Field can't be empty");
  });
});

describe('saving a method while annual storage is overdue', () => {
  it('keeps the saved card when a charge to a new one declines, and pays nothing', async () => {
    const before = (await paymentInfo(john)).json().result;
    const token = await tokenizeCard('4000000000000341');
    const response = await save(
      john,
      cardBody(token, { Credit_Card_Holder_First_Name: 'John', Credit_Card_Holder_Last_Name: 'Roe' }),
    );
    expect(response.statusCode).toBe(402);
    expect((await paymentInfo(john)).json().result).toEqual(before);
    const client = (
      await t.app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie: john } })
    ).json();
    expect(client.result.listResponse[0].totalAnnualOverdueAmount).toBe(679.62);
  });

  it('charges the overdue total plus 3% once, however many times the same submission arrives', async () => {
    const token = await tokenizeCard('4111111111111111');
    const key = newKey();
    const body = cardBody(token, {
      Credit_Card_Holder_First_Name: 'John',
      Credit_Card_Holder_Last_Name: 'Roe',
      amount: 1,
      totalCents: 1,
      Amount: '0.01',
    });
    const answers = await Promise.all(Array.from({ length: 20 }, () => save(john, body, key)));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const first = answers[0]?.json();
    // $679.62 overdue + 3% ($20.39, half up) = $700.01, whatever the body said.
    expect(first).toMatchObject({ amountCharged: 700.01, processingFee: 20.39 });
    expect(new Set(answers.map((a) => a.json().TransactionId)).size).toBe(1);
    const approved = await t.db.select().from(payments).where(eq(payments.idempotencyKey, key));
    expect(approved).toHaveLength(1);
    expect(approved[0]).toMatchObject({
      status: 'approved',
      amountCents: 67_962,
      feeCents: 2039,
      totalCents: 70_001,
    });

    const client = (
      await t.app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie: john } })
    ).json().result.listResponse[0];
    expect(client.hasOverDuePayments).toBe(false);
    expect(client.annualStoragePaidUntil > new Date().toISOString().slice(0, 10)).toBe(true);
    const activity = (
      await t.app.inject({ method: 'GET', url: '/api/pay/get_ClientActivity', headers: { cookie: john } })
    ).json().result as Array<{ Type: string; Purchased_Plan_Name: string }>;
    expect(
      activity.some((a) => a.Type === 'Annual Storage Fee' && a.Purchased_Plan_Name.includes('2 years')),
    ).toBe(true);

    const replay = await save(john, body, key);
    expect(replay.json().TransactionId).toBe(first.TransactionId);
    const [mail] = await t.mailTo('john.roe@example.com');
    expect(mail?.textBody).toContain('$700.01');
  });

  let receiptPdf: Buffer;

  it("shows the payment's amount in Client Activity with a receipt only its owner and their physician can open", async () => {
    const activity = (
      await t.app.inject({ method: 'GET', url: '/api/pay/get_ClientActivity', headers: { cookie: john } })
    ).json().result as Array<{
      Type: string;
      Amount: string | null;
      ReceiptId: string | null;
      StageName: string;
    }>;
    const paid = activity.find((a) => a.Type === 'Annual Storage Fee' && a.ReceiptId !== null);
    expect(paid).toMatchObject({ Amount: '700.01' });
    const receiptUrl = `/api/pay/receipts/${paid?.ReceiptId}`;

    const pdf = await t.app.inject({ method: 'GET', url: receiptUrl, headers: { cookie: john } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    receiptPdf = pdf.rawPayload;
    const text = pageText(await PDFDocument.load(pdf.rawPayload), 0);
    for (const line of ['Receipt', 'ACT10002', '$679.62', '$20.39', '$700.01', 'ending in 1111']) {
      expect(text).toContain(line);
    }
    const [ledger] = await t.db
      .select()
      .from(payments)
      .where(eq(payments.id, paid?.ReceiptId as string));
    expect(text).toContain(ledger?.gatewayTransactionId as string);

    // Jane, a physician of other clients, and nobody at all get the same answer as an unknown id.
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/pay/receipts/00000000-0000-4000-8000-000000000000',
      headers: { cookie: john },
    });
    expect(unknown.statusCode).toBe(404);
    const other = await t.signInPhysician('PHY20002', undefined, '10.9.9.9');
    for (const cookie of [jane, other]) {
      const refused = await t.app.inject({ method: 'GET', url: receiptUrl, headers: { cookie } });
      expect(refused.statusCode).toBe(404);
      expect(refused.body).toBe(unknown.body);
    }
    expect((await t.app.inject({ method: 'GET', url: receiptUrl })).statusCode).toBe(401);
    const own = await t.signInPhysician('PHY20001', undefined, '10.9.9.8');
    expect(
      (await t.app.inject({ method: 'GET', url: receiptUrl, headers: { cookie: own } })).statusCode,
    ).toBe(200);
  });

  itLooks('draws the receipt so that a person reads the client, the date paid and the amounts', async () => {
    const paidOn = valueAfter(pageText(await PDFDocument.load(receiptPdf), 0), 'Date paid');
    expect(paidOn).toMatch(/^\d\d\/\d\d\/\d{4}$/);
    const seen = await readPdf(receiptPdf, { pages: [1], languages: ['eng'] });
    expectSeen(seen, [
      'Receipt',
      'Client John Roe (Client ID ACT10002)',
      `Date paid ${paidOn}`,
      'Amount $679.62',
      'Card processing fee $20.39',
      'Total charged $700.01',
    ]);
  });

  it('charges the overdue years once when two different submissions race for them', async () => {
    await t.db.execute(
      sql`update annual_storage_fees set paid_at = null, payment_id = null, status = 'overdue'`,
    );
    const body = async () =>
      cardBody(await tokenizeCard('4111111111111111'), {
        Credit_Card_Holder_First_Name: 'John',
        Credit_Card_Holder_Last_Name: 'Roe',
      });
    const [first, second] = await Promise.all([save(john, await body()), save(john, await body())]);
    // One of them pays; the other is refused (409) or, arriving after, finds nothing overdue.
    const charged = [first, second].filter((r) => r?.statusCode === 200 && r.json().amountCharged > 0);
    expect(charged).toHaveLength(1);
    for (const other of [first, second].filter((r) => !charged.includes(r))) {
      expect(other?.statusCode === 409 || other?.json().amountCharged === 0).toBe(true);
    }
    const paid = (await t.db.execute(
      sql`select count(distinct payment_id)::int as n from annual_storage_fees where paid_at is not null`,
    )) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(paid.rows[0]?.n).toBe(1);
  });

  it('charges nothing when the total the page showed is not the total due', async () => {
    await t.db.execute(
      sql`update annual_storage_fees set paid_at = null, payment_id = null, status = 'overdue'`,
    );
    const token = await tokenizeCard('4111111111111111');
    const response = await save(john, cardBody(token, { expectedTotalCents: 67_962 }));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'AMOUNT_CHANGED' });
    expect(response.json().error).toContain('$700.01');
    const unpaid = (await t.db.execute(
      sql`select count(*)::int as n from annual_storage_fees where paid_at is null and client_id = ${johnId}`,
    )) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(unpaid.rows[0]?.n).toBe(2);
  });

  it('refuses the same key with different payment details', async () => {
    const key = newKey();
    expect((await save(jane, cardBody(await tokenizeCard('4242424242424242')), key)).statusCode).toBe(200);
    const other = await save(jane, cardBody(await tokenizeCard('4111111111111111')), key);
    expect(other.statusCode).toBe(422);
  });

  it('saves a bank account with no card fee', async () => {
    await t.db.execute(
      sql`update annual_storage_fees set paid_at = null, payment_id = null, status = 'overdue'`,
    );
    const token = await tokenizeBank('000123456789');
    const response = await save(john, {
      Payment_Type: 'ACH',
      token,
      Name_On_Account: 'John Roe',
      ABA_Routing_Number: '110000000',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ amountCharged: 679.62, processingFee: 0 });
    const info = (await paymentInfo(john)).json().result;
    expect(info).toMatchObject({
      Account_Number: '*****6789',
      Name_On_Account: 'John Roe',
      Name_on_ACH_Account__c: 'John Roe',
    });
    // The account's ending and name only, as spec 1 section 2 shows it: no routing number.
    expect(info).not.toHaveProperty('ABA_Routing_Number');
    expect(info).not.toHaveProperty('ABA_Routing_Number__c');
    expect(JSON.stringify(info)).not.toContain('110000000');
  });
});

describe('the sandbox tokenizer', () => {
  it('limits how many numbers one address may try, like a real processor', async () => {
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/sandbox-gateway/v1/tokens',
        remoteAddress: '10.66.0.1',
        payload: { card: { number: '4242424242424242', cvv: '123', expiryMonth: 12, expiryYear: 2040 } },
      });
    for (let i = 0; i < 60; i++) expect((await attempt()).statusCode).toBe(200);
    const blocked = await attempt();
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('no card or account number is kept', () => {
  it('finds none of the test numbers anywhere in the database or the e-mails', async () => {
    const tables = (await t.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public'`,
    )) as unknown as { rows: Array<{ table_name: string }> };
    for (const { table_name } of tables.rows) {
      const dump = (await t.db.execute(
        sql.raw(`select coalesce(string_agg(t::text, ' '), '') as text from "${table_name}" t`),
      )) as unknown as {
        rows: Array<{ text: string }>;
      };
      for (const number of TEST_NUMBERS)
        expect(dump.rows[0]?.text ?? '', `${table_name}`).not.toContain(number);
    }
  });
});
