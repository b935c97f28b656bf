import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_NUMBER_IN_TEXT } from '../../domain/card-number-text';
import { textMessages } from '../../domain/text';
import { clients, formSubmissions } from '../db/schema';
import { pngDataUrl, signaturePng } from '../testing/form-fixtures';
import { type GatewayToken, tokenizeCard } from '../testing/sandbox-tokens';
import { startTestApp, type TestApp } from '../testing/test-app';

/**
 * Input at the edge: control characters and card-number-shaped text are refused by one app-wide
 * check before any route reads the body, with a 400 naming the field, and nothing is stored or
 * left half done (a refused payment leaves the overdue fees payable).
 */

const NUL = '\u0000';
const LINK_SECRET = 'a-test-link-secret-of-at-least-32-characters';

let t: TestApp;
let jane: string;
let john: string;
let janeId: string;
let keySeq = 0;

beforeAll(async () => {
  t = await startTestApp({ LINK_SECRET, RATE_LIMIT_VERIFY_PER_IP: '1000' });
  jane = await t.signIn('ACT10001');
  john = await t.signIn('ACT10002');
  const [row] = await t.db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.clientActId, 'ACT10001'));
  janeId = row?.id as string;
});
afterAll(() => t.close());

const newKey = () => `edge-key-${++keySeq}-${Date.now()}`;

function cardFields(token: GatewayToken, extra: Record<string, unknown> = {}) {
  return {
    Payment_Type: 'CC',
    token,
    Credit_Card_Type: 'Visa',
    Month_of_Expiry: '12',
    Year_of_Expiry: String(t.clock.now().getUTCFullYear() + 3),
    Credit_Card_Holder_First_Name: 'John',
    Credit_Card_Holder_Last_Name: 'Roe',
    Credit_Card_Biling_Email_Address: 'john.roe@example.com',
    Country: 'United States',
    Credit_Card_Billing_Street: '1200 Brickell Avenue',
    Credit_Card_Billing_City: 'Miami',
    Credit_Card_Billing_State: 'FL',
    Credit_Card_Billing_Zip_Code: '33131',
    ...extra,
  };
}

function post(url: string, payload: unknown, cookie?: string, query: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    query,
    headers: { ...(cookie ? { cookie } : {}), 'idempotency-key': newKey() },
    payload: payload as Record<string, unknown>,
  });
}

const savePaymentInfo = (cookie: string, body: unknown) => post('/api/pay/set_PaymentInfo', body, cookie);

async function publicVerification(): Promise<string> {
  const response = await post('/api/pay/set_verifyClientData', {
    mode: 'id',
    ClientId: 'ACT10002',
    ClientLastname: 'Roe',
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().verification as string;
}

const validClientForm = {
  firstName: 'Jane',
  lastName: 'Doe',
  clientDob: '03/14/1975',
  email: 'jane.doe@example.com',
  phone: '3055550142',
  street: '1200 Brickell Avenue',
  city: 'Miami',
  state: 'FL',
  zip: '33131',
  country: 'United States',
  clinicName: 'Coral Gables Orthopedics',
  preferredAddressContactFullName: 'Dr. Ana Rivera',
  shippingClinicEmail: 'ship@coral.example.com',
  preferredAddressPhone: '3055550111',
  preferredAddressStreet: '200 Alhambra Circle',
  preferredAddressCity: 'Coral Gables',
  preferredAddressState: 'FL',
  preferredAddressZip: '33134',
  preferredAddressCountry: 'United States',
};

async function janeRecord() {
  const [row] = await t.db.select().from(clients).where(eq(clients.id, janeId));
  return row;
}

describe('a NUL in a holder name', () => {
  it('is refused with a 400 naming the field on the portal and the public page, and the overdue fees stay payable', async () => {
    const portal = await savePaymentInfo(
      john,
      cardFields(await tokenizeCard(t, '4111111111111111'), { Credit_Card_Holder_First_Name: `Jo${NUL}hn` }),
    );
    expect(portal.statusCode, portal.body).toBe(400);
    expect(portal.json()).toEqual({
      error: `Credit_Card_Holder_First_Name: ${textMessages.controlCharacter}.`,
      code: 'VALIDATION',
      fields: { Credit_Card_Holder_First_Name: textMessages.controlCharacter },
    });

    const publicPage = await post('/api/pay/set_PublicPaymentInfo', {
      verification: await publicVerification(),
      agree: true,
      page: 'email',
      ...cardFields(await tokenizeCard(t, '4111111111111111'), { Credit_Card_Holder_Last_Name: `Roe${NUL}` }),
    });
    expect(publicPage.statusCode, publicPage.body).toBe(400);
    expect(publicPage.json().fields).toEqual({ Credit_Card_Holder_Last_Name: textMessages.controlCharacter });

    // Neither refusal left the fees claimed: the next valid save charges them ($679.62 + 3%).
    const valid = await savePaymentInfo(john, cardFields(await tokenizeCard(t, '4111111111111111')));
    expect(valid.statusCode, valid.body).toBe(200);
    expect(valid.json()).toMatchObject({ amountCharged: 700.01 });
  });
});

describe('control characters anywhere in a request', () => {
  it.each([
    ['a DEL in a city', { ...validClientForm, city: 'Mia\u007fmi' }, {}, 'city'],
    ['an escape in a street', { ...validClientForm, street: '\u001b[31m1200 Brickell' }, {}, 'street'],
    ['a NUL in a nested object', { ...validClientForm, extra: { deeper: [`a${NUL}`] } }, {}, 'extra'],
    ['a NUL in a key', { ...validClientForm, [`x${NUL}`]: 'y' }, {}, `x${NUL}`],
    ['a NUL in the query string', validClientForm, { id: `ACT10001${NUL}` }, 'id'],
  ])('refuses %s with 400 and stores nothing', async (_, body, query, field) => {
    const before = await janeRecord();
    const response = await post('/api/pay/update_Client', body, jane, query);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { [field]: textMessages.controlCharacter },
    });
    expect(await janeRecord()).toEqual(before);
  });

  it('refuses a NUL in a path parameter', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/pay/documents/abc%00def',
      headers: { cookie: jane },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION');
  });

  it('refuses a tab or a line break in a one-line field, by the domain schema', async () => {
    const response = await post('/api/pay/update_Client', { ...validClientForm, city: 'Miami\nBeach' }, jane);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ city: textMessages.lineBreak });
  });
});

describe('card-number-shaped text in a field that is not a card field', () => {
  it.each([
    ['a street', { street: '1200 Brickell 4111 1111 1111 1111' }, 'street'],
    ['a last name', { lastName: 'Doe 4242-4242-4242-4242' }, 'lastName'],
    [
      'a clinic contact',
      { preferredAddressContactFullName: 'Dr. Rivera 378282246310005' },
      'preferredAddressContactFullName',
    ],
  ])('refuses it in %s of update_Client, saving nothing', async (_, change, field) => {
    const before = await janeRecord();
    const response = await post('/api/pay/update_Client', { ...validClientForm, ...change }, jane);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      error: CARD_NUMBER_IN_TEXT,
      code: 'FORBIDDEN_FIELD',
      fields: { [field]: CARD_NUMBER_IN_TEXT },
    });
    expect(await janeRecord()).toEqual(before);
  });

  it('refuses it in the consent form free text (Medications_taking), signing nothing', async () => {
    const response = await post(
      '/api/pay/send_ConsentData',
      {
        Medications: 'Yes',
        Medications_taking: 'Aspirin daily\nmy card 5555 5555 5555 4444 exp 12/29',
        Tissue_deliver: 'Destroy any Tissue',
        sample_type: 'Adipose',
        PaymentMethod: 'Check',
        agree: true,
        Signature: pngDataUrl(signaturePng()),
      },
      jane,
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'FORBIDDEN_FIELD',
      fields: { Medications_taking: CARD_NUMBER_IN_TEXT },
    });
    const submissions = await t.db
      .select()
      .from(formSubmissions)
      .where(and(eq(formSubmissions.clientId, janeId), eq(formSubmissions.form, 'consent')));
    expect(submissions).toHaveLength(0);
  });

  it('refuses it in a query string', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_Client',
      query: { id: '4111111111111111' },
      headers: { cookie: jane },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('FORBIDDEN_FIELD');
  });

  it('takes phone numbers, zip codes and gateway tokens as they are', async () => {
    const token = await tokenizeCard(t, '4242424242424242');
    const response = await savePaymentInfo(
      jane,
      cardFields(token, { Credit_Card_Holder_First_Name: 'Jane', Credit_Card_Holder_Last_Name: 'Doe' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const form = await post(
      '/api/pay/update_Client',
      { ...validClientForm, street: '1200 Brickell Avenue, Suite 1800, 33131-1234 tel 305-555-0142' },
      jane,
    );
    expect(form.statusCode, form.body).toBe(200);
  });
});

describe('a card number nested in the body', () => {
  it.each([
    ['{ card: { number } }', { card: { number: '4111111111111111' } }, 'card'],
    ['{ card: { number } } holding no digits', { card: { number: 'see the other field' } }, 'card'],
    ['{ billing: { card: { cvv } } }', { billing: { card: { cvv: '123' } } }, 'billing'],
    ['{ notes: [{ cardNumber }] }', { notes: [{ cardNumber: 'x' }] }, 'notes'],
    ['a card number as an array item', { notes: ['ok', '4111-1111-1111-1111'] }, 'notes'],
  ])('refuses %s with FORBIDDEN_FIELD', async (_, extra, field) => {
    const token = await tokenizeCard(t, '4242424242424242');
    const response = await savePaymentInfo(jane, { ...cardFields(token), ...extra });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().code).toBe('FORBIDDEN_FIELD');
    expect(Object.keys(response.json().fields)).toEqual([field]);
    expect(response.body).not.toContain('4111');
  });
});
