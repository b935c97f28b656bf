import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_AGREEMENT_VERSION } from '../../../domain/consent-agreement';
import { consentMessages, physicianConsentMessages } from '../../../domain/consent-form';
import { formPaymentMessages } from '../../../domain/form-payment';
import { PAYMENT_SOURCES } from '../../../domain/payment-info';
import {
  clients,
  documents,
  formSubmissions,
  paymentMethods,
  payments,
  physicianClients,
  physicians,
  sessions,
} from '../../db/schema';
import { sha256Hex } from '../../lib/secrets';
import {
  addClient,
  newCardFields,
  pageText,
  pngDataUrl,
  saveCardOnFile,
  signaturePng,
  tokenizeCard,
} from '../../testing/form-fixtures';
import { expectSeen, itLooks, readPdf, valueAfter } from '../../testing/pdf-ocr';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * POST /api/pay/send_PhysicianConsentData and GET /api/pay/get_PhysicianConsent (spec 2, the
 * physician variant of the client consent; DESIGN.md sections 3, 7 and 8 item 10): only a
 * physician, only for the client they act for; the client's details saved on the client's record
 * with the signing; the certificate names the physician; the client's own method pays the yearly
 * storage. Each case that signs uses a client added here and linked to Dr. Maria Alvarez (PHY20001).
 */

const KEY = Buffer.alloc(32, 12).toString('base64');
const SIGNATURE = signaturePng();
const p = physicianConsentMessages;

let t: TestApp;
let mariaId: string;
let janeId: string;
let keySeq = 0;

beforeAll(async () => {
  t = await startTestApp({ DOCUMENTS_KEY: KEY, RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
  const [maria] = await t.db
    .select({ id: physicians.id })
    .from(physicians)
    .where(eq(physicians.physicianActId, 'PHY20001'));
  const [jane] = await t.db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.clientActId, 'ACT10001'));
  mariaId = maria?.id as string;
  janeId = jane?.id as string;
});
afterAll(() => t.close());

function newKey() {
  keySeq += 1;
  return `physician-consent-key-${keySeq}-${Date.now()}`;
}

const details = {
  FirstName: 'Paula',
  LastName: 'Reyes',
  Dob: '03/14/1979',
  Email: 'paula.test@example.com',
  PhoneNumber: '3055550142',
  Address: '1450 Brickell Avenue',
  City: 'Miami',
  State: 'FL',
  zipcode: '33131',
  Country: 'United States',
  Enrollment_Date: '05/02/2025',
};

function consentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Medications: 'No',
    Tissue_deliver: 'Destroy any Tissue',
    ...details,
    sample_type: 'Adipose',
    PaymentMethod: 'Check',
    agree: true,
    Signature: pngDataUrl(SIGNATURE),
    agreementVersion: CONSENT_AGREEMENT_VERSION,
    ...overrides,
  };
}

function send(cookie: string, body: Record<string, unknown>, key: string | null = newKey()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/send_PhysicianConsentData',
    headers: { cookie, ...(key ? { 'idempotency-key': key } : {}), 'user-agent': 'ClinicTablet/1.0' },
    payload: body,
  });
}

function readConsent(cookie: string) {
  return t.app.inject({ method: 'GET', url: '/api/pay/get_PhysicianConsent', headers: { cookie } });
}

async function actFor(cookie: string, clientId: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/pay/set_ActingClient',
    headers: { cookie },
    payload: { clientId },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** A new client of Dr. Alvarez, chosen in a new session of hers. */
async function maria(values: Partial<typeof clients.$inferInsert> = {}) {
  // The phone the consent's details carry: a physician may not change it (nor the e-mail).
  const client = await addClient(t.db, { phone: details.PhoneNumber, ...values });
  await t.db.insert(physicianClients).values({ physicianId: mariaId, clientId: client.id });
  const cookie = await t.signInPhysician('PHY20001');
  await actFor(cookie, client.id);
  return { ...client, cookie };
}

async function stateOf(clientId: string) {
  const [client] = await t.db.select().from(clients).where(eq(clients.id, clientId));
  const submissions = await t.db
    .select()
    .from(formSubmissions)
    .where(and(eq(formSubmissions.clientId, clientId), eq(formSubmissions.form, 'consent')));
  const docs = await t.db.select().from(documents).where(eq(documents.clientId, clientId));
  return { client, submissions, docs };
}

async function expectNothingSigned(clientId: string) {
  const state = await stateOf(clientId);
  expect(state.client?.clientConsentFormCompleted).toBe(false);
  expect(state.submissions).toEqual([]);
  expect(state.docs).toEqual([]);
}

describe('who may submit a physician consent', () => {
  it('answers a client session 404, as a route that does not exist for it, and stores nothing', async () => {
    const client = await addClient(t.db);
    const cookie = await t.signIn(client.actId);
    const response = await send(cookie, consentBody());
    expect(response.statusCode).toBe(404);
    expect((await readConsent(cookie)).statusCode).toBe(404);
    await expectNothingSigned(client.id);
  });

  it('needs a session', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pay/send_PhysicianConsentData',
      headers: { 'idempotency-key': newKey() },
      payload: consentBody(),
    });
    expect(response.statusCode).toBe(401);
  });

  it('answers 404 while no client is chosen', async () => {
    const cookie = await t.signInPhysician('PHY20001');
    const response = await send(cookie, consentBody());
    expect(response.statusCode).toBe(404);
    expect((await readConsent(cookie)).statusCode).toBe(404);
  });

  it("answers another physician's client with the same 404 as no client, and stores nothing", async () => {
    // Dr. Chen (PHY20002) cannot choose Jane (ACT10001, Dr. Alvarez's client) ...
    const chen = await t.signInPhysician('PHY20002', undefined, '10.1.1.2');
    const chosen = await t.app.inject({
      method: 'POST',
      url: '/api/pay/set_ActingClient',
      headers: { cookie: chen },
      payload: { clientId: 'ACT10001' },
    });
    expect(chosen.statusCode).toBe(404);
    const unknown = await send(chen, consentBody());
    // ... and a session that names her anyway (a link removed after she was chosen) changes nothing.
    const token = decodeURIComponent(chen.split('=')[1]?.split(';')[0] ?? '');
    await t.db
      .update(sessions)
      .set({ actingForClientId: janeId })
      .where(eq(sessions.id, sha256Hex(token)));
    t.clock.advance(2_000);
    const foreign = await send(chen, consentBody());
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    expect((await readConsent(chen)).json()).toEqual(unknown.json());
    await expectNothingSigned(janeId);
  });
});

describe('the page the physician fills in (get_PhysicianConsent)', () => {
  it("prefills the client's details and names the physician; the payment methods are the client's", async () => {
    const client = await maria({
      firstName: 'Rosa',
      lastName: 'Diaz',
      dateOfBirth: '1975-11-30',
      phone: '3055550100',
      street: '1 Main Street',
      city: 'Miami',
      state: 'FL',
      zip: '33130',
      country: 'United States',
    });
    await saveCardOnFile(t, await t.signIn(client.actId), newKey(), '5555555555554444');
    const response = await readConsent(client.cookie);
    expect(response.statusCode, response.body).toBe(200);
    const today = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(t.clock.now());
    expect(response.json()).toMatchObject({
      initialProcessingFormCompleted: true,
      completed: false,
      signedAt: null,
      documentId: null,
      clientACTId: client.actId,
      client: {
        FirstName: 'Rosa',
        LastName: 'Diaz',
        Dob: '11/30/1975',
        Email: client.email,
        PhoneNumber: '3055550100',
        Address: '1 Main Street',
        City: 'Miami',
        State: 'FL',
        zipcode: '33130',
        Country: 'United States',
        Enrollment_Date: today,
      },
      physician: { PhysicianId: 'PHY20001', PhysicianLastName: 'Alvarez' },
      pay_info: { Id: client.id, Credit_Card_Number: '************4444' },
    });
  });
});

describe('the physician variant rules, checked again on the server', () => {
  const individual = {
    Tissue_deliver: 'Release any Tissue to the following individual',
    Addendum_name: 'Mary Doe',
    Addendum_dob: '04/12/1980',
    Addendum_address: '12 Ocean Drive, Miami, FL 33139',
    Addendum_phone: '3055550123',
    Relationship: 'Sister',
  };
  let cookie: string;
  let clientId: string;
  beforeAll(async () => {
    const client = await maria();
    cookie = client.cookie;
    clientId = client.id;
  });

  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    [
      'every client detail empty',
      Object.fromEntries(Object.keys(details).map((field) => [field, ''])),
      {
        FirstName: p.FirstName,
        LastName: p.LastName,
        Dob: consentMessages.empty,
        Email: p.Email,
        PhoneNumber: p.PhoneNumber,
        Address: p.Address,
        City: p.City,
        State: p.State,
        zipcode: p.zipcode,
        Country: p.Country,
        Enrollment_Date: consentMessages.empty,
      },
    ],
    ['letters in PhoneNumber', { PhoneNumber: '305555O142' }, { PhoneNumber: 'Invalid PhoneNumber' }],
    ['an e-mail without a domain', { Email: 'paula.reyes@' }, { Email: 'Invalid email.' }],
    ['a Dob in the future', { Dob: '01/01/2049' }, { Dob: p.dobFuture }],
    ['a Dob that is not a date', { Dob: '02/30/1990' }, { Dob: consentMessages.invalidDate }],
    ['a Dob in 2050', { Dob: '01/01/2050' }, { Dob: consentMessages.invalidDate }],
    [
      'an Enrollment_Date that is not a date',
      { Enrollment_Date: '13/01/2025' },
      { Enrollment_Date: consentMessages.invalidDate },
    ],
    [
      'letters in the Addendum phone',
      { ...individual, Addendum_phone: '305-555-O123' },
      { Addendum_phone: 'Invalid PhoneNumber' },
    ],
    [
      'a PhoneNumber that is not 10 digits',
      { PhoneNumber: '305-555-014' },
      { PhoneNumber: 'Please enter a 10-digit phone number' },
    ],
    [
      'a zipcode that is not a US zip code, for a client in the United States',
      { zipcode: 'abc' },
      { zipcode: 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)' },
    ],
    [
      'a postal code of 21 characters, for a client abroad',
      { Country: 'Canada', State: 'Ontario', zipcode: 'K1A 0B1 K1A 0B1 K1A 0' },
      { zipcode: 'Must be at most 20 characters' },
    ],
    [
      // DESIGN.md section 8, item 10: the date-of-birth error is on the date of birth, not the address.
      'an Addendum date of birth that is not a date',
      { ...individual, Addendum_dob: '02/30/1980' },
      { Addendum_dob: consentMessages.invalidDate },
    ],
    [
      'no Medications, sample_type, agreement or signature',
      { Medications: undefined, sample_type: undefined, agree: false, Signature: undefined },
      {
        Medications: 'Please Select One',
        sample_type: 'Please Select One',
        agree: consentMessages.agree,
        Signature: consentMessages.signature,
      },
    ],
  ])(
    'refuses %s with the physician variant messages, and stores nothing',
    async (_case, overrides, fields) => {
      const response = await send(cookie, consentBody(overrides));
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().code).toBe('VALIDATION');
      expect(response.json().fields).toEqual(fields);
      await expectNothingSigned(clientId);
    },
  );

  it('refuses a client whose initial processing is not paid (409), and stores nothing', async () => {
    const client = await maria({ initialProcessingFormCompleted: false });
    const response = await send(client.cookie, consentBody());
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'INITIAL_PROCESSING_REQUIRED',
      error: 'Please complete Initial Processing payment to proceed with consent form.',
    });
    await expectNothingSigned(client.id);
  });

  it.each([
    [
      'e-mail address',
      { Email: 'someone.else@example.net' },
      {
        Email:
          "Only the client or the bank can change the client's e-mail address. Please ask your client to change it in the Client Portal, or contact us.",
      },
    ],
    [
      'phone number',
      { PhoneNumber: '3055559999' },
      {
        PhoneNumber:
          "Only the client or the bank can change the client's phone number. Please ask your client to change it in the Client Portal, or contact us.",
      },
    ],
  ])("refuses a change of the client's %s (403), and stores nothing", async (_what, overrides, fields) => {
    const client = await maria();
    const response = await send(client.cookie, consentBody({ Email: client.email, ...overrides }));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CHANGE_NOT_PERMITTED', fields });
    expect(response.json().error).toBe(Object.values(fields)[0]);
    await expectNothingSigned(client.id);
    const [row] = await t.db.select().from(clients).where(eq(clients.id, client.id));
    expect(row).toMatchObject({ email: client.email, phone: '3055550142', firstName: 'Test' });
    expect(await t.mailTo('someone.else@example.net')).toEqual([]);
  });

  it('refuses a client who signed before (on paper), and saves none of the details', async () => {
    const client = await maria({ clientConsentFormCompleted: true });
    const response = await send(client.cookie, consentBody());
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'ALREADY_COMPLETED',
      error: 'You have already completed this form. Thank you.',
    });
    const [row] = await t.db.select().from(clients).where(eq(clients.id, client.id));
    expect(row?.firstName).toBe('Test');
    expect((await readConsent(client.cookie)).json()).toMatchObject({ completed: true });
  });
});

describe('the payment method for annual storage is the client’s', () => {
  it("does not take the physician's own card for the client's yearly storage", async () => {
    const client = await maria();
    await t.db.insert(paymentMethods).values({
      physicianId: mariaId,
      kind: 'card',
      brand: 'Visa',
      last4: '1111',
      gatewayCustomerRef: 'physician-customer',
      gatewayPaymentRef: 'physician-card',
    });
    const response = await send(client.cookie, consentBody({ PaymentMethod: 'Credit Card' }));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fields).toEqual({ update_card: formPaymentMessages.noCardStored });
    await expectNothingSigned(client.id);
    await t.db.delete(paymentMethods).where(eq(paymentMethods.physicianId, mariaId));
  });

  it("takes the client's card on file", async () => {
    const client = await maria();
    await saveCardOnFile(t, await t.signIn(client.actId), newKey(), '5555555555554444');
    const response = await send(
      client.cookie,
      consentBody({ PaymentMethod: 'Credit Card', Email: client.email }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const [answers] = await t.db
      .select()
      .from(documents)
      .where(and(eq(documents.clientId, client.id), eq(documents.kind, 'signed_agreement')));
    expect(answers).toBeDefined();
    const mails = (await t.mailTo(client.email)).filter((m) => /signed consent/.test(m.subject));
    expect(mails[0]?.textBody).toContain('ending in 4444 (on file)');
  });

  it("keeps a new card on the client's file when asked, and charges nothing", async () => {
    const client = await maria();
    const token = await tokenizeCard(t, '4242424242424242');
    const response = await send(
      client.cookie,
      consentBody({
        PaymentMethod: 'Credit Card',
        Email: client.email,
        update_card: true,
        save_card: true,
        ...newCardFields(t, token, { first: 'Paula', last: 'Reyes' }),
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const clientMethods = await t.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.clientId, client.id));
    expect(clientMethods).toMatchObject([{ kind: 'card', last4: '4242', isDefault: true }]);
    expect(await t.db.select().from(paymentMethods).where(eq(paymentMethods.physicianId, mariaId))).toEqual(
      [],
    );
    const ledger = await t.db.select().from(payments).where(eq(payments.clientId, client.id));
    expect(ledger.every((row) => row.totalCents === 0)).toBe(true);
    expect(ledger.map((row) => row.source)).toEqual([PAYMENT_SOURCES.physicianConsentForm]);
  });
});

describe('a client living abroad', () => {
  it('saves their province and postal code as typed: the US state list and ZIP code are for the United States', async () => {
    const client = await maria();
    const abroad = {
      Address: '24 Sussex Drive',
      City: 'Ottawa',
      State: 'Ontario',
      zipcode: 'K1M 1M4',
      Country: 'Canada',
    };
    const response = await send(client.cookie, consentBody({ ...abroad, Email: client.email }));
    expect(response.statusCode, response.body).toBe(200);
    const state = await stateOf(client.id);
    expect(state.client).toMatchObject({
      street: '24 Sussex Drive',
      city: 'Ottawa',
      state: 'Ontario',
      zip: 'K1M 1M4',
      country: 'Canada',
      clientConsentFormCompleted: true,
    });
  });
});

describe('Dr. Alvarez submits the consent of a client signing in the clinic', () => {
  let client: Awaited<ReturnType<typeof maria>>;
  let key: string;
  let first: { TransactionId: string; documentId: string; message: string; page_name: string };
  const signedBody = consentBody({
    Email: 'paula.reyes@example.com',
    Medications: 'Yes',
    Medications_taking: 'None',
  });

  beforeAll(async () => {
    client = await maria({ email: 'paula.reyes@example.com' });
    key = newKey();
    const response = await send(client.cookie, signedBody, key);
    expect(response.statusCode, response.body).toBe(200);
    first = response.json();
  });

  it('answers the physician variant confirmation', () => {
    expect(first).toMatchObject({
      success: true,
      page_name: 'client-consent',
      message: 'Please check your email for order confirmation',
    });
  });

  it("saves the client's details and the Enrollment Date on the client's record, and sets the consent flag", async () => {
    const state = await stateOf(client.id);
    expect(state.client).toMatchObject({
      firstName: 'Paula',
      lastName: 'Reyes',
      dateOfBirth: '1979-03-14',
      email: 'paula.reyes@example.com',
      phone: '3055550142',
      street: '1450 Brickell Avenue',
      city: 'Miami',
      state: 'FL',
      zip: '33131',
      country: 'United States',
      enrollmentDate: '2025-05-02',
      clientConsentFormCompleted: true,
      clientActId: client.actId,
    });
    expect(state.submissions).toMatchObject([
      { status: 'completed', physicianId: mariaId, userAgent: 'ClinicTablet/1.0' },
    ]);
  });

  it('signs a PDF whose certificate says the client signed in the presence of Dr. Alvarez', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/pay/documents/${first.documentId}`,
      headers: { cookie: client.cookie },
    });
    expect(response.statusCode).toBe(200);
    const doc = await PDFDocument.load(response.rawPayload);
    const certificate = pageText(doc, doc.getPageCount() - 1);
    expect(certificate).toContain('Certificate of signature');
    expect(certificate).toContain(`Paula Reyes (Client ID ${client.actId})`);
    expect(certificate).toContain('Signed in the presence of');
    expect(certificate).toContain('Maria Alvarez (Physician ID PHY20001)');
    const all = Array.from({ length: doc.getPageCount() }, (_, i) => pageText(doc, i)).join('\n');
    expect(all).toContain('Enrollment Date');
    expect(all).toContain('05/02/2025');
  });

  itLooks(
    'draws the certificate page so that a person reads the signer, the physician and the date',
    async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/pay/documents/${first.documentId}`,
        headers: { cookie: client.cookie },
      });
      const doc = await PDFDocument.load(response.rawPayload);
      const signedAt = valueAfter(pageText(doc, doc.getPageCount() - 1), 'Signed at (UTC)');
      expect(signedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const seen = await readPdf(response.rawPayload, { pages: [-1], languages: ['eng'] });
      expectSeen(seen, [
        `Paula Reyes (Client ID ${client.actId})`,
        'Signed in the presence of Maria Alvarez (Physician ID PHY20001)',
        `Signed at (UTC) ${signedAt.slice(0, 10)}`,
      ]);
    },
  );

  it('e-mails the signed PDF to the client at the address now on record, and tells the physician', async () => {
    const toClient = await t.mailTo('paula.reyes@example.com');
    expect(toClient.map((m) => m.subject)).toContain('Client Portal: your signed consent agreement');
    const signed = toClient.find((m) => /signed consent/.test(m.subject));
    expect(signed?.textBody).toContain('in the presence of your physician, Maria Alvarez');
    expect(signed?.textBody).toMatch(
      /\[Attachment: signed-consent-agreement\.pdf, application\/pdf, \d+ bytes\]/,
    );
    const toPhysician = (await t.mailTo('maria.alvarez@example.com')).filter((m) =>
      m.subject.includes(client.actId),
    );
    expect(toPhysician).toHaveLength(1);
    expect(toPhysician[0]?.subject).toBe(`Physician Portal: consent signed by Paula Reyes (${client.actId})`);
    expect(toPhysician[0]?.textBody).not.toContain('[Attachment');
    // The address did not change: nothing announces a change.
    expect(toClient.map((m) => m.subject)).not.toContain('Client Portal: your e-mail address was changed');
  });

  it('answers a replay of the same Idempotency-Key with the first answer, and stores nothing more', async () => {
    const before = await stateOf(client.id);
    const again = await send(client.cookie, signedBody, key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first);
    const after = await stateOf(client.id);
    expect(after.docs).toHaveLength(before.docs.length);
    expect(await t.mailTo('paula.reyes@example.com')).toHaveLength(1);
  });

  it('refuses another submission (409) and changes nothing', async () => {
    const again = await send(client.cookie, consentBody({ FirstName: 'Other' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('You have already completed this form. Thank you.');
    const [row] = await t.db.select().from(clients).where(eq(clients.id, client.id));
    expect(row?.firstName).toBe('Paula');
  });

  it('lists the consent as signed with its PDF for the physician', async () => {
    const response = await readConsent(client.cookie);
    expect(response.json()).toMatchObject({ completed: true, documentId: first.documentId });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_PhysicianClients',
      headers: { cookie: client.cookie },
    });
    const listed = list.json().clients.find((c: { id: string }) => c.id === client.id);
    expect(listed).toMatchObject({ consentSigned: true, name: 'Paula Reyes' });
  });
});
