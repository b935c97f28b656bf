import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationMessages as v } from '../../../domain/client-verification';
import { annualStorageFees, payments } from '../../db/schema';
import { createIdLinkToken, createPaymentLinkToken, linkSecret } from '../../lib/link-tokens';
import { addClient } from '../../testing/form-fixtures';
import { tokenizeCard as tokenizeCardFor } from '../../testing/sandbox-tokens';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let seq = 0;
const LINK_SECRET = 'a-test-link-secret-of-at-least-32-characters';

beforeAll(async () => {
  t = await startTestApp({ LINK_SECRET, RATE_LIMIT_VERIFY_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
});
afterAll(() => t.close());

function verify(body: Record<string, unknown>, ip = '10.3.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/set_verifyClientData',
    payload: body,
    remoteAddress: ip,
  });
}

const tokenizeCard = (number: string) => tokenizeCardFor(t, number);

/** John by his full contact: the tests that count attempts by Client ID use his Client ID. */
const johnByContact = {
  mode: 'contact',
  ClientFirstName: 'John',
  Clientlastname: 'Roe',
  ClientEmail: 'john.roe@example.com',
  ClientDob: '11/02/1968',
};

async function savePublic(verification: string, extra: Record<string, unknown> = {}) {
  seq += 1;
  return saveWithKey(`public-key-${seq}-${Date.now()}`, await publicSaveBody(verification, extra));
}

function saveWithKey(key: string, payload: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/set_PublicPaymentInfo',
    headers: { 'idempotency-key': key },
    payload,
  });
}

async function publicSaveBody(verification: string, extra: Record<string, unknown> = {}) {
  return {
    verification,
    agree: true,
    page: 'email',
    Payment_Type: 'CC',
    token: await tokenizeCard('4242424242424242'),
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
    ...extra,
  };
}

describe('POST /api/pay/set_verifyClientData', () => {
  it('confirms by Client ID and last name, revealing nothing about the client', async () => {
    const response = await verify({ mode: 'id', ClientId: 'act10001', ClientLastname: 'doe' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(['amountDue', 'message', 'verification', 'verified']);
    expect(response.json().message).toBe(v.confirmed);
    expect(response.json().amountDue).toEqual({
      overdueYears: [],
      overdueCents: 0,
      charges: {
        card: { amountCents: 0, feeCents: 0, totalCents: 0 },
        ach: { amountCents: 0, feeCents: 0, totalCents: 0 },
      },
    });
    expect(response.body).not.toMatch(/Jane|jane\.doe|1975/);
  });

  it("shows the confirmed client's overdue years before anything is charged", async () => {
    const response = await verify(johnByContact);
    const { amountDue } = response.json();
    expect(amountDue.overdueCents).toBe(67_962);
    // John's two years were billed before notices fixed their amounts: a card adds 3% ($20.39).
    expect(amountDue.charges).toEqual({
      card: { amountCents: 67_962, feeCents: 2_039, totalCents: 70_001 },
      ach: { amountCents: 67_962, feeCents: 0, totalCents: 67_962 },
    });
    expect(amountDue.overdueYears.length).toBeGreaterThan(0);
    expect(
      amountDue.overdueYears.reduce((sum: number, y: { amountCents: number }) => sum + y.amountCents, 0),
    ).toBe(67_962);
    const dates = amountDue.overdueYears.map((y: { dueDate: string }) => y.dueDate);
    expect(dates).toEqual([...dates].sort());
  });

  it('confirms by full contact', async () => {
    const response = await verify({
      mode: 'contact',
      ClientFirstName: 'John',
      Clientlastname: 'Roe',
      ClientEmail: 'JOHN.ROE@example.com',
      ClientDob: '11/02/1968',
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers a wrong last name and an unknown Client ID the same way', async () => {
    const wrong = await verify({ mode: 'id', ClientId: 'ACT10001', ClientLastname: 'Smith' });
    const unknown = await verify({ mode: 'id', ClientId: 'ACT99999', ClientLastname: 'Doe' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      error: v.failed,
      code: 'VERIFICATION_FAILED',
      fields: { verify: v.failedInline },
    });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('answers the spec messages for empty fields and a future date of birth', async () => {
    const empty = await verify({ mode: 'id', ClientId: '', ClientLastname: '' });
    expect(empty.json().fields).toEqual({ ClientId: v.clientIdRequired, ClientLastname: v.lastNameRequired });
    const future = await verify({
      mode: 'contact',
      ClientFirstName: 'J',
      Clientlastname: 'R',
      ClientEmail: 'a@b.co',
      ClientDob: '01/01/2049',
    });
    expect(future.json().fields.ClientDob).toBe(v.dobFuture);
    const late = await verify({
      mode: 'contact',
      ClientFirstName: 'J',
      Clientlastname: 'R',
      ClientEmail: 'nope',
      ClientDob: '01/01/2050',
    });
    expect(late.json().fields).toMatchObject({ ClientEmail: v.emailInvalid, ClientDob: v.dobInvalid });
  });

  it('limits attempts per client, whatever the address', async () => {
    for (let i = 0; i < 10; i++) {
      expect(
        (await verify({ mode: 'id', ClientId: 'ACT10002', ClientLastname: `Wrong${i}` }, `10.4.0.${i}`))
          .statusCode,
      ).toBe(400);
    }
    const blocked = await verify({ mode: 'id', ClientId: 'ACT10002', ClientLastname: 'Roe' }, '10.4.1.1');
    expect(blocked.statusCode).toBe(429);
  });

  it('confirms by a signed link and refuses an altered or expired one', async () => {
    const secret = linkSecret('.tmp/unused', LINK_SECRET);
    const good = createPaymentLinkToken(secret, 'ACT10001', t.clock.now());
    const linked = await verify({ mode: 'link', t: good });
    expect(linked.statusCode, linked.body).toBe(200);
    // The link names its client: its page says whom it pays for (a confirmation by the form does not).
    expect(linked.json().ClientId).toBe('ACT10001');
    expect(linked.body).not.toMatch(/Jane|jane\.doe|1975/);
    const altered = `${Buffer.from(JSON.stringify({ c: 'ACT10002', p: 'payment-info', e: 9_999_999_999 })).toString('base64url')}.${good.split('.')[1]}`;
    expect((await verify({ mode: 'link', t: altered })).json().error).toBe(v.linkFailed);
    const expired = createPaymentLinkToken(
      secret,
      'ACT10001',
      new Date(t.clock.now().getTime() - 8 * 86_400_000),
    );
    expect((await verify({ mode: 'link', t: expired })).statusCode).toBe(400);
  });
});

describe('POST /api/pay/set_PublicPaymentInfo', () => {
  it('saves a card for the confirmed client with the e-mail page source tag, and e-mails the address of record', async () => {
    const { verification } = (
      await verify({ mode: 'id', ClientId: 'ACT10001', ClientLastname: 'Doe' })
    ).json();
    const response = await savePublic(verification);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(v.saved);
    const [row] = await t.db
      .select()
      .from(payments)
      .orderBy(payments.createdAt)
      .limit(100)
      .then((rows) => rows.slice(-1));
    expect(row?.source).toBe('Email Single Payment Page');
    const [mail] = await t.mailTo('jane.doe@example.com');
    expect(mail?.subject).toMatch(/payment information was updated/);
  });

  it('charges nothing when the total the page showed is no longer the bill', async () => {
    const confirmed = await verify(johnByContact);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { verification } = confirmed.json();
    const stale = await savePublic(verification, { expectedTotalCents: 100 });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json().error).toBe('The amount due is now $700.01. Please review it and save again.');
    const johns = await t.db.select().from(payments).where(eq(payments.status, 'approved'));
    expect(johns.filter((p) => p.totalCents === 70_001)).toHaveLength(0);

    const { verification: again } = (await verify(johnByContact)).json();
    const paid = await savePublic(again, { expectedTotalCents: 70_001 });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ amountCharged: 700.01, processingFee: 20.39 });
    expect(paid.json().TransactionId).toBeTruthy();
  });

  it('tags the text-message page', async () => {
    const { verification } = (
      await verify({ mode: 'id', ClientId: 'ACT10001', ClientLastname: 'Doe' })
    ).json();
    const response = await savePublic(verification, { page: 'sms' });
    expect(response.statusCode).toBe(200);
    const rows = await t.db.select().from(payments).where(eq(payments.source, 'SMS Single Payment Page'));
    expect(rows).toHaveLength(1);
  });

  it('refuses without confirmation, after 15 minutes, or without the authorization', async () => {
    expect((await savePublic('not-a-verification')).json().error).toBe(v.confirmFirst);
    const { verification } = (
      await verify({ mode: 'id', ClientId: 'ACT10001', ClientLastname: 'Doe' })
    ).json();
    const unchecked = await savePublic(verification, { agree: false });
    expect(unchecked.statusCode).toBe(400);
    expect(unchecked.json().fields.agree).toBe(v.agree);
    t.clock.advance(15 * 60 * 1000 + 1000);
    expect((await savePublic(verification)).json().error).toBe(v.confirmFirst);
  });

  it('replays a successful save retried with the same key and body; anything new needs a new confirmation', async () => {
    const confirmed = await verify(johnByContact);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { verification } = confirmed.json();
    const key = `public-replay-${Date.now()}`;
    const body = await publicSaveBody(verification);
    const first = await saveWithKey(key, body);
    expect(first.statusCode, first.body).toBe(200);
    const replay = await saveWithKey(key, body);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.body).toBe(first.body);

    const other = await saveWithKey(key, { ...body, Credit_Card_Billing_Zip_Code: '33139' });
    expect(other.statusCode, other.body).toBe(422);

    const newKey = await savePublic(verification);
    expect(newKey.statusCode).toBe(400);
    expect(newKey.json().error).toBe('Please confirm client details');
    const methodSaves = await t.db.select().from(payments).where(eq(payments.idempotencyKey, key));
    expect(methodSaves).toHaveLength(1);
  });

  it('refuses a card number in the body', async () => {
    const { verification } = (
      await verify({ mode: 'id', ClientId: 'ACT10001', ClientLastname: 'Doe' })
    ).json();
    const response = await savePublic(verification, { Credit_Card_Number: '4242424242424242' });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('FORBIDDEN_FIELD');
  });
});

describe('the paid state after a reload (issue 24)', () => {
  const read = (route: 'Result' | 'Receipt', result: string | undefined, ip = '10.3.7.1') =>
    t.app.inject({
      method: 'GET',
      url: `/api/pay/get_PublicPayment${route}${result === undefined ? '' : `?result=${encodeURIComponent(result)}`}`,
      remoteAddress: ip,
    });
  const gone = {
    error:
      'This confirmation has expired or is not valid. Your payment, if you made one, was e-mailed to the address we have on file.',
    code: 'NOT_FOUND',
  };

  it("reads back what the save charged, and its receipt, by the save's result token", async () => {
    const client = await addClient(t.db, { lastName: 'Owing' });
    await t.db.insert(annualStorageFees).values({
      clientId: client.id,
      dueDate: '2024-01-01',
      amountCents: 35_000,
      achAmountCents: 33_981,
      status: 'overdue',
    });
    const confirmed = await verify({ mode: 'id', ClientId: client.actId, ClientLastname: 'Owing' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const paid = await savePublic(confirmed.json().verification, { page: 'sms' });
    expect(paid.statusCode, paid.body).toBe(200);
    const { result, TransactionId } = paid.json();
    expect(result).toEqual(expect.any(String));

    const shown = await read('Result', result);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.json()).toEqual({
      message: 'Payment Information is Updated Successfully',
      page_name: 'SMS Single Payment Page',
      TransactionId,
      // The year at the $350.00 by card its notice fixed, with no fee on top.
      amountCharged: 350,
      processingFee: 0,
      paidWith: 'Visa ending in 4242',
      receipt: true,
    });
    expect(shown.body).not.toMatch(/4242424242424242|Owing|@example/);

    const receipt = await read('Receipt', result);
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('shows a save that charged nothing, without a receipt', async () => {
    const { verification } = (
      await verify({ mode: 'id', ClientId: 'ACT10001', ClientLastname: 'Doe' })
    ).json();
    const saved = await savePublic(verification);
    expect(saved.statusCode, saved.body).toBe(200);
    const shown = await read('Result', saved.json().result);
    expect(shown.json()).toMatchObject({ amountCharged: 0, TransactionId: null, receipt: false });
    const receipt = await read('Receipt', saved.json().result);
    expect(receipt.statusCode).toBe(404);
    expect(receipt.json()).toEqual(gone);
  });

  it("answers an unknown, altered, expired or another record's token the same 404", async () => {
    const { verification } = (
      await verify({ mode: 'id', ClientId: 'ACT10001', ClientLastname: 'Doe' })
    ).json();
    const saved = await savePublic(verification);
    const { result } = saved.json();
    const [row] = await t.db.select().from(payments).orderBy(desc(payments.createdAt)).limit(1);
    const paymentId = row?.id as string;
    const secret = linkSecret('', LINK_SECRET);
    const [payload, signature] = String(result).split('.') as [string, string];
    // A payment of the signed-in portal (not a public page's save), named by a well-signed token.
    const [portalPayment] = await t.db
      .insert(payments)
      .values({
        clientId: row?.clientId as string,
        idempotencyKey: `portal-${Date.now()}`,
        requestHash: 'x',
        source: 'CP Payment Info Page',
        purpose: 'annual_storage_overdue',
        methodKind: 'card',
        amountCents: 33_981,
        feeCents: 1_019,
        totalCents: 35_000,
        status: 'approved',
        createdAt: t.clock.now(),
      })
      .returning({ id: payments.id });
    const bad = [
      undefined,
      'nonsense',
      paymentId,
      `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
      createIdLinkToken(
        secret,
        'payment-result',
        paymentId,
        new Date(t.clock.now().getTime() - 8 * 86_400_000),
      ),
      createIdLinkToken(secret, 'newborn-agreement', paymentId, t.clock.now()),
      createIdLinkToken(secret, 'payment-result', '00000000-0000-4000-8000-000000000000', t.clock.now()),
      createPaymentLinkToken(secret, 'ACT10001', t.clock.now()),
      createIdLinkToken(secret, 'payment-result', portalPayment?.id as string, t.clock.now()),
    ];
    for (const token of bad) {
      for (const route of ['Result', 'Receipt'] as const) {
        const response = await read(route, token);
        expect(response.statusCode, `${route} ${String(token)}`).toBe(404);
        expect(response.json()).toEqual(gone);
      }
    }
    expect((await read('Result', result)).statusCode).toBe(200);
  });

  it('replays the same result token with a retried save', async () => {
    const { verification } = (
      await verify({ mode: 'id', ClientId: 'ACT10001', ClientLastname: 'Doe' })
    ).json();
    const key = `public-result-replay-${Date.now()}`;
    const body = await publicSaveBody(verification);
    const first = await saveWithKey(key, body);
    t.clock.advance(5_000);
    const again = await saveWithKey(key, body);
    expect(again.json().result).toBe(first.json().result);
  });
});
