import { createDecipheriv } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSENT_AGREEMENT_VERSION,
  consentAgreementOf,
  consentAgreementText,
} from '../../../domain/consent-agreement';
import { consentMessages } from '../../../domain/consent-form';
import { formPaymentMessages } from '../../../domain/form-payment';
import { PAYMENT_SOURCES } from '../../../domain/payment-info';
import { paymentMessages } from '../../../domain/payments';
import { SHIPPED_PRICE_BOOK } from '../../../domain/price-book';
import {
  clients,
  documents,
  formSubmissions,
  outboxMessages,
  paymentMethods,
  payments,
} from '../../db/schema';
import {
  addClient,
  expiryInDays,
  imagesOf,
  newCardFields,
  newCardKeptOnFile,
  pageText,
  pngDataUrl,
  saveBankOnFile,
  sha256,
  signaturePng,
  tokenizeCard,
} from '../../testing/form-fixtures';
import { expectSeen, itLooks, readPdf, valueAfter } from '../../testing/pdf-ocr';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * POST /api/pay/send_ConsentData (spec 2, sections 2 to 5; DESIGN.md sections 5 and 7): the
 * server's own checks, who may sign, the signed record and PDF, and that a consent is signed once.
 * Jane (ACT10001) signs in the main case; cases that need a consent not yet signed use clients
 * added here.
 */

const KEY = Buffer.alloc(32, 11).toString('base64');
const SIGNATURE = signaturePng();

let t: TestApp;
let jane: string;
let janeId: string;
let john: string;
let johnId: string;
let keySeq = 0;

beforeAll(async () => {
  t = await startTestApp({ DOCUMENTS_KEY: KEY, RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
  jane = await t.signIn('ACT10001');
  john = await t.signIn('ACT10002');
  const rows = await t.db.select({ id: clients.id, actId: clients.clientActId }).from(clients);
  janeId = rows.find((r) => r.actId === 'ACT10001')?.id as string;
  johnId = rows.find((r) => r.actId === 'ACT10002')?.id as string;
});
afterAll(() => t.close());

function newKey() {
  keySeq += 1;
  return `consent-key-${keySeq}-${Date.now()}`;
}

function consentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Medications: 'No',
    Tissue_deliver: 'Destroy any Tissue',
    sample_type: 'Adipose',
    PaymentMethod: 'Check',
    agree: true,
    Signature: pngDataUrl(SIGNATURE),
    agreementVersion: CONSENT_AGREEMENT_VERSION,
    ...overrides,
  };
}

function without(body: Record<string, unknown>, ...fields: string[]) {
  const copy = { ...body };
  for (const field of fields) delete copy[field];
  return copy;
}

function send(
  cookie: string,
  body: Record<string, unknown>,
  key: string | null = newKey(),
  extra: { headers?: Record<string, string>; remoteAddress?: string } = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/send_ConsentData',
    headers: { cookie, ...(key ? { 'idempotency-key': key } : {}), ...extra.headers },
    payload: body,
    ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
  });
}

function decrypt(row: typeof documents.$inferSelect): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(KEY, 'base64'), row.iv);
  decipher.setAuthTag(row.authTag);
  return Buffer.concat([decipher.update(row.ciphertext), decipher.final()]);
}

/** What a consent submission can leave behind for a client. */
async function stateOf(clientId: string) {
  const [client] = await t.db
    .select({ consent: clients.clientConsentFormCompleted })
    .from(clients)
    .where(eq(clients.id, clientId));
  const submissions = await t.db
    .select()
    .from(formSubmissions)
    .where(and(eq(formSubmissions.clientId, clientId), eq(formSubmissions.form, 'consent')));
  const docs = await t.db.select().from(documents).where(eq(documents.clientId, clientId));
  const ledger = await t.db.select().from(payments).where(eq(payments.clientId, clientId));
  const methods = await t.db.select().from(paymentMethods).where(eq(paymentMethods.clientId, clientId));
  return { consent: client?.consent, submissions, docs, ledger, methods };
}

async function expectNothingSigned(clientId: string) {
  const state = await stateOf(clientId);
  expect(state.consent).toBe(false);
  expect(state.submissions).toEqual([]);
  expect(state.docs).toEqual([]);
}

async function newSignedInClient() {
  const client = await addClient(t.db);
  return { ...client, cookie: await t.signIn(client.actId) };
}

describe('a consent without a confirmed signature', () => {
  const jpeg = Buffer.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0,
    16,
    0x4a,
    0x46,
    0x49,
    0x46,
    0,
    1,
    ...Buffer.alloc(60),
  ]);
  const undecodable = Buffer.concat([SIGNATURE.subarray(0, 33), Buffer.from('not a zlib stream at all')]);
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['not a data URL', 'signature'],
    ['a JPEG data URL', `data:image/jpeg;base64,${jpeg.toString('base64')}`],
    ['a PNG data URL of JPEG bytes', `data:image/png;base64,${jpeg.toString('base64')}`],
    ['a PNG data URL of text', `data:image/png;base64,${Buffer.from('hello').toString('base64')}`],
    ['a PNG too small to be the pad', pngDataUrl(signaturePng(10, 5))],
    ['a PNG whose image data cannot be read', pngDataUrl(undecodable)],
  ])('is refused when the signature is %s, and nothing is stored', async (_case, signature) => {
    const body =
      signature === undefined ? without(consentBody(), 'Signature') : consentBody({ Signature: signature });
    const response = await send(jane, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().code).toBe('VALIDATION');
    expect(response.json().fields.Signature).toBe('Please sign and click on Accept.');
    await expectNothingSigned(janeId);
  });
});

describe('the page 1 and page 2 rules, checked again on the server', () => {
  const individual = {
    Tissue_deliver: 'Release any Tissue to the following individual',
    Addendum_name: 'Mary Doe',
    Addendum_dob: '04/12/1980',
    Addendum_address: '12 Ocean Drive, Miami, FL 33139',
    Addendum_phone: '3055550123',
    Relationship: 'Sister',
  };
  it.each<[string, Record<string, unknown>, string[], Record<string, string>]>([
    ['Medications missing', {}, ['Medications'], { Medications: 'Please Select One' }],
    ['Medications not yes or no', { Medications: 'Maybe' }, [], { Medications: 'Please Select One' }],
    ['Tissue_deliver missing', {}, ['Tissue_deliver'], { Tissue_deliver: 'Please Select One' }],
    ['Tissue_deliver unknown', { Tissue_deliver: 'Keep it' }, [], { Tissue_deliver: 'Please Select One' }],
    [
      'the individual option without its fields',
      { Tissue_deliver: individual.Tissue_deliver },
      [],
      {
        Addendum_name: 'Cannot be empty',
        Addendum_dob: 'Cannot be empty',
        Addendum_address: 'Cannot be empty',
        Addendum_phone: 'Cannot be empty',
        Relationship: 'Cannot be empty',
      },
    ],
    [
      'the individual option with blank fields',
      { ...individual, Addendum_name: '  ', Relationship: ' ' },
      [],
      { Addendum_name: 'Cannot be empty', Relationship: 'Cannot be empty' },
    ],
    [
      'letters in Addendum_phone',
      { ...individual, Addendum_phone: '305555O123' },
      [],
      { Addendum_phone: 'Please insert only number' },
    ],
    [
      'a short Addendum_phone (dashes are taken, the length is checked)',
      { ...individual, Addendum_phone: '305-555-012' },
      [],
      { Addendum_phone: 'Please enter a 10-digit phone number' },
    ],
    [
      'Addendum_dob 02/30/1990',
      { ...individual, Addendum_dob: '02/30/1990' },
      [],
      { Addendum_dob: 'Invalid date' },
    ],
    [
      'Addendum_dob in 2050',
      { ...individual, Addendum_dob: '01/01/2050' },
      [],
      { Addendum_dob: 'Invalid date' },
    ],
    [
      'Addendum_dob not MM/DD/YYYY',
      { ...individual, Addendum_dob: '1990-01-01' },
      [],
      { Addendum_dob: 'Invalid date' },
    ],
    [
      'Medications Yes without Medications_taking',
      { Medications: 'Yes' },
      [],
      { Medications_taking: 'Cannot be empty' },
    ],
    [
      'Medications Yes with a blank Medications_taking',
      { Medications: 'Yes', Medications_taking: '   ' },
      [],
      { Medications_taking: 'Cannot be empty' },
    ],
    ['agree missing', {}, ['agree'], { agree: 'Please Check' }],
    ['agree false', { agree: false }, [], { agree: 'Please Check' }],
    ['sample_type missing', {}, ['sample_type'], { sample_type: 'Please Select One' }],
    ['sample_type unknown', { sample_type: 'Blood' }, [], { sample_type: 'Please Select One' }],
  ])('refuses %s with the spec message, and stores nothing', async (_case, overrides, removed, fields) => {
    const response = await send(jane, without(consentBody(overrides), ...removed));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().code).toBe('VALIDATION');
    expect(response.json().fields).toMatchObject(fields);
    expect(Object.values(fields)).toContain(response.json().error);
    await expectNothingSigned(janeId);
  });

  it.each([
    ['missing', null],
    ['too short', 'short'],
    ['with characters outside the alphabet', 'consent key with spaces'],
  ])('needs an Idempotency-Key header (refused when %s)', async (_case, key) => {
    const response = await send(jane, consentBody(), key);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/Idempotency-Key/);
    await expectNothingSigned(janeId);
  });
});

describe('one answer lists every problem', () => {
  it('reports the page 1 rules beside a failed field of page 2, and a wrongly typed field is a 400', async () => {
    const [jane] = await t.db
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.clientActId, 'ACT10001'));
    const cookie = await t.signIn('ACT10001');
    const response = await send(
      cookie,
      consentBody({
        agree: false,
        Tissue_deliver: 'Release any Tissue to the following individual',
        Addendum_phone: 3055550123,
        Addendum_name: '',
      }),
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fields).toMatchObject({
      agree: 'Please Check',
      Addendum_name: 'Cannot be empty',
      Addendum_dob: 'Cannot be empty',
      Relationship: 'Cannot be empty',
    });
    expect(response.json().fields.Addendum_phone).toBeDefined();
    await expectNothingSigned(jane?.id as string);
  });
});

describe('who may sign', () => {
  it("answers another client's id with the same 404 as an unknown id, and stores nothing", async () => {
    const answers = await Promise.all(
      [johnId, 'ACT10002', 'act10002', 'ACT99999', '00000000-0000-4000-8000-000000000000'].map((id) =>
        send(jane, consentBody({ ClientSFRecordId: id })),
      ),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
    }
    await expectNothingSigned(janeId);
    const johnSubmissions = await t.db
      .select()
      .from(formSubmissions)
      .where(eq(formSubmissions.clientId, johnId));
    expect(johnSubmissions).toEqual([]);
  });

  it('answers a physician session 404 here, with or without a client id (the physician portal is apart)', async () => {
    const physician = await t.signInPhysician();
    for (const id of [undefined, janeId, 'ACT10001']) {
      const response = await send(physician, consentBody(id ? { ClientSFRecordId: id } : {}));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
    }
    const documentsList = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_FormDocuments',
      headers: { cookie: physician },
    });
    expect(documentsList.statusCode).toBe(404);
    await expectNothingSigned(janeId);
  });

  it('answers a physician 404 before reading the body: unreadable JSON, a card number or a bad field', async () => {
    const physician = await t.signInPhysician();
    const bodies = [
      { payload: '{"Medications": ', headers: { 'content-type': 'application/json' } },
      { payload: consentBody({ Medications_taking: '4111 1111 1111 1111' }), headers: {} },
      { payload: consentBody({ Medications: 42 }), headers: {} },
      { payload: {}, headers: {} },
    ];
    for (const { payload, headers } of bodies) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/pay/send_ConsentData',
        headers: { cookie: physician, 'idempotency-key': newKey(), ...headers },
        payload,
      });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/api/pay/send_ConsentData',
        headers: { 'idempotency-key': newKey(), ...headers },
        payload,
      });
      expect(anonymous.statusCode, anonymous.body).toBe(401);
    }
  });

  it('needs a session', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pay/send_ConsentData',
      headers: { 'idempotency-key': newKey() },
      payload: consentBody(),
    });
    expect(response.statusCode).toBe(401);
    await expectNothingSigned(janeId);
  });

  it('accepts the client naming itself by Client ID', async () => {
    const client = await newSignedInClient();
    const response = await send(client.cookie, consentBody({ ClientSFRecordId: client.actId }));
    expect(response.statusCode, response.body).toBe(200);
    expect((await stateOf(client.id)).consent).toBe(true);
  });
});

describe('what must come before the signature', () => {
  it('refuses a client whose initial processing is not paid (409), and stores nothing', async () => {
    await t.db.update(clients).set({ initialProcessingFormCompleted: false }).where(eq(clients.id, janeId));
    try {
      const response = await send(jane, consentBody());
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        error: 'Please complete Initial Processing payment to proceed with consent form.',
        code: 'INITIAL_PROCESSING_REQUIRED',
      });
      await expectNothingSigned(janeId);
    } finally {
      await t.db.update(clients).set({ initialProcessingFormCompleted: true }).where(eq(clients.id, janeId));
    }
  });

  it('refuses a signature on another version of the agreement (409), and stores nothing', async () => {
    for (const version of ['2020-01-01', '', `${CONSENT_AGREEMENT_VERSION} `]) {
      const response = await send(jane, consentBody({ agreementVersion: version }));
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ error: consentMessages.agreementChanged, code: 'AGREEMENT_CHANGED' });
    }
    const missing = await send(jane, without(consentBody(), 'agreementVersion'));
    expect(missing.statusCode).toBe(400);
    await expectNothingSigned(janeId);
  });

  it('refuses a client whose consent was completed before (on paper), and keeps no claim', async () => {
    const response = await send(john, consentBody());
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'You have already completed this form. Thank you.',
      code: 'ALREADY_COMPLETED',
    });
    expect(await t.db.select().from(formSubmissions).where(eq(formSubmissions.clientId, johnId))).toEqual([]);
  });
});

describe('the payment method for annual storage', () => {
  it('refuses ACH when no account is on file and none is given', async () => {
    const response = await send(jane, consentBody({ PaymentMethod: 'ACH Payment', update_ach: false }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(
      'Please store your ACH Details in the update payment information tab to use ACH Payment Method.',
    );
    expect(response.json().fields.PaymentMethod).toBe(formPaymentMessages.noAchStored);
    await expectNothingSigned(janeId);
  });

  it('refuses a card when none is on file and none is given', async () => {
    const response = await send(jane, consentBody({ PaymentMethod: 'Credit Card', update_card: false }));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.update_card).toBe(formPaymentMessages.noCardStored);
    await expectNothingSigned(janeId);
  });

  it('refuses a new card without its token or display fields', async () => {
    const response = await send(jane, consentBody({ PaymentMethod: 'Credit Card', update_card: true }));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      Credit_Card_Number: formPaymentMessages.tokenMissing,
      Credit_Card_Holder_First_Name: 'Please enter first name',
      Credit_Card_Holder_Last_Name: 'Please enter last name',
      Month_of_Expiry: 'Cannot be empty',
      Year_of_Expiry: 'Cannot be empty',
    });
    await expectNothingSigned(janeId);
  });

  it.each(['Credit_Card_Number', 'CVV', 'Account_Number', 'credit_card_number__c'])(
    'refuses a body carrying %s before reading anything else',
    async (field) => {
      const response = await send(
        jane,
        consentBody({ PaymentMethod: 'Credit Card', update_card: true, [field]: '4242424242424242' }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('FORBIDDEN_FIELD');
      expect(response.body).not.toContain('4242424242424242');
      await expectNothingSigned(janeId);
    },
  );

  it('keeps a new card on file when asked, and charges nothing today', async () => {
    const client = await newSignedInClient();
    const token = await tokenizeCard(t, '4242424242424242');
    const response = await send(
      client.cookie,
      consentBody({
        PaymentMethod: 'Credit Card',
        update_card: true,
        save_card: true,
        ...newCardFields(t, token, { first: 'Test', last: 'Holder' }),
      }),
    );
    expect(response.statusCode, response.body).toBe(200);

    const info = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_PaymentInfo',
      headers: { cookie: client.cookie },
    });
    expect(info.json().result).toMatchObject({
      Credit_Card_Number: '************4242',
      Credit_Card_Type: 'Visa',
      Credit_Card_Holder_First_Name: 'Test',
      Credit_Card_Holder_Last_Name: 'Holder',
      Month_of_Expiry: '12',
    });
    const state = await stateOf(client.id);
    expect(state.consent).toBe(true);
    expect(state.methods).toHaveLength(1);
    expect(state.methods[0]).toMatchObject({ kind: 'card', last4: '4242', billingZip: '33131' });
    // The ledger records the saving, and nothing was charged.
    expect(state.ledger.filter((p) => p.status === 'approved' || p.totalCents > 0)).toEqual([]);
    expect(state.ledger).toHaveLength(1);
    expect(state.ledger[0]).toMatchObject({
      status: 'saved',
      totalCents: 0,
      source: PAYMENT_SOURCES.consentForm,
      gatewayTransactionId: null,
    });
    // Neither the token nor anything like a card number is kept with the answers.
    const answers = state.docs.find((d) => d.kind === 'form_answers');
    const kept = decrypt(answers as typeof documents.$inferSelect).toString('utf8');
    expect(kept).not.toContain(token.value);
    expect(JSON.parse(kept)).toMatchObject({ PaymentMethod: 'Credit Card', save_card: true });

    const [mail] = (await t.mailTo(client.email)).filter((m) => /signed consent/.test(m.subject));
    expect(mail?.textBody).toContain('Visa ending in 4242');
    expect(mail?.textBody).toContain('Nothing was charged today.');
  });

  it('keeps a new bank account on file when asked, and charges nothing', async () => {
    const client = await newSignedInClient();
    const bank = await t.app.inject({
      method: 'POST',
      url: '/sandbox-gateway/v1/tokens',
      payload: { bank: { routingNumber: '110000000', accountNumber: '000123456789', nameOnAccount: 'Test' } },
    });
    const response = await send(
      client.cookie,
      consentBody({
        PaymentMethod: 'ACH Payment',
        update_ach: true,
        save_ach: true,
        token: bank.json().token,
        Name_On_Account: 'Test Client',
        ABA_Routing_Number: '110000000',
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const state = await stateOf(client.id);
    expect(state.methods).toEqual([expect.objectContaining({ kind: 'ach', last4: '6789' })]);
    expect(state.ledger.every((p) => p.totalCents === 0 && p.status === 'saved')).toBe(true);
  });

  it('refuses a new card not kept when nothing on file could pay the annual fee; with an account on file, says it pays', async () => {
    const client = await newSignedInClient();
    const notKept = async (number: string) =>
      send(
        client.cookie,
        consentBody({
          PaymentMethod: 'Credit Card',
          update_card: true,
          save_card: false,
          ...newCardFields(t, await tokenizeCard(t, number)),
        }),
      );
    const refused = await notKept('4242424242424242');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.save_card).toBe(consentMessages.annualFeeNeedsCardOnFile);
    await expectNothingSigned(client.id);
    expect((await stateOf(client.id)).methods).toEqual([]);

    await saveBankOnFile(t, client.cookie, `annual-fee-bank-${client.id}`);
    const signed = await notKept('5555555555554444');
    expect(signed.statusCode, signed.body).toBe(200);
    const state = await stateOf(client.id);
    expect(state.consent).toBe(true);
    // The new card was not kept: the account alone stays on file, and the documents say it pays.
    expect(state.methods.map((m) => m.kind)).toEqual(['ach']);
    const [mail] = (await t.mailTo(client.email)).filter((m) => /signed consent/.test(m.subject));
    expect(mail?.textBody).toMatch(
      /the annual storage fee will be charged to your bank account ending in \d{4} on file/,
    );
  });

  it('refuses a new card kept on file for annual banking with a year or less before it expires, as the payment page does', async () => {
    const client = await newSignedInClient();
    const response = await send(
      client.cookie,
      consentBody({ PaymentMethod: 'Credit Card', ...(await newCardKeptOnFile(t, expiryInDays(t, 200))) }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.Year_of_Expiry).toBe(paymentMessages.oneYearRemaining);
    await expectNothingSigned(client.id);
    const state = await stateOf(client.id);
    expect(state.methods).toEqual([]);
    expect(state.ledger).toEqual([]);
  });

  it('refuses a declined card (402) and signs nothing; a good card then signs', async () => {
    const client = await newSignedInClient();
    const declined = await tokenizeCard(t, '4000000000009995');
    const first = await send(
      client.cookie,
      consentBody({
        PaymentMethod: 'Credit Card',
        update_card: true,
        save_card: true,
        ...newCardFields(t, declined),
      }),
    );
    expect(first.statusCode).toBe(402);
    expect(first.json().code).toBe('PAYMENT_DECLINED');
    await expectNothingSigned(client.id);
    expect((await stateOf(client.id)).methods).toEqual([]);

    const good = await tokenizeCard(t, '4111111111111111');
    const second = await send(
      client.cookie,
      consentBody({
        PaymentMethod: 'Credit Card',
        update_card: true,
        save_card: true,
        ...newCardFields(t, good),
      }),
    );
    expect(second.statusCode, second.body).toBe(200);
    const state = await stateOf(client.id);
    expect(state.consent).toBe(true);
    expect(state.methods).toEqual([expect.objectContaining({ kind: 'card', last4: '1111' })]);
  });
});

/** Addendum A in the words page 1 shows (spec 2, section 2: the three choices, 120 days after death). */
const ADDENDUM_A_WORDS = [
  'Addendum A: In the event of my death',
  'Please choose what the bank is to do with your stored tissue and cells in the event of your death. Tissue is retained 120 days after death before destruction.',
  'Destroy any Tissue: The bank destroys all my stored tissue and cells 120 days after death.',
  'Release any Tissue to the following individual: The bank releases my stored tissue and cells to the person I name below.',
  'Release any Tissue to Bank of Letters Testamentary: The bank releases my stored tissue and cells to the executor of my estate on presentation of Letters Testamentary.',
];

describe('signing the consent (Jane)', () => {
  const ip = '203.0.113.9';
  const userAgent = 'ConsentTest/1.0 (vitest; signer)';
  const key = `jane-consent-${Date.now()}`;
  const body = consentBody({
    Medications: 'Yes',
    Medications_taking: 'Atorvastatin 10 mg daily',
    Tissue_deliver: 'Release any Tissue to the following individual',
    Addendum_name: 'Mary Doe',
    Addendum_dob: '04/12/1980',
    Addendum_address: '12 Ocean Drive, Miami, FL 33139',
    Addendum_phone: '3055550123',
    Relationship: 'Sister',
    sample_type: 'Bone-Marrow',
    ClientSFRecordId: 'ACT10001',
  });
  let first: { TransactionId: string; documentId: string };
  let pdf: Buffer;

  it('signs: the flag, the record of the signing and the encrypted signature', async () => {
    const response = await send(jane, body, key, { headers: { 'user-agent': userAgent }, remoteAddress: ip });
    expect(response.statusCode, response.body).toBe(200);
    first = response.json();
    expect(response.json()).toEqual({
      success: true,
      TransactionId: expect.any(String),
      page_name: 'Consent-form',
      message:
        'Please check your email for order confirmation. We are now getting the portal services ready for you!',
      documentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });

    const state = await stateOf(janeId);
    expect(state.consent).toBe(true);
    expect(state.submissions).toHaveLength(1);
    const row = state.submissions[0] as typeof formSubmissions.$inferSelect;
    expect(row).toMatchObject({
      id: first.TransactionId,
      status: 'completed',
      idempotencyKey: key,
      agreementVersion: CONSENT_AGREEMENT_VERSION,
      agreementSha256: sha256(consentAgreementText(consentAgreementOf(SHIPPED_PRICE_BOOK))),
      signerIp: ip,
      userAgent,
      pdfDocumentId: first.documentId,
      paymentId: null,
    });
    expect(row.completedAt?.getTime()).toBe(t.clock.now().getTime());

    const signature = state.docs.find((d) => d.id === row.signatureDocumentId);
    expect(signature).toMatchObject({
      kind: 'signature',
      contentType: 'image/png',
      sizeBytes: SIGNATURE.length,
    });
    const stored = signature as typeof documents.$inferSelect;
    expect(stored.sha256).toBe(sha256(SIGNATURE));
    expect(decrypt(stored).equals(SIGNATURE)).toBe(true);
    expect(stored.ciphertext.equals(SIGNATURE)).toBe(false);
    expect(stored.ciphertext.includes(Buffer.from('IHDR'))).toBe(false);

    expect(state.docs.map((d) => d.kind).sort()).toEqual(['form_answers', 'signature', 'signed_agreement']);
    const answers = JSON.parse(
      decrypt(
        state.docs.find((d) => d.id === row.answersDocumentId) as typeof documents.$inferSelect,
      ).toString(),
    );
    expect(answers).toMatchObject({ Medications_taking: 'Atorvastatin 10 mg daily', Relationship: 'Sister' });
    expect(answers).not.toHaveProperty('Signature');
    expect(state.ledger).toEqual([]);
  });

  it('gives back the signed PDF: agreement, answers, signature image and a certificate page', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/pay/documents/${first.documentId}`,
      headers: { cookie: jane },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    pdf = response.rawPayload;
    expect(response.headers['x-content-sha256']).toBe(sha256(pdf));
    const [row] = await t.db.select().from(documents).where(eq(documents.id, first.documentId));
    expect(row).toMatchObject({ kind: 'signed_agreement', sha256: sha256(pdf), clientId: janeId });
    expect(row?.ciphertext.includes(Buffer.from('%PDF'))).toBe(false);

    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(2);
    expect(imagesOf(doc)).toContainEqual({ width: 500, height: 100 });

    const last = pageText(doc, doc.getPageCount() - 1);
    expect(last).toContain('Certificate of signature');
    expect(last).toContain('Jane Doe (Client ID ACT10001)');
    expect(last).toContain(ip);
    expect(last).toContain(userAgent);
    expect(last).toContain(sha256(consentAgreementText(consentAgreementOf(SHIPPED_PRICE_BOOK))));
    expect(last).toContain(sha256(SIGNATURE));
    expect(last).toContain(first.TransactionId);

    const all = Array.from({ length: doc.getPageCount() }, (_, i) => pageText(doc, i)).join('\n');
    expect(all).toContain('Release any Tissue to the following individual');
    expect(all).toContain('Mary Doe');
    expect(all).toContain('Atorvastatin 10 mg daily');
    expect(all).toContain('Bone-Marrow');
    expect(all).toContain('Maria Alvarez (PHY20001)');

    // Addendum A as page 1 shows it is in the signed PDF and in the text whose SHA-256 is recorded.
    const signedText = consentAgreementText(consentAgreementOf(SHIPPED_PRICE_BOOK));
    const flowing = all.replace(/\s+/g, ' ');
    for (const words of ADDENDUM_A_WORDS) {
      expect(flowing).toContain(words);
      expect(signedText).toContain(words);
    }
    expect(signedText).not.toMatch(/learns of my death|at their request and cost/);
  });

  itLooks('draws Addendum A in the signed PDF so that a person reads it', async () => {
    const doc = await PDFDocument.load(pdf);
    const pages = Array.from({ length: doc.getPageCount() }, (_, i) => i)
      .filter((i) => pageText(doc, i).includes('Addendum A: In the event of my death'))
      .map((i) => i + 1);
    const seen = await readPdf(pdf, { pages, languages: ['eng'] });
    expectSeen(seen, [
      'Tissue is retained 120 days after death before destruction.',
      'Destroy any Tissue: The bank destroys all my stored tissue and cells 120 days after death.',
      'Release any Tissue to Bank of Letters Testamentary',
    ]);
  });

  itLooks(
    'draws the signed PDF so that a person reads the signer and the date on its certificate page',
    async () => {
      const doc = await PDFDocument.load(pdf);
      const signedAt = valueAfter(pageText(doc, doc.getPageCount() - 1), 'Signed at (UTC)');
      expect(signedAt).toBe(t.clock.now().toISOString());
      const seen = await readPdf(pdf, { pages: [-1], languages: ['eng'] });
      expectSeen(seen, [
        'Certificate of signature',
        'Jane Doe (Client ID ACT10001)',
        `Signed at (UTC) ${signedAt.slice(0, 10)}`,
      ]);
    },
  );

  it('e-mails the signed PDF to the client', async () => {
    const mails = (await t.mailTo('jane.doe@example.com')).filter((m) => /signed consent/i.test(m.subject));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Client Portal: your signed consent agreement');
    expect(mails[0]?.textBody).toContain(
      `[Attachment: signed-consent-agreement.pdf, application/pdf, ${pdf.length} bytes]`,
    );
    // The submission's short number, not its id: FS and the id's first eight characters.
    expect(mails[0]?.textBody).toContain(`Reference FS-${first.TransactionId.slice(0, 8).toUpperCase()}.`);
    expect(mails[0]?.textBody).not.toContain(first.TransactionId);
  });

  it('lists the signed agreement among the form documents', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_FormDocuments',
      headers: { cookie: jane },
    });
    expect(response.json()).toMatchObject({
      initialProcessingFormCompleted: true,
      consent: { completed: true, signedAt: t.clock.now().toISOString(), documentId: first.documentId },
      infectiousDisease: { completed: false, documentId: null },
    });
    const [other] = await Promise.all([
      t.app.inject({
        method: 'GET',
        url: `/api/pay/documents/${first.documentId}`,
        headers: { cookie: john },
      }),
    ]);
    expect(other?.statusCode).toBe(404);
  });

  it('refuses a second submission with a new key (409) and changes nothing', async () => {
    const before = await stateOf(janeId);
    const mailsBefore = (await t.mailTo('jane.doe@example.com')).length;
    t.clock.advance(60_000);
    const again = await send(jane, consentBody({ sample_type: 'Adipose' }), newKey(), {
      headers: { 'user-agent': 'Someone else' },
      remoteAddress: '198.51.100.1',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'You have already completed this form. Thank you.',
      code: 'ALREADY_COMPLETED',
    });
    const after = await stateOf(janeId);
    expect(after.submissions).toEqual(before.submissions);
    expect(after.docs.map((d) => d.id).sort()).toEqual(before.docs.map((d) => d.id).sort());
    expect((await t.mailTo('jane.doe@example.com')).length).toBe(mailsBefore);
  });

  it('answers the same submission again with the same answer, and stores nothing more', async () => {
    const before = await stateOf(janeId);
    const replay = await send(jane, body, key, { headers: { 'user-agent': userAgent }, remoteAddress: ip });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first);
    const after = await stateOf(janeId);
    expect(after.submissions).toEqual(before.submissions);
    expect(after.docs).toHaveLength(before.docs.length);
  });

  it('refuses the same key with different answers (422) and changes nothing', async () => {
    const before = await stateOf(janeId);
    const changed = await send(jane, { ...body, sample_type: 'Adipose' }, key);
    expect(changed.statusCode).toBe(422);
    expect(changed.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const after = await stateOf(janeId);
    expect(after.submissions).toEqual(before.submissions);
    expect(after.docs).toHaveLength(before.docs.length);
  });
});

describe('a name outside Latin-1 in the signed PDF', () => {
  let pdf: Buffer;
  let actId: string;

  it('prints Nguyễn Thị Minh and the answers as typed in the stored and the e-mailed PDF', async () => {
    const client = await addClient(t.db, { firstName: 'Nguyễn', lastName: 'Thị Minh' });
    const cookie = await t.signIn(client.actId);
    const response = await send(
      cookie,
      consentBody({
        Tissue_deliver: 'Release any Tissue to the following individual',
        Addendum_name: '王芳',
        Addendum_dob: '04/12/1980',
        Addendum_address: 'ul. Łąkowa 5, Kraków',
        Addendum_phone: '3055550123',
        Relationship: 'Łukasz Wiśniewski’s cousin',
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const { documentId } = response.json() as { documentId: string };

    const [mail] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, client.email));
    const attached = JSON.parse(mail?.attachmentsJson ?? '[]') as { documentId: string }[];
    expect(attached.map((a) => a.documentId)).toContain(documentId);
    const [row] = await t.db.select().from(documents).where(eq(documents.id, documentId));
    pdf = decrypt(row as typeof documents.$inferSelect);
    actId = client.actId;
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/pay/documents/${documentId}`,
      headers: { cookie },
    });
    expect(download.rawPayload.equals(pdf)).toBe(true);

    const doc = await PDFDocument.load(pdf);
    const certificate = pageText(doc, doc.getPageCount() - 1);
    expect(certificate).toContain(`Nguyễn Thị Minh (Client ID ${client.actId})`);
    const lines = Array.from({ length: doc.getPageCount() }, (_, i) => pageText(doc, i))
      .join('\n')
      .split('\n');
    expect(lines).toEqual(
      expect.arrayContaining(['王芳', 'ul. Łąkowa 5, Kraków', 'Łukasz Wiśniewski’s cousin']),
    );
    expect(lines.some((line) => line.startsWith('Nguyễn Thị Minh, '))).toBe(true);
    expect(lines.join('\n')).not.toMatch(/Nguy\?|\?\?/);
  });

  itLooks('draws them so that a person reads Nguyễn Thị Minh, the date and 王芳', async () => {
    const doc = await PDFDocument.load(pdf);
    const last = doc.getPageCount() - 1;
    const signedAt = valueAfter(pageText(doc, last), 'Signed at (UTC)');
    const answersPage = Array.from({ length: last }, (_, i) => i).find((i) =>
      pageText(doc, i).includes('王芳'),
    );
    expect(answersPage).toBeDefined();
    const [certificate, answers] = await Promise.all([
      readPdf(pdf, { pages: [-1], languages: ['vie'] }),
      readPdf(pdf, { pages: [(answersPage as number) + 1], languages: ['chi_sim'] }),
    ]);
    expectSeen(certificate, [
      `Nguyễn Thị Minh (Client ID ${actId})`,
      `Signed at (UTC) ${signedAt.slice(0, 10)}`,
    ]);
    expectSeen(answers, ['Individual: name 王芳']);
  });
});

describe('concurrent submissions', () => {
  it('lets exactly one of five different submissions through', async () => {
    const client = await newSignedInClient();
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => send(client.cookie, consentBody({ Medications_taking: `n${i}` }))),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) {
      expect(['ALREADY_COMPLETED', 'IDEMPOTENCY_CONFLICT']).toContain(refused.json().code);
    }
    const state = await stateOf(client.id);
    expect(state.consent).toBe(true);
    expect(state.submissions).toHaveLength(1);
    expect(state.submissions[0]?.status).toBe('completed');
    expect(state.docs.filter((d) => d.kind === 'signed_agreement')).toHaveLength(1);
    expect(state.docs.filter((d) => d.kind === 'signature')).toHaveLength(1);
    expect((await t.mailTo(client.email)).filter((m) => /signed consent/.test(m.subject))).toHaveLength(1);
  });

  it('answers five copies of one submission alike, and signs once', async () => {
    const client = await newSignedInClient();
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => send(client.cookie, consentBody(), key)),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    const state = await stateOf(client.id);
    expect(state.submissions).toHaveLength(1);
    expect(state.docs.filter((d) => d.kind === 'signed_agreement')).toHaveLength(1);
  });
});

describe('card numbers in headers', () => {
  it('refuses an Idempotency-Key holding a card number (400) and stores nothing', async () => {
    const client = await newSignedInClient();
    for (const key of [
      '4111111111111111',
      'consent-4111-1111-1111-1111',
      'key4111111111111111',
      'rt_4111_1111_1111_1111',
    ]) {
      const response = await send(client.cookie, consentBody(), key);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toBe(
        'The Idempotency-Key header must not contain a card number. Please send a random key.',
      );
    }
    const state = await stateOf(client.id);
    expect(state.submissions).toEqual([]);
    expect(state.consent).toBe(false);
  });

  it('keeps a key with a long number that is no card (a timestamp, a UUID)', async () => {
    const client = await newSignedInClient();
    const response = await send(client.cookie, consentBody(), `consent-${1764150000000}`);
    expect(response.statusCode, response.body).toBe(200);
  });

  it('masks a card number in the User-Agent but its last 4, in the record and on the signed PDF', async () => {
    const client = await newSignedInClient();
    const response = await send(client.cookie, consentBody(), newKey(), {
      headers: { 'user-agent': 'Mozilla/5.0 (card 4111 1111 1111 1111; ref 5555555555554444)' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const masked = 'Mozilla/5.0 (card **** **** **** 1111; ref ************4444)';
    const state = await stateOf(client.id);
    expect(state.submissions[0]?.userAgent).toBe(masked);
    const [row] = await t.db.select().from(documents).where(eq(documents.id, response.json().documentId));
    const doc = await PDFDocument.load(decrypt(row as typeof documents.$inferSelect));
    const certificate = pageText(doc, doc.getPageCount() - 1);
    expect(certificate).toContain(masked);
    expect(certificate).not.toContain('4111');
    expect(certificate).not.toContain('555555');
  });
});
