import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationMessages as v } from '../../../domain/client-verification';
import { payments } from '../../db/schema';
import { createPaymentLinkToken, linkSecret } from '../../lib/link-tokens';
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
    expect(response.json().amountDue).toEqual({ overdueYears: [], overdueCents: 0 });
    expect(response.body).not.toMatch(/Jane|jane\.doe|1975/);
  });

  it("shows the confirmed client's overdue years before anything is charged", async () => {
    const response = await verify(johnByContact);
    const { amountDue } = response.json();
    expect(amountDue.overdueCents).toBe(67_962);
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
