import { createDecipheriv } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMessages } from '../../../domain/documents';
import { formPaymentMessages } from '../../../domain/form-payment';
import { diseaseMessages, INFECTIOUS_DISEASE_TERMS_VERSION } from '../../../domain/infectious-disease';
import { paymentMessages } from '../../../domain/payments';
import {
  clientActivities,
  clients,
  documents,
  formSubmissions,
  paymentMethods,
  payments,
} from '../../db/schema';
import {
  addClient,
  expiryInDays,
  imagesOf,
  labReportPdf,
  newCardFields,
  newCardKeptOnFile,
  pageText,
  pdfDataUrl,
  pdfLikeOfSize,
  pngDataUrl,
  saveBankOnFile,
  saveCardOnFile,
  sha256,
  signaturePng,
  tokenizeCard,
} from '../../testing/form-fixtures';
import {
  htmlPrefixedPdf,
  pdfWithEmbeddedFile,
  pdfWithLaunchAction,
  pdfWithOpenActionScript,
  zipPrefixedPdf,
} from '../../testing/hostile-pdfs';
import { expectSeen, itLooks, readPdf, valueAfter } from '../../testing/pdf-ocr';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * POST /api/pay/set_DiseaseData (spec 2, sections 2 to 5 and 9; DESIGN.md sections 4, 5 and 7):
 * the three screening routes, the White Glove Labs charge through the payment ledger, the lab
 * report checked by content and stored encrypted, and that a screening is submitted (and charged)
 * once. Jane (ACT10001) uploads a lab report; John (ACT10002) pays with his
 * card on file; the other cases use clients added here.
 */

const KEY = Buffer.alloc(32, 13).toString('base64');
const SIGNATURE = signaturePng();
const WHITE_GLOVE_CARD_TOTAL = 41_097; // $399.00 + 3% ($11.97)
const WHITE_GLOVE_ACH_TOTAL = 39_900;

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
  return `disease-key-${keySeq}-${Date.now()}`;
}

function submit(cookie: string, body: Record<string, unknown>, key: string | null = newKey()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/set_DiseaseData',
    headers: { cookie, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body,
  });
}

function whiteGlove(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    submissionOption: 'White Glove Labs',
    agree: true,
    FirstName: 'Test',
    LastName: 'Client',
    Street: '1200 Brickell Avenue',
    City: 'Miami',
    State: 'FL',
    ZipCode: '33131',
    Country: 'United States',
    PaymentMethod: 'Credit Card',
    Source: 'ACT Client Portal',
    ...overrides,
  };
}

function waiver(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    submissionOption: 'Waiver Submission',
    agree: true,
    WaiverNotice: 'negative',
    Signature: pngDataUrl(SIGNATURE),
    ...overrides,
  };
}

function without(body: Record<string, unknown>, ...fields: string[]) {
  const copy = { ...body };
  for (const field of fields) delete copy[field];
  return copy;
}

function decrypt(row: typeof documents.$inferSelect): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(KEY, 'base64'), row.iv);
  decipher.setAuthTag(row.authTag);
  return Buffer.concat([decipher.update(row.ciphertext), decipher.final()]);
}

async function stateOf(clientId: string) {
  const [client] = await t.db
    .select({ disease: clients.infectiousDiseaseFormCompleted })
    .from(clients)
    .where(eq(clients.id, clientId));
  const submissions = await t.db
    .select()
    .from(formSubmissions)
    .where(and(eq(formSubmissions.clientId, clientId), eq(formSubmissions.form, 'infectious_disease')));
  const docs = await t.db.select().from(documents).where(eq(documents.clientId, clientId));
  const ledger = await t.db.select().from(payments).where(eq(payments.clientId, clientId));
  const whiteGlove = ledger.filter((p) => p.purpose === 'white_glove_lab');
  const activities = await t.db
    .select()
    .from(clientActivities)
    .where(and(eq(clientActivities.clientId, clientId), eq(clientActivities.type, 'White Glove Labs')));
  const methods = await t.db.select().from(paymentMethods).where(eq(paymentMethods.clientId, clientId));
  return {
    disease: client?.disease,
    submissions,
    docs,
    ledger,
    approved: whiteGlove.filter((p) => p.status === 'approved'),
    whiteGlove,
    activities,
    methods,
  };
}

async function expectNothingSubmitted(clientId: string) {
  const state = await stateOf(clientId);
  expect(state.disease).toBe(false);
  expect(state.submissions).toEqual([]);
  expect(state.docs).toEqual([]);
  expect(state.approved).toEqual([]);
  expect(state.activities).toEqual([]);
}

async function newSignedInClient(values: Partial<typeof clients.$inferInsert> = {}) {
  const client = await addClient(t.db, values);
  return { ...client, cookie: await t.signIn(client.actId) };
}

async function clientWithCardOnFile() {
  const client = await newSignedInClient();
  await saveCardOnFile(t, client.cookie, newKey());
  return client;
}

describe('the rules of the form, checked again on the server', () => {
  const undecodable = Buffer.concat([SIGNATURE.subarray(0, 33), Buffer.from('not a zlib stream at all')]);
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['no submission option', without(waiver(), 'submissionOption'), { submissionOption: 'Please Select' }],
    [
      'an unknown submission option',
      waiver({ submissionOption: 'Home Test' }),
      { submissionOption: 'Please Select' },
    ],
    ['agree missing', without(waiver(), 'agree'), { agree: 'Please Check' }],
    ['agree false', waiver({ agree: false }), { agree: 'Please Check' }],
    ['a waiver without its notice', without(waiver(), 'WaiverNotice'), { WaiverNotice: 'Please Select.' }],
    [
      'a waiver with an unknown notice',
      waiver({ WaiverNotice: 'maybe' }),
      { WaiverNotice: 'Please Select.' },
    ],
    [
      'a waiver without a signature',
      without(waiver(), 'Signature'),
      { Signature: 'Please sign and click on "Click to Confirm Signature".' },
    ],
    ['a waiver with an empty signature', waiver({ Signature: '' }), { Signature: diseaseMessages.signature }],
    [
      'a waiver signed with a JPEG',
      waiver({ Signature: 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==' }),
      { Signature: diseaseMessages.signature },
    ],
    [
      'a waiver signed with text called PNG',
      waiver({ Signature: `data:image/png;base64,${Buffer.from('hello').toString('base64')}` }),
      { Signature: diseaseMessages.signature },
    ],
    [
      'a waiver signed with a PNG whose image data cannot be read',
      waiver({ Signature: pngDataUrl(undecodable) }),
      { Signature: diseaseMessages.signature },
    ],
    [
      'White Glove Labs without the shipping address',
      without(whiteGlove(), 'FirstName', 'LastName', 'Street', 'City', 'State', 'ZipCode', 'Country'),
      {
        FirstName: 'Please enter first name',
        LastName: 'Please enter last name',
        Street: 'Please enter street',
        City: 'Please enter City',
        State: 'Please enter State',
        ZipCode: 'Please enter zipcode',
        Country: 'Please enter Country',
      },
    ],
    [
      'White Glove Labs with a blank street and city',
      whiteGlove({ Street: '', City: '' }),
      { Street: 'Please enter street', City: 'Please enter City' },
    ],
    [
      'White Glove Labs without a payment method',
      without(whiteGlove(), 'PaymentMethod'),
      { PaymentMethod: 'Please Select' },
    ],
    [
      'White Glove Labs paid by check',
      whiteGlove({ PaymentMethod: 'Check' }),
      { PaymentMethod: 'Please Select' },
    ],
    [
      'White Glove Labs by card with none on file and none given',
      whiteGlove({ PaymentMethod: 'Credit Card', update_card: false }),
      { update_card: formPaymentMessages.noCardStored },
    ],
    [
      'White Glove Labs by ACH with none on file and none given',
      whiteGlove({ PaymentMethod: 'ACH Payment', expectedTotalCents: WHITE_GLOVE_ACH_TOTAL }),
      { PaymentMethod: formPaymentMessages.noAchStored },
    ],
    [
      'White Glove Labs with a new card but no token',
      whiteGlove({ update_card: true, Credit_Card_Type: 'Visa' }),
      {
        Credit_Card_Number: formPaymentMessages.tokenMissing,
        Credit_Card_Holder_First_Name: 'Please enter first name',
        Month_of_Expiry: 'Cannot be empty',
      },
    ],
    [
      'a lab report that is text renamed .pdf',
      {
        submissionOption: 'Local Lab Submission',
        agree: true,
        lab_report_file: `data:application/pdf;base64,${Buffer.from('hello').toString('base64')}`,
        lab_report_name: 'report.pdf',
      },
      { lab_report_file: 'Invalid file format.' },
    ],
    [
      'a lab report that is a PNG',
      { submissionOption: 'Local Lab Submission', agree: true, lab_report_file: pdfDataUrl(SIGNATURE) },
      { lab_report_file: 'Invalid file format.' },
    ],
    [
      'a lab report whose base64 cannot be decoded',
      {
        submissionOption: 'Local Lab Submission',
        agree: true,
        lab_report_file: 'data:application/pdf;base64,A',
      },
      { lab_report_file: 'Invalid file format.' },
    ],
    [
      'a lab report of 600 KB',
      {
        submissionOption: 'Local Lab Submission',
        agree: true,
        lab_report_file: pdfDataUrl(pdfLikeOfSize(600 * 1024)),
      },
      { lab_report_file: 'File size too big. Please compress and upload under 500Kb' },
    ],
    [
      'a lab report just over 500 KB',
      {
        submissionOption: 'Local Lab Submission',
        agree: true,
        lab_report_file: pdfDataUrl(pdfLikeOfSize(500 * 1024 + 1)),
      },
      { lab_report_file: 'File size too big. Please compress and upload under 500Kb' },
    ],
    [
      'no lab report',
      { submissionOption: 'Local Lab Submission', agree: true },
      { lab_report_file: 'Please select a pdf file' },
    ],
    [
      'an empty lab report',
      {
        submissionOption: 'Local Lab Submission',
        agree: true,
        lab_report_file: 'data:application/pdf;base64,',
      },
      { lab_report_file: 'Please select a pdf file' },
    ],
  ])('refuses %s (400) with the spec message, and keeps nothing', async (_case, body, fields) => {
    const response = await submit(jane, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().code).toBe('VALIDATION');
    expect(response.json().fields).toMatchObject(fields);
    expect(Object.values(fields)).toContain(response.json().error);
    await expectNothingSubmitted(janeId);
  });

  it.each([
    ['JavaScript run when opened', pdfWithOpenActionScript, documentMessages.activeContent],
    ['an embedded file', pdfWithEmbeddedFile, documentMessages.activeContent],
    ['a launch action', pdfWithLaunchAction, documentMessages.activeContent],
    ['a ZIP in front of it', zipPrefixedPdf, documentMessages.notPlainPdf],
    ['an HTML page in front of it', htmlPrefixedPdf, documentMessages.notPlainPdf],
  ])(
    'refuses a lab report with %s (400), asking to print it to PDF again, and keeps nothing',
    async (_case, make, message) => {
      const response = await submit(jane, {
        submissionOption: 'Local Lab Submission',
        agree: true,
        lab_report_file: pdfDataUrl(await make()),
        lab_report_name: 'report.pdf',
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION',
        error: message,
        fields: { lab_report_file: message },
      });
      expect(message).toMatch(/print the report to PDF again/);
      await expectNothingSubmitted(janeId);
    },
  );

  it('takes a valid waiver right after one with a broken signature: no claim was left behind', async () => {
    const client = await newSignedInClient();
    const broken = await submit(client.cookie, waiver({ Signature: pngDataUrl(undecodable) }));
    expect(broken.statusCode).toBe(400);
    await expectNothingSubmitted(client.id);
    const good = await submit(client.cookie, waiver());
    expect(good.statusCode, good.body).toBe(200);
  });

  it.each(['Credit_Card_Number', 'CVV', 'Account_Number', 'cvv2'])(
    'refuses a body carrying %s before reading anything else',
    async (field) => {
      const response = await submit(jane, whiteGlove({ update_card: true, [field]: '4242424242424242' }));
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('FORBIDDEN_FIELD');
      expect(response.body).not.toContain('4242424242424242');
      await expectNothingSubmitted(janeId);
    },
  );

  it('needs an Idempotency-Key header', async () => {
    for (const key of [null, 'short', 'has spaces in it']) {
      const response = await submit(jane, waiver(), key);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(/Idempotency-Key/);
    }
    await expectNothingSubmitted(janeId);
  });

  it("answers another client's id with the same 404 as an unknown id", async () => {
    const answers = await Promise.all(
      [johnId, 'ACT10002', 'ACT99999', '00000000-0000-4000-8000-000000000000'].map((id) =>
        submit(jane, waiver({ ClientSFRecordId: id })),
      ),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
    }
    await expectNothingSubmitted(janeId);
    expect(await t.db.select().from(formSubmissions).where(eq(formSubmissions.clientId, johnId))).toEqual([]);
  });

  it('answers a physician session 404 here', async () => {
    const physician = await t.signInPhysician();
    for (const id of [undefined, janeId]) {
      const response = await submit(physician, waiver(id ? { ClientSFRecordId: id } : {}));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
    }
    await expectNothingSubmitted(janeId);
  });
});

describe('Local Lab Submission (Jane)', () => {
  let report: Buffer;
  let answer: { TransactionId: string; documentId: string };

  it('stores the report encrypted and marks the form completed', async () => {
    report = await labReportPdf();
    const response = await submit(jane, {
      submissionOption: 'Local Lab Submission',
      agree: true,
      lab_report_file: pdfDataUrl(report),
      lab_report_name: 'June panel (Quest).pdf',
    });
    expect(response.statusCode, response.body).toBe(200);
    answer = response.json();
    expect(answer).toEqual({
      success: true,
      TransactionId: expect.any(String),
      page_name: 'Infectious-disease',
      message: 'Please check your email for order confirmation',
      documentId: expect.any(String),
    });

    const state = await stateOf(janeId);
    expect(state.disease).toBe(true);
    expect(state.ledger).toEqual([]);
    expect(state.submissions).toHaveLength(1);
    const row = state.submissions[0] as typeof formSubmissions.$inferSelect;
    expect(row).toMatchObject({
      id: answer.TransactionId,
      status: 'completed',
      submissionOption: 'Local Lab Submission',
      pdfDocumentId: answer.documentId,
      paymentId: null,
    });
    const stored = state.docs.find((d) => d.id === row.labReportDocumentId) as typeof documents.$inferSelect;
    expect(stored).toMatchObject({
      kind: 'lab_report',
      contentType: 'application/pdf',
      sizeBytes: report.length,
    });
    expect(stored.sha256).toBe(sha256(report));
    expect(stored.ciphertext.equals(report)).toBe(false);
    expect(stored.ciphertext.includes(Buffer.from('%PDF'))).toBe(false);
    expect(decrypt(stored).equals(report)).toBe(true);
  });

  it('gives the exact report back from the form documents', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_FormDocuments',
      headers: { cookie: jane },
    });
    expect(list.json().infectiousDisease).toEqual({
      completed: true,
      submissionOption: 'Local Lab Submission',
      submittedAt: t.clock.now().toISOString(),
      documentId: answer.documentId,
      labReportId: expect.any(String),
      rejection: null,
    });
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/pay/documents/${list.json().infectiousDisease.labReportId}`,
      headers: { cookie: jane },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe('attachment; filename="June_panel__Quest_.pdf"');
    expect(download.rawPayload.equals(report)).toBe(true);
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/pay/documents/${list.json().infectiousDisease.labReportId}`,
      headers: { cookie: john },
    });
    expect(other.statusCode).toBe(404);
  });

  it('keeps a signed form PDF naming the report, and e-mails it', async () => {
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/pay/documents/${answer.documentId}`,
      headers: { cookie: jane },
    });
    const doc = await PDFDocument.load(download.rawPayload);
    const all = Array.from({ length: doc.getPageCount() }, (_, i) => pageText(doc, i)).join('\n');
    expect(all).toContain(sha256(report));
    expect(pageText(doc, doc.getPageCount() - 1)).toContain('Certificate of signature');
    const [mail] = (await t.mailTo('jane.doe@example.com')).filter((m) => /screening form/.test(m.subject));
    expect(mail?.textBody).toContain('Nothing was charged.');
    expect(mail?.textBody).toContain('[Attachment: infectious-disease-form.pdf, application/pdf,');
  });

  it('refuses a second submission (409) and changes nothing', async () => {
    const before = await stateOf(janeId);
    const again = await submit(jane, waiver());
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'You have already completed this form. Thank you',
      code: 'ALREADY_COMPLETED',
    });
    const after = await stateOf(janeId);
    expect(after.submissions).toEqual(before.submissions);
    expect(after.docs).toHaveLength(before.docs.length);
  });
});

describe('Waiver Submission', () => {
  let waiverPdf: Buffer;
  let actId: string;

  it('keeps the signature and the notice, and charges nothing', async () => {
    const client = await newSignedInClient({ firstName: 'Łukasz', lastName: 'Wiśniewski' });
    actId = client.actId;
    const response = await submit(
      client.cookie,
      waiver({ WaiverNotice: 'positive', InfectiousDisease: 'Hepatitis B (2019)' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const state = await stateOf(client.id);
    expect(state.disease).toBe(true);
    expect(state.ledger).toEqual([]);
    const row = state.submissions[0] as typeof formSubmissions.$inferSelect;
    expect(row.submissionOption).toBe('Waiver Submission');
    const signature = state.docs.find(
      (d) => d.id === row.signatureDocumentId,
    ) as typeof documents.$inferSelect;
    expect(signature.kind).toBe('signature');
    expect(decrypt(signature).equals(SIGNATURE)).toBe(true);

    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/pay/documents/${response.json().documentId}`,
      headers: { cookie: client.cookie },
    });
    waiverPdf = pdf.rawPayload;
    const doc = await PDFDocument.load(pdf.rawPayload);
    expect(imagesOf(doc)).toContainEqual({ width: 500, height: 100 });
    const all = Array.from({ length: doc.getPageCount() }, (_, i) => pageText(doc, i)).join('\n');
    expect(all).toContain('I have tested positive for an infectious disease');
    expect(all).toContain('Hepatitis B (2019)');
    expect(pageText(doc, doc.getPageCount() - 1)).toContain(sha256(SIGNATURE));
  });

  itLooks(
    'draws the waiver so that a person reads Łukasz Wiśniewski and the date on its certificate page',
    async () => {
      const doc = await PDFDocument.load(waiverPdf);
      const signedAt = valueAfter(pageText(doc, doc.getPageCount() - 1), 'Signed at (UTC)');
      expect(signedAt).toBe(t.clock.now().toISOString());
      const seen = await readPdf(waiverPdf, { pages: [-1], languages: ['pol'] });
      expectSeen(seen, [
        `Łukasz Wiśniewski (Client ID ${actId})`,
        `Signed at (UTC) ${signedAt.slice(0, 10)}`,
      ]);
    },
  );
});

describe('the version of the terms', () => {
  it('refuses terms of another version (409) and keeps nothing; the current version is recorded', async () => {
    const client = await newSignedInClient();
    const stale = await submit(client.cookie, waiver({ termsVersion: '2020-01-01' }));
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'AGREEMENT_CHANGED', error: diseaseMessages.termsChanged });
    await expectNothingSubmitted(client.id);
    const current = await submit(client.cookie, waiver({ termsVersion: INFECTIOUS_DISEASE_TERMS_VERSION }));
    expect(current.statusCode, current.body).toBe(200);
    const [row] = (await stateOf(client.id)).submissions;
    expect(row?.agreementVersion).toContain(INFECTIOUS_DISEASE_TERMS_VERSION);
  });
});

describe('White Glove Labs with the card on file (John)', () => {
  const key = `john-white-glove-${Date.now()}`;
  const body = whiteGlove({
    FirstName: 'John',
    LastName: 'Roe',
    Street: '455 Park Avenue South',
    City: 'New York',
    State: 'NY',
    ZipCode: '10016',
    update_card: false,
    // The legacy amount fields, when sent, are the server's quote.
    amount: 410.97,
    WhiteGloveLabFee: 399,
    CreditCardProcessingFee: 11.97,
    expectedTotalCents: WHITE_GLOVE_CARD_TOTAL,
  });
  let first: { TransactionId: string };

  it('charges $399.00 + 3% once to the saved card and completes the form', async () => {
    // The demo leaves John's screening to his physician; here he submits it himself.
    await t.db.update(clients).set({ infectiousDiseaseFormCompleted: false }).where(eq(clients.id, johnId));
    const [card] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.clientId, johnId));

    const response = await submit(john, body, key);
    expect(response.statusCode, response.body).toBe(200);
    first = response.json();

    const state = await stateOf(johnId);
    expect(state.disease).toBe(true);
    expect(state.whiteGlove).toHaveLength(1);
    const payment = state.whiteGlove[0] as typeof payments.$inferSelect;
    expect(payment).toMatchObject({
      purpose: 'white_glove_lab',
      source: 'ACT Client Portal',
      methodKind: 'card',
      amountCents: 39_900,
      feeCents: 1197,
      totalCents: WHITE_GLOVE_CARD_TOTAL,
      status: 'approved',
      idempotencyKey: `${key}:charge`,
      paymentMethodId: card?.id,
    });
    expect(payment.gatewayTransactionId).toMatch(/^\d{12}$/);
    expect(first.TransactionId).toBe(payment.gatewayTransactionId);
    expect(state.submissions).toHaveLength(1);
    expect(state.submissions[0]).toMatchObject({
      status: 'completed',
      submissionOption: 'White Glove Labs',
      paymentId: payment.id,
    });
    expect(state.activities).toHaveLength(1);
    expect(state.activities[0]).toMatchObject({
      type: 'White Glove Labs',
      stageName: 'Closed Won',
      purchasedPlanName: 'White Glove Labs screening ($410.97)',
    });
    // His overdue annual storage is not touched by this charge.
    expect(state.ledger.filter((p) => p.purpose !== 'white_glove_lab')).toEqual([]);

    const [mail] = (await t.mailTo('john.roe@example.com')).filter((m) => /screening form/.test(m.subject));
    expect(mail?.textBody).toContain('We charged $410.97 for White Glove Labs');
    expect(mail?.textBody).toContain(`Transaction ${payment.gatewayTransactionId}`);
    expect(mail?.textBody).toContain('455 Park Avenue South, New York, NY 10016');
  });

  it('answers the same submission again without charging again', async () => {
    const replay = await submit(john, body, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first);
    const state = await stateOf(johnId);
    expect(state.whiteGlove).toHaveLength(1);
    expect(state.activities).toHaveLength(1);
  });

  it('refuses the same key with other answers (422), charging nothing', async () => {
    const changed = await submit(john, { ...body, Street: '1 Other Street' }, key);
    expect(changed.statusCode).toBe(422);
    expect((await stateOf(johnId)).whiteGlove).toHaveLength(1);
  });

  it('refuses a second submission (409), charging nothing', async () => {
    const again = await submit(john, body);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'You have already completed this form. Thank you',
      code: 'ALREADY_COMPLETED',
    });
    const state = await stateOf(johnId);
    expect(state.whiteGlove).toHaveLength(1);
    expect(state.submissions).toHaveLength(1);
    expect(state.activities).toHaveLength(1);
  });
});

describe('White Glove Labs by ACH', () => {
  it('charges $399.00 with no processing fee to the account on file', async () => {
    const client = await newSignedInClient();
    await saveBankOnFile(t, client.cookie, newKey());
    const response = await submit(
      client.cookie,
      whiteGlove({
        PaymentMethod: 'ACH Payment',
        update_ach: false,
        amount: 399,
        CreditCardProcessingFee: 0,
        expectedTotalCents: WHITE_GLOVE_ACH_TOTAL,
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const state = await stateOf(client.id);
    expect(state.disease).toBe(true);
    expect(state.approved).toHaveLength(1);
    expect(state.approved[0]).toMatchObject({
      methodKind: 'ach',
      amountCents: 39_900,
      feeCents: 0,
      totalCents: WHITE_GLOVE_ACH_TOTAL,
      gatewayTransactionId: response.json().TransactionId,
    });
    expect(state.activities[0]?.purchasedPlanName).toBe('White Glove Labs screening ($399.00)');
  });
});

describe('amounts that are not the server quote', () => {
  let client: Awaited<ReturnType<typeof clientWithCardOnFile>>;
  beforeAll(async () => {
    client = await clientWithCardOnFile();
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['expectedTotalCents 100', { expectedTotalCents: 100 }, '$410.97'],
    ['amount 1', { amount: 1 }, '$410.97'],
    ['WhiteGloveLabFee 1', { WhiteGloveLabFee: 1 }, '$410.97'],
    ['CreditCardProcessingFee 0 by card', { CreditCardProcessingFee: 0 }, '$410.97'],
    [
      'the card total by ACH',
      { PaymentMethod: 'ACH Payment', expectedTotalCents: WHITE_GLOVE_CARD_TOTAL },
      '$399.00',
    ],
    ['a card fee by ACH', { PaymentMethod: 'ACH Payment', CreditCardProcessingFee: 11.97 }, '$399.00'],
  ])('refuses %s (409) and charges nothing', async (_case, overrides, total) => {
    const response = await submit(client.cookie, whiteGlove(overrides));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: `The White Glove Labs total is ${total}. Please review it and submit again.`,
      code: 'AMOUNT_CHANGED',
    });
    await expectNothingSubmitted(client.id);
    expect((await stateOf(client.id)).whiteGlove).toEqual([]);
  });

  it('charges the quote when the amounts sent are right', async () => {
    const response = await submit(
      client.cookie,
      whiteGlove({ amount: 410.97, WhiteGloveLabFee: 399, CreditCardProcessingFee: 11.97 }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect((await stateOf(client.id)).approved.map((p) => p.totalCents)).toEqual([WHITE_GLOVE_CARD_TOTAL]);
  });
});

describe('a new card on White Glove Labs', () => {
  it('refuses a declined card (402), keeps no claim, and a good card then pays', async () => {
    const client = await newSignedInClient();
    const declined = await tokenizeCard(t, '4000000000009995');
    const first = await submit(
      client.cookie,
      whiteGlove({ update_card: true, save_card: true, ...newCardFields(t, declined) }),
    );
    expect(first.statusCode).toBe(402);
    expect(first.json()).toMatchObject({ code: 'PAYMENT_DECLINED' });
    expect(first.json().error).toMatch(/insufficient funds/);
    await expectNothingSubmitted(client.id);
    expect((await stateOf(client.id)).methods).toEqual([]);

    // A card the gateway keeps but whose charge declines is not left on file either.
    const chargeDeclines = await tokenizeCard(t, '4000000000000341');
    const second = await submit(
      client.cookie,
      whiteGlove({ update_card: true, save_card: true, ...newCardFields(t, chargeDeclines) }),
    );
    expect(second.statusCode).toBe(402);
    await expectNothingSubmitted(client.id);
    const afterDeclines = await stateOf(client.id);
    expect(afterDeclines.methods).toEqual([]);
    expect(afterDeclines.whiteGlove.map((p) => p.status).sort()).toEqual(['declined', 'declined']);

    const good = await tokenizeCard(t, '4242424242424242');
    const third = await submit(
      client.cookie,
      whiteGlove({
        update_card: true,
        save_card: true,
        ...newCardFields(t, good),
        expectedTotalCents: 41_097,
      }),
    );
    expect(third.statusCode, third.body).toBe(200);
    const state = await stateOf(client.id);
    expect(state.disease).toBe(true);
    expect(state.approved).toHaveLength(1);
    expect(state.approved[0]).toMatchObject({ totalCents: WHITE_GLOVE_CARD_TOTAL });
    expect(third.json().TransactionId).toBe(state.approved[0]?.gatewayTransactionId);
    expect(state.methods).toEqual([expect.objectContaining({ kind: 'card', last4: '4242' })]);
    expect(state.approved[0]?.paymentMethodId).toBe(state.methods[0]?.id);
  });

  it('charges a new card without keeping it when not asked to', async () => {
    const client = await newSignedInClient();
    const token = await tokenizeCard(t, '4111111111111111');
    const response = await submit(
      client.cookie,
      whiteGlove({ update_card: true, ...newCardFields(t, token) }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const state = await stateOf(client.id);
    expect(state.approved).toHaveLength(1);
    expect(state.approved[0]?.paymentMethodId).toBeNull();
    expect(state.methods).toEqual([]);
  });

  it('refuses a new card saved on file with a year or less before it expires, as the payment page does', async () => {
    const client = await newSignedInClient();
    const response = await submit(
      client.cookie,
      whiteGlove(await newCardKeptOnFile(t, expiryInDays(t, 200))),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.Year_of_Expiry).toBe(paymentMessages.oneYearRemaining);
    await expectNothingSubmitted(client.id);
    const state = await stateOf(client.id);
    expect(state.methods).toEqual([]);
    expect(state.whiteGlove).toEqual([]);
  });
});

describe('double submissions', () => {
  it('answers the same submission sent twice at once alike, and charges once', async () => {
    const client = await clientWithCardOnFile();
    const key = newKey();
    const [a, b] = await Promise.all([
      submit(client.cookie, whiteGlove(), key),
      submit(client.cookie, whiteGlove(), key),
    ]);
    expect(a?.statusCode, a?.body).toBe(200);
    expect(b?.statusCode, b?.body).toBe(200);
    expect(a?.json().TransactionId).toBe(b?.json().TransactionId);
    expect(a?.json()).toEqual(b?.json());
    const state = await stateOf(client.id);
    expect(state.whiteGlove).toHaveLength(1);
    expect(state.approved).toHaveLength(1);
    expect(state.submissions).toHaveLength(1);
    expect(state.activities).toHaveLength(1);
  });

  it('lets one of four different submissions through, and charges once', async () => {
    const client = await clientWithCardOnFile();
    const answers = await Promise.all(Array.from({ length: 4 }, () => submit(client.cookie, whiteGlove())));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
    const state = await stateOf(client.id);
    expect(state.whiteGlove).toHaveLength(1);
    expect(state.approved).toHaveLength(1);
    expect(state.submissions).toHaveLength(1);
  });

  /** A White Glove submission that is charged, then fails before the form is completed. */
  async function chargedButNotCompleted(cookie: string, key: string) {
    await t.ownerDb.execute(
      sql`alter table documents add constraint no_documents_for_now check (false) not valid`,
    );
    try {
      return await submit(cookie, whiteGlove(), key);
    } finally {
      await t.ownerDb.execute(sql`alter table documents drop constraint no_documents_for_now`);
    }
  }

  it('a failure after the charge leaves the form to recovery, which completes it: never given back while its money is taken, nothing charged again', async () => {
    // A failure between the charge and the completion (here: documents cannot be stored) keeps
    // the claim: the charge went through, so the form is finished, not given back.
    const client = await clientWithCardOnFile();
    const key = newKey();
    const failed = await chargedButNotCompleted(client.cookie, key);
    expect(failed.statusCode).toBe(503);
    expect(failed.json().error).toBe(
      'We could not confirm the outcome yet. We are checking it and will e-mail you; nothing will be done twice.',
    );
    const held = await stateOf(client.id);
    expect(held.approved.map((p) => p.totalCents)).toEqual([41_097]);
    expect(held.submissions.map((row) => row.status)).toEqual(['pending']);

    // Another route meanwhile finds the screening finished by the charge that went through.
    const otherRoute = await submit(client.cookie, {
      submissionOption: 'Local Lab Submission',
      agree: true,
      lab_report_file: pdfDataUrl(await labReportPdf()),
    });
    expect(otherRoute.statusCode, otherRoute.body).toBe(409);
    expect(otherRoute.json().error).toBe('You have already completed this form. Thank you');
    const after = await stateOf(client.id);
    expect(after.disease).toBe(true);
    expect(after.approved).toHaveLength(1);
    expect(after.submissions).toHaveLength(1);
    expect(after.submissions[0]).toMatchObject({
      status: 'completed',
      submissionOption: 'White Glove Labs',
      paymentId: after.approved[0]?.id,
    });
    expect(after.activities).toHaveLength(1);

    // The same key answers what the finished form answers; nothing is charged again.
    const retry = await submit(client.cookie, whiteGlove(), key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().TransactionId).toBe(after.approved[0]?.gatewayTransactionId);
    expect((await stateOf(client.id)).approved).toHaveLength(1);
  });

  it('a claim left pending by a process that stopped before operations is taken over after 10 minutes', async () => {
    // This test moves the clock 11 minutes: keep it last in the file.
    const client = await clientWithCardOnFile();
    // The process stopped while holding the claim, before anything was charged.
    await t.db.insert(formSubmissions).values({
      clientId: client.id,
      form: 'infectious_disease',
      status: 'pending',
      idempotencyKey: 'a-process-that-stopped',
      requestHash: 'unknown',
      createdAt: t.clock.now(),
    });
    const meanwhile = await submit(client.cookie, whiteGlove());
    expect(meanwhile.statusCode).toBe(409);
    expect((await stateOf(client.id)).whiteGlove).toHaveLength(0);

    t.clock.advance(11 * 60_000);
    const cookie = await t.signIn(client.actId);
    const retry = await submit(cookie, whiteGlove());
    expect(retry.statusCode, retry.body).toBe(200);
    const after = await stateOf(client.id);
    expect(after.approved).toHaveLength(1);
    expect(after.submissions).toHaveLength(1);
    expect(after.submissions[0]?.paymentId).toBe(after.approved[0]?.id);
  });
});
