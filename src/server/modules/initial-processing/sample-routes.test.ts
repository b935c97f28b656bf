import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authMessages } from '../../../domain/auth';
import { CONSENT_AGREEMENT_VERSION } from '../../../domain/consent-agreement';
import { consentMessages } from '../../../domain/consent-form';
import { initialProcessingMessages, welcomeLinkMessages } from '../../../domain/initial-processing';
import type { ChargeRequest, PaymentGateway } from '../../adapters/payments/payment-gateway';
import {
  clients,
  paymentMethods,
  payments,
  physicianClients,
  physicians,
  sampleSubmissions,
  welcomeLinks,
} from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { newCardFields, pngDataUrl, signaturePng, tokenizeCard } from '../../testing/form-fixtures';
import { cookieOf, MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * POST /api/pay/send_ProcessData (spec 2, "Physician initial sample processing" and section 5;
 * DESIGN.md sections 3 to 5): a physician registers a new client with their sample and pays the
 * up-front banking fee ($2,500 adipose, $3,000 bone marrow, plus 3% by card) with their own card,
 * or records a check in the shipment; the new client sets their password with a welcome link.
 */

type Fault = null | 'lost-after-approval' | 'timeout';
let fault: Fault = null;
/** Every charge the gateway approved, as it was sent: the money taken, whatever the ledger says. */
const approvedAtGateway: ChargeRequest[] = [];

function faulty(real: PaymentGateway): PaymentGateway {
  return {
    name: real.name,
    notFoundGraceMs: real.notFoundGraceMs,
    refund: (request) => real.refund(request),
    void: (request) => real.void(request),
    lookupRefund: (request) => real.lookupRefund(request),
    saveMethod: (request) => real.saveMethod(request),
    async charge(request) {
      if (fault === 'timeout') {
        return { outcome: 'error', reason: 'gateway_unavailable', message: 'timed out', transactionId: null };
      }
      const result = await real.charge(request);
      if (result.outcome === 'approved') approvedAtGateway.push(request);
      if (fault === 'lost-after-approval') throw new Error('the connection to the gateway was lost');
      return result;
    },
    lookupCharge: (request) => real.lookupCharge(request),
  };
}

const log = { info() {}, warn() {} };
const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;
let alvarez: string;
let chen: string;
let keySeq = 0;
let personSeq = 0;
const newKey = () => `sample-${++keySeq}-${Date.now()}`;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS }, { gateway: faulty });
  alvarez = await t.signInPhysician('PHY20001');
  chen = await t.signInPhysician('PHY20002');
});
afterAll(() => t.close());
beforeEach(() => {
  fault = null;
});

/** A new person each time: a sample form registers a new client once per e-mail and birth date. */
function newPerson() {
  personSeq += 1;
  return {
    FirstName: 'Nora',
    LastName: `Sample${personSeq}`,
    Dob: '04/12/1979',
    Ship_date: '12/31/2049',
    Email: `nora.sample${personSeq}@example.com`,
    PhoneNumber: '3055550100',
    Address: '200 Biscayne Boulevard',
    City: 'Miami',
    State: 'FL',
    zipcode: '33131',
    Country: 'United States',
  };
}

async function byNewCard(number = '4242424242424242', extra: Record<string, unknown> = {}) {
  return {
    CreditCard: true,
    update_card: true,
    ...newCardFields(t, await tokenizeCard(t, number), { first: 'Maria', last: 'Alvarez' }),
    ...extra,
  };
}

const byCheck = {
  CreditCard: false,
  BillingName: 'Clinic Accounts',
  BillingEmail: 'accounts@clinic.example.com',
};

function send(cookie: string | null, body: Record<string, unknown>, key: string | null = newKey()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/send_ProcessData',
    headers: { ...(cookie ? { cookie } : {}), ...(key ? { 'idempotency-key': key } : {}) },
    payload: body,
  });
}

async function clientByEmail(email: string) {
  return t.db.select().from(clients).where(sql`lower(${clients.email}) = lower(${email})`);
}

async function ledgerOf(clientId: string) {
  return t.db.select().from(payments).where(eq(payments.clientId, clientId));
}

/** The welcome link in the newest welcome e-mail to the address. */
async function welcomeTokenFor(email: string) {
  const [mail] = (await t.mailTo(email)).filter((m) => m.subject.includes('welcome'));
  const token = /\/welcome\/([A-Za-z0-9_-]+)/.exec(mail?.textBody ?? '')?.[1];
  if (!token) throw new Error(`no welcome link for ${email}`);
  return token;
}

function setPassword(token: string, password = 'Blue heron over the bay 42') {
  return t.app.inject({ method: 'POST', url: '/api/pay/set_WelcomePassword', payload: { token, password } });
}

describe('who may send a sample form', () => {
  it('needs a session: none answers 401', async () => {
    const response = await send(null, { ...newPerson(), Tissue: 'Adipose', ...byCheck });
    expect(response.statusCode).toBe(401);
  });

  it('is the physician portal only: a client session answers 404', async () => {
    const jane = await t.signIn('ACT10001');
    const person = newPerson();
    const response = await send(jane, { ...person, Tissue: 'Adipose', ...byCheck });
    expect(response.statusCode).toBe(404);
    expect(await clientByEmail(person.Email)).toHaveLength(0);
  });

  it('needs an Idempotency-Key', async () => {
    const response = await send(alvarez, { ...newPerson(), Tissue: 'Adipose', ...byCheck }, null);
    expect(response.statusCode).toBe(400);
  });
});

describe('the form rules (spec 2, section 5)', () => {
  it('names every missing field with the spec message', async () => {
    const response = await send(alvarez, {});
    expect(response.statusCode).toBe(400);
    const m = initialProcessingMessages;
    expect(response.json().fields).toMatchObject({
      FirstName: m.firstName,
      LastName: m.lastName,
      Dob: m.dateEmpty,
      Ship_date: m.dateEmpty,
      Email: m.email,
      PhoneNumber: m.phone,
      Address: m.address,
      City: m.city,
      State: m.state,
      zipcode: m.zipcode,
      Country: m.country,
      Tissue: m.tissue,
      CreditCard: m.payment,
    });
  });

  it('refuses a ship date before today, a birth date after it, a year from 2050 and a phone with letters', async () => {
    const response = await send(alvarez, {
      ...newPerson(),
      Dob: '01/01/2099',
      Ship_date: '01/01/2020',
      PhoneNumber: '305-555-CALL',
      Tissue: 'Adipose',
      ...byCheck,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      Dob: initialProcessingMessages.invalidDate,
      Ship_date: initialProcessingMessages.shipDatePast,
      PhoneNumber: initialProcessingMessages.phoneNumeric,
    });
  });

  it('refuses a zip code that is not a US one for a client in the United States', async () => {
    const response = await send(alvarez, {
      ...newPerson(),
      zipcode: 'K1A 0B1',
      Tissue: 'Adipose',
      ...byCheck,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      zipcode: 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)',
    });
  });

  it('registers a client living abroad with their province and postal code as typed', async () => {
    const person = {
      ...newPerson(),
      City: 'London',
      State: 'Greater London',
      zipcode: 'SW1A 1AA',
      Country: 'United Kingdom',
    };
    const response = await send(alvarez, { ...person, Tissue: 'Adipose', ...byCheck });
    expect(response.statusCode, response.body).toBe(200);
    const [client] = await clientByEmail(person.Email);
    expect(client).toMatchObject({
      city: 'London',
      state: 'Greater London',
      zip: 'SW1A 1AA',
      country: 'United Kingdom',
    });
  });

  it('asks for the billing name and e-mail of a check', async () => {
    const response = await send(alvarez, { ...newPerson(), Tissue: 'Adipose', CreditCard: false });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      BillingName: initialProcessingMessages.billingName,
      BillingEmail: initialProcessingMessages.email,
    });
  });

  it('refuses a shown total that is not the server one, registering and charging nothing', async () => {
    const person = newPerson();
    const response = await send(alvarez, {
      ...person,
      Tissue: 'Adipose',
      ...(await byNewCard()),
      expectedTotalCents: 250_000,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toContain('$2,575.00');
    expect(await clientByEmail(person.Email)).toHaveLength(0);
  });
});

describe('paying by card', () => {
  it("charges $2,575.00 for adipose to the physician's card, whatever Amount the body carries, and registers the client", async () => {
    const person = newPerson();
    const response = await send(alvarez, { ...person, Tissue: 'Adipose', Amount: 1, ...(await byNewCard()) });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({
      success: true,
      message: initialProcessingMessages.submitted,
      paymentKind: 'card',
      amountCharged: 2575,
      processingFee: 75,
      amountDue: 0,
      cardLast4: '4242',
    });
    expect(answer.ClientId).toMatch(/^ACT1\d{4}$/);

    const [client] = await clientByEmail(person.Email);
    expect(client).toMatchObject({
      clientActId: answer.ClientId,
      passwordHash: null,
      firstName: 'Nora',
      dateOfBirth: '1979-04-12',
      initialProcessingFormCompleted: true,
    });
    const ledger = await ledgerOf(client?.id as string);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      amountCents: 250_000,
      feeCents: 7_500,
      totalCents: 257_500,
      status: 'approved',
    });
    const [alvarezRow] = await t.db
      .select()
      .from(physicians)
      .where(eq(physicians.physicianActId, 'PHY20001'));
    expect(ledger[0]?.paidByPhysicianId).toBe(alvarezRow?.id);
    const [sample] = await t.db
      .select()
      .from(sampleSubmissions)
      .where(eq(sampleSubmissions.clientId, client?.id as string));
    expect(sample).toMatchObject({
      tissue: 'Adipose',
      shipDate: '2049-12-31',
      paymentKind: 'card',
      status: 'paid',
      totalCents: 257_500,
      paymentId: ledger[0]?.id,
    });

    const [confirmation] = await t.mailTo('maria.alvarez@example.com');
    expect(confirmation?.subject).toContain(answer.ClientId);
    expect(confirmation?.textBody).toContain('$2,500.00 + 3% processing fee $75.00 = $2,575.00');
    expect(confirmation?.textBody).toContain('ending in 4242');
    expect(confirmation?.textBody).toContain(answer.TransactionId);
    const [welcome] = await t.mailTo(person.Email);
    expect(welcome?.textBody).toContain(`Your Client ID is ${answer.ClientId}`);
    expect(welcome?.textBody).toMatch(/\/welcome\/[A-Za-z0-9_-]{40,}/);
  });

  it('charges $3,090.00 for bone marrow, whatever Amount the body carries', async () => {
    const person = newPerson();
    const response = await send(alvarez, {
      ...person,
      Tissue: 'Bone_marrow',
      Amount: 2500,
      ...(await byNewCard()),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ amountCharged: 3090, processingFee: 90 });
    const [client] = await clientByEmail(person.Email);
    const ledger = await ledgerOf(client?.id as string);
    expect(ledger.map((row) => row.totalCents)).toEqual([309_000]);
  });

  it('the same Idempotency-Key twice registers one client and charges once; another body with it is refused', async () => {
    const person = newPerson();
    const body = { ...person, Tissue: 'Adipose', ...(await byNewCard()) };
    const key = newKey();
    const first = await send(alvarez, body, key);
    const second = await send(alvarez, body, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    const registered = await clientByEmail(person.Email);
    expect(registered).toHaveLength(1);
    expect(await ledgerOf(registered[0]?.id as string)).toHaveLength(1);

    const other = await send(alvarez, { ...body, Tissue: 'Bone_marrow' }, key);
    expect(other.statusCode).toBe(422);
    expect(await clientByEmail(person.Email)).toHaveLength(1);
  });

  it('a decline registers no one, and a retry with a good card registers the client', async () => {
    const person = newPerson();
    const declined = await send(alvarez, {
      ...person,
      Tissue: 'Adipose',
      ...(await byNewCard('4000000000000002')),
    });
    expect(declined.statusCode).toBe(402);
    expect(await clientByEmail(person.Email)).toHaveLength(0);
    expect(await t.mailTo(person.Email)).toHaveLength(0);

    const retried = await send(alvarez, { ...person, Tissue: 'Adipose', ...(await byNewCard()) });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await clientByEmail(person.Email)).toHaveLength(1);
  });

  it("keeps a card saved with save_card on the physician's file, not the client's, and pays the next sample with it", async () => {
    // Dr. Chen, so that Dr. Alvarez's cases keep asking for a new card.
    const person = newPerson();
    const response = await send(chen, {
      ...person,
      Tissue: 'Adipose',
      ...(await byNewCard('5555555555554444', { Credit_Card_Type: 'Mastercard', save_card: true })),
    });
    expect(response.statusCode, response.body).toBe(200);
    const [client] = await clientByEmail(person.Email);
    expect(
      await t.db
        .select()
        .from(paymentMethods)
        .where(eq(paymentMethods.clientId, client?.id as string)),
    ).toEqual([]);
    const info = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_PaymentInfo',
      headers: { cookie: chen },
    });
    expect(info.statusCode).toBe(200);
    expect(info.json().result.Credit_Card_Number).toContain('4444');

    const next = newPerson();
    const onFile = await send(chen, { ...next, Tissue: 'Bone_marrow', CreditCard: true });
    expect(onFile.statusCode, onFile.body).toBe(200);
    expect(onFile.json()).toMatchObject({ amountCharged: 3090, cardLast4: '4444' });
  });

  it('asks for a card when none is on file and no new one is given', async () => {
    const response = await send(alvarez, { ...newPerson(), Tissue: 'Adipose', CreditCard: true });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty('update_card');
  });
});

describe('paying by check in the shipment', () => {
  it('charges nothing, leaves initial processing unpaid and e-mails the physician and the billing contact', async () => {
    const person = newPerson();
    const response = await send(alvarez, { ...person, Tissue: 'Adipose', ...byCheck });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      paymentKind: 'check',
      amountCharged: 0,
      amountDue: 2500,
      cardLast4: null,
    });
    const [client] = await clientByEmail(person.Email);
    expect(client?.initialProcessingFormCompleted).toBe(false);
    expect(await ledgerOf(client?.id as string)).toHaveLength(0);
    const [sample] = await t.db
      .select()
      .from(sampleSubmissions)
      .where(eq(sampleSubmissions.clientId, client?.id as string));
    expect(sample).toMatchObject({
      status: 'awaiting_check',
      paymentKind: 'check',
      totalCents: 250_000,
      billingName: 'Clinic Accounts',
      billingEmail: 'accounts@clinic.example.com',
    });
    const [billing] = await t.mailTo('accounts@clinic.example.com');
    expect(billing?.textBody).toContain('$2,500.00');
    expect(billing?.textBody).toContain(client?.clientActId);
    const [confirmation] = await t.mailTo('maria.alvarez@example.com');
    expect(confirmation?.textBody).toContain('check for $2,500.00');

    // The new client signs in and the consent waits for the payment (spec 2, section 8).
    const welcome = await setPassword(await welcomeTokenFor(person.Email));
    expect(welcome.statusCode, welcome.body).toBe(200);
    const consent = await t.app.inject({
      method: 'POST',
      url: '/api/pay/send_ConsentData',
      headers: { cookie: cookieOf(welcome), 'idempotency-key': newKey() },
      payload: {
        Medications: 'No',
        Tissue_deliver: 'Destroy any Tissue',
        sample_type: 'Adipose',
        PaymentMethod: 'Check',
        agree: true,
        Signature: pngDataUrl(signaturePng()),
        agreementVersion: CONSENT_AGREEMENT_VERSION,
      },
    });
    expect(consent.statusCode).toBe(409);
    expect(consent.json().error).toBe(consentMessages.initialProcessingFirst);
  });
});

describe('one client per person', () => {
  it("names the Client ID when the physician's client is sent again, and says only 'registered' for another physician's", async () => {
    const person = newPerson();
    const first = await send(alvarez, { ...person, Tissue: 'Adipose', ...byCheck });
    expect(first.statusCode).toBe(200);
    const again = await send(alvarez, { ...person, Tissue: 'Adipose', ...byCheck });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(initialProcessingMessages.alreadyRegistered(first.json().ClientId));
    const elsewhere = await send(chen, {
      ...person,
      Email: person.Email.toUpperCase(),
      Tissue: 'Adipose',
      ...byCheck,
    });
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json().error).toBe(initialProcessingMessages.registeredElsewhere);
    expect(await clientByEmail(person.Email)).toHaveLength(1);
  });

  it('20 concurrent forms for one person with different keys register one client and charge $2,575.00 once; the others are refused, and each key replays its answer', async () => {
    const person = newPerson();
    const body = { ...person, Tissue: 'Adipose', ...(await byNewCard()) };
    const keys = Array.from({ length: 20 }, newKey);
    const gatewayBefore = approvedAtGateway.length;
    const responses = await Promise.all(keys.map((key) => send(alvarez, body, key)));

    const won = responses.filter((r) => r.statusCode === 200);
    expect(won, responses.map((r) => r.body).join('\n')).toHaveLength(1);
    const clientId = won[0]?.json().ClientId as string;
    expect(clientId).toMatch(/^ACT1\d{4}$/);
    for (const refused of responses.filter((r) => r.statusCode !== 200)) {
      expect(refused.statusCode, refused.body).toBe(409);
      // While the first one charges, "being submitted"; once it is done, its Client ID.
      expect([
        "This client's sample form is being submitted already. Please wait a moment and look for them in My Clients.",
        `This client is already registered with you as Client ID ${clientId}. Their sample form was received; please contact us to send another sample.`,
      ]).toContain(refused.json().error);
    }

    const registered = await clientByEmail(person.Email);
    expect(registered).toHaveLength(1);
    expect(registered[0]?.clientActId).toBe(clientId);
    const ledger = await ledgerOf(registered[0]?.id as string);
    expect(ledger.map((row) => [row.status, row.totalCents])).toEqual([['approved', 257_500]]);
    const charged = approvedAtGateway.slice(gatewayBefore);
    expect(charged.map((c) => c.amountCents)).toEqual([257_500]);
    const samples = await t.db
      .select()
      .from(sampleSubmissions)
      .where(eq(sampleSubmissions.clientId, registered[0]?.id as string));
    expect(samples.map((s) => s.status)).toEqual(['paid']);

    // The winner's key replays its answer; a loser's key, tried again, is refused by Client ID.
    const winnerKey = keys[responses.indexOf(won[0] as (typeof responses)[number])] as string;
    const replay = await send(alvarez, body, winnerKey);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(won[0]?.json());
    const loserKey = keys.find((key) => key !== winnerKey) as string;
    const again = await send(alvarez, body, loserKey);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(
      `This client is already registered with you as Client ID ${clientId}. Their sample form was received; please contact us to send another sample.`,
    );
    expect(approvedAtGateway.slice(gatewayBefore)).toHaveLength(1);
    expect(await clientByEmail(person.Email)).toHaveLength(1);
  });

  it('two physicians sending the same person at once register them once; the other physician is never told the Client ID', async () => {
    const person = newPerson();
    const sends = Array.from({ length: 20 }, (_, i) =>
      send(i % 2 === 0 ? alvarez : chen, {
        ...person,
        Email: i % 4 === 1 ? person.Email.toUpperCase() : person.Email,
        Tissue: 'Adipose',
        ...byCheck,
      }),
    );
    const responses = await Promise.all(sends);
    const won = responses.filter((r) => r.statusCode === 200);
    expect(won, responses.map((r) => r.body).join('\n')).toHaveLength(1);
    const winnerIndex = responses.indexOf(won[0] as (typeof responses)[number]);
    const clientId = won[0]?.json().ClientId as string;
    responses.forEach((response, i) => {
      if (i === winnerIndex) return;
      expect(response.statusCode, response.body).toBe(409);
      if (i % 2 !== winnerIndex % 2) {
        expect(response.json().error).toBe(
          'A client with this email address and date of birth is already registered with the bank. Please contact us to send a sample for them.',
        );
        expect(response.body).not.toContain(clientId);
      }
    });
    expect(await clientByEmail(person.Email)).toHaveLength(1);
  });

  it("lists the new client in the physician's My Clients, and not in another physician's", async () => {
    const person = newPerson();
    const response = await send(alvarez, { ...person, Tissue: 'Adipose', ...byCheck });
    const clientId = response.json().ClientId;
    const list = async (cookie: string) =>
      (
        await t.app.inject({ method: 'GET', url: '/api/pay/get_PhysicianClients', headers: { cookie } })
      ).json().clients as Array<{ clientACTId: string; initialProcessingPaid: boolean }>;
    expect((await list(alvarez)).find((c) => c.clientACTId === clientId)).toMatchObject({
      initialProcessingPaid: false,
    });
    expect((await list(chen)).map((c) => c.clientACTId)).not.toContain(clientId);
  });

  it('gives each new client the next free Client ID', async () => {
    const a = await send(alvarez, { ...newPerson(), Tissue: 'Adipose', ...byCheck });
    const b = await send(alvarez, { ...newPerson(), Tissue: 'Adipose', ...byCheck });
    const number = (answer: { ClientId: string }) => Number(answer.ClientId.slice(3));
    expect(number(b.json())).toBe(number(a.json()) + 1);
  });
});

describe('the welcome link', () => {
  it('shows the Client ID, sets a password once and signs the client in', async () => {
    const person = newPerson();
    const sent = await send(alvarez, { ...person, Tissue: 'Adipose', ...(await byNewCard()) });
    const clientId = sent.json().ClientId;
    const token = await welcomeTokenFor(person.Email);
    const [stored] = await t.db.select().from(welcomeLinks).where(eq(welcomeLinks.tokenHash, token));
    expect(stored).toBeUndefined();

    const link = await t.app.inject({ method: 'GET', url: `/api/pay/get_WelcomeLink?token=${token}` });
    expect(link.statusCode).toBe(200);
    expect(link.json()).toMatchObject({ clientACTId: clientId, firstName: 'Nora' });

    const common = await setPassword(token, 'password1234');
    expect(common.statusCode).toBe(400);
    expect(common.json().fields.password).toBe(authMessages.passwordTooCommon);
    const short = await setPassword(token, 'Short1!');
    expect(short.json().fields.password).toBe(authMessages.passwordTooShort);

    const set = await setPassword(token);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().result.clientACTId).toBe(clientId);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/pay/session',
      headers: { cookie: cookieOf(set) },
    });
    expect(session.json()).toMatchObject({ signedIn: true, role: 'client', clientACTId: clientId });
    // With a card, the consent is open to them.
    const forms = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_FormDocuments',
      headers: { cookie: cookieOf(set) },
    });
    expect(forms.json().initialProcessingFormCompleted).toBe(true);
    expect(await t.signIn(clientId, 'Blue heron over the bay 42')).toBeTruthy();

    const twice = await setPassword(token, 'Another long passphrase 77');
    expect(twice.statusCode).toBe(404);
    expect(twice.json().error).toBe(welcomeLinkMessages.unusable);
    const reread = await t.app.inject({ method: 'GET', url: `/api/pay/get_WelcomeLink?token=${token}` });
    expect(reread.statusCode).toBe(404);
  });

  it('expires after 7 days', async () => {
    const person = newPerson();
    await send(alvarez, { ...person, Tissue: 'Adipose', ...byCheck });
    const token = await welcomeTokenFor(person.Email);
    t.clock.advance(7 * DAY + 1000);
    try {
      const response = await setPassword(token);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe(welcomeLinkMessages.unusable);
      const [client] = await clientByEmail(person.Email);
      expect(client?.passwordHash).toBeNull();
    } finally {
      t.clock.advance(-(7 * DAY + 1000));
    }
  });

  it('answers an unknown link like a used one', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_WelcomeLink?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe(welcomeLinkMessages.unusable);
  });
});

describe('a submission cut short', () => {
  it('an answer lost after the gateway approved completes the registration at reconciliation, charged once', async () => {
    const person = newPerson();
    fault = 'lost-after-approval';
    const response = await send(alvarez, { ...person, Tissue: 'Adipose', ...(await byNewCard()) });
    expect(response.statusCode).toBe(503);
    fault = null;
    const [pending] = await clientByEmail(person.Email);
    expect(pending?.initialProcessingFormCompleted).toBe(false);

    t.clock.advance(60_000);
    await reconcile(t.app.deps, log);
    const [client] = await clientByEmail(person.Email);
    expect(client?.initialProcessingFormCompleted).toBe(true);
    const ledger = await ledgerOf(client?.id as string);
    expect(ledger.map((row) => [row.status, row.totalCents])).toEqual([['approved', 257_500]]);
    const [sample] = await t.db
      .select()
      .from(sampleSubmissions)
      .where(and(eq(sampleSubmissions.clientId, client?.id as string), eq(sampleSubmissions.status, 'paid')));
    expect(sample).toBeTruthy();
    expect(await t.mailTo(person.Email)).toHaveLength(1);
  });

  it('a charge that never reached the gateway gives the registration back at reconciliation', async () => {
    const person = newPerson();
    fault = 'timeout';
    const response = await send(alvarez, { ...person, Tissue: 'Adipose', ...(await byNewCard()) });
    expect(response.statusCode).toBe(503);
    fault = null;
    expect(await clientByEmail(person.Email)).toHaveLength(1);

    t.clock.advance(60_000);
    await reconcile(t.app.deps, log);
    await reconcile(t.app.deps, log);
    expect(await clientByEmail(person.Email)).toHaveLength(0);
    expect(
      await t.db
        .select()
        .from(physicianClients)
        .innerJoin(clients, eq(clients.id, physicianClients.clientId))
        .where(sql`lower(${clients.email}) = lower(${person.Email})`),
    ).toHaveLength(0);

    const retried = await send(alvarez, { ...person, Tissue: 'Adipose', ...(await byNewCard()) });
    expect(retried.statusCode, retried.body).toBe(200);
  });
});
