import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newbornAgreementMessages as m,
  type NewbornAgreementFigures,
} from '../../../domain/newborn-agreement';
import { clients, documents, newbornAgreements, outboxMessages } from '../../db/schema';
import { DEMO_NEWBORN_AGREEMENT_ID, seedDemoNewbornAgreement } from '../../db/seed-newborn';
import { readDocument } from '../../lib/document-store';
import { createAgreementLinkToken, createPaymentLinkToken } from '../../lib/link-tokens';
import { expectSeen, itLooks, readPdf, valueAfter } from '../../testing/pdf-ocr';
import { pageText } from '../../testing/pdf-reading';
import { pngDataUrl, signaturePng } from '../../testing/signature-png';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { createNewbornAgreementLink } from './newborn-agreement-service';

/**
 * The newborn finance agreement's public routes (spec 3; issue 10): opened only by its signed,
 * unexpired link; signed once, concurrently too; the signed PDF kept and e-mailed once.
 */

const LINK_SECRET = 'a-test-link-secret-of-at-least-32-characters';
const SIGNATURE = pngDataUrl(signaturePng());
const DAY = 24 * 60 * 60 * 1000;

const figures: NewbornAgreementFigures & { mainContactEmail: string } = {
  mainContact: 'Linh Tran',
  mainContactEmail: 'linh.tran@example.com',
  patientId: 'ACT10001',
  annualBankingFeeCents: 17_500,
  bioInsuranceFeeCents: 30_000,
  downPaymentCents: 25_000,
  initialProcessingFeeCents: 249_500,
  interestRateBasisPoints: 600,
  installments: 12,
  totalFinancedCents: 1_000_000,
};

let t: TestApp;
let janeId: string;
let ipSeq = 0;
const nextIp = () => `10.9.0.${++ipSeq}`;

beforeAll(async () => {
  t = await startTestApp({ LINK_SECRET, RATE_LIMIT_VERIFY_PER_IP: '20' });
  const [jane] = await t.db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.clientActId, 'ACT10001'));
  janeId = jane?.id as string;
});
afterAll(() => t.close());

const secret = () => Buffer.from(LINK_SECRET, 'utf8');
const newAgreement = (extra: Partial<typeof figures> = {}) =>
  createNewbornAgreementLink(t.db, secret(), janeId, { ...figures, ...extra }, t.clock.now());

function get(id: string | undefined, ip = nextIp()) {
  return t.app.inject({
    method: 'GET',
    url: `/api/pay/get_Client_Agreement_service${id === undefined ? '' : `?id=${encodeURIComponent(id)}`}`,
    remoteAddress: ip,
  });
}

function sign(token: string, signatureData = SIGNATURE, ip = nextIp()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/set_Client_Agreement_service',
    payload: { ClientId: token, signatureData, NBAgreementCompleted: true },
    headers: { 'user-agent': 'agreement-test' },
    remoteAddress: ip,
  });
}

describe('GET /api/pay/get_Client_Agreement_service', () => {
  it('answers the agreement, its monthly payment computed, for a valid link', async () => {
    const { token } = await newAgreement();
    const response = await get(token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      Id: token,
      Name: 'Linh Tran',
      Patient_ID__c: 'ACT10001',
      Annual_Banking_Fee_Amount__c: 175,
      Bio_Insurance_Fee_Amount__c: 300,
      Down_Payment__c: 250,
      Initial_Processing_Fee_Amount__c: 2495,
      Interest_Rate__c: 6,
      Number_Of_Installments__c: 12,
      Total_Amount_Financing__c: 10_000,
      Total_Monthly_Payment_Amount__c: 860.66,
      NB_Finance_Agreement_Completed__c: false,
    });
    expect(response.body).not.toContain(janeId);
  });

  it('refuses a missing, unknown, tampered, expired or other-purpose link with "Client id is not valid"', async () => {
    const { token, agreementId } = await newAgreement();
    const [payload, signature] = token.split('.') as [string, string];
    const forgedPayload = Buffer.from(
      JSON.stringify({
        a: agreementId,
        p: 'newborn-agreement',
        e: Math.floor(Date.now() / 1000) + 365 * 86400,
      }),
    ).toString('base64url');
    const otherKey = createAgreementLinkToken(
      Buffer.from('another-secret-of-at-least-32-characters'),
      agreementId,
      t.clock.now(),
    );
    const unknownAgreement = createAgreementLinkToken(
      secret(),
      '00000000-0000-4000-8000-000000000000',
      t.clock.now(),
    );
    const paymentLink = createPaymentLinkToken(secret(), 'ACT10001', t.clock.now());
    const flipped = `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    for (const bad of [
      undefined,
      '',
      'nonsense',
      agreementId,
      flipped,
      `${forgedPayload}.${signature}`,
      otherKey,
      unknownAgreement,
      paymentLink,
    ]) {
      const response = await get(bad);
      expect(response.statusCode, String(bad)).toBe(404);
      expect(response.json().error).toBe(m.invalidClient);
    }
    const expired = createAgreementLinkToken(
      secret(),
      agreementId,
      new Date(t.clock.now().getTime() - 8 * DAY),
    );
    expect((await get(expired)).json().error).toBe(m.invalidClient);
    expect((await sign(expired)).json().error).toBe(m.invalidClient);
    expect((await get(token)).statusCode).toBe(200);
  });

  it('is limited per address like the public payment pages', async () => {
    const ip = '10.9.9.9';
    const answers: number[] = [];
    for (let i = 0; i < 21; i++) answers.push((await get('nonsense', ip)).statusCode);
    expect(answers.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(answers[20]).toBe(429);
  });
});

describe('POST /api/pay/set_Client_Agreement_service', () => {
  it('needs a drawn signature', async () => {
    const { token } = await newAgreement();
    for (const signatureData of ['', 'data:image/png;base64,AAAA', 'data:image/jpeg;base64,AAAA']) {
      const response = await sign(token, signatureData);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(m.signature);
    }
    expect((await get(token)).json().NB_Finance_Agreement_Completed__c).toBe(false);
  });

  let signedPdf: Buffer;

  it('signs once under a concurrent double submit: one PDF, one e-mail; the link then shows it completed', async () => {
    const { token, agreementId } = await newAgreement({ mainContactEmail: 'once@example.com' });
    const answers = await Promise.all([sign(token), sign(token)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const ok = answers.find((r) => r.statusCode === 200);
    expect(ok?.json()).toEqual({ NB_Finance_Agreement_Completed__c: true, message: m.completed });
    expect(answers.find((r) => r.statusCode === 409)?.json().error).toBe(m.alreadySigned);

    const [row] = await t.db.select().from(newbornAgreements).where(eq(newbornAgreements.id, agreementId));
    expect(row?.signedAt?.getTime()).toBe(t.clock.now().getTime());
    expect(row?.userAgent).toBe('agreement-test');
    const docs = await t.db.select().from(documents).where(eq(documents.clientId, janeId));
    const pdfs = docs.filter((d) => d.fileName === 'Newborn finance agreement ACT10001.pdf');
    expect(pdfs.map((d) => d.id)).toEqual([row?.documentId]);

    const mail = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, 'once@example.com'));
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe('Your signed Newborn Finance Agreement');
    expect(JSON.parse(mail[0]?.attachmentsJson ?? '[]')).toEqual([
      {
        documentId: row?.documentId,
        filename: 'Newborn finance agreement ACT10001.pdf',
        contentType: 'application/pdf',
      },
    ]);

    // A second visit: completed; a second signing: refused, nothing more kept or sent.
    expect((await get(token)).json().NB_Finance_Agreement_Completed__c).toBe(true);
    const again = await sign(token);
    expect(again.statusCode).toBe(409);
    expect(
      await t.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, 'once@example.com')),
    ).toHaveLength(1);

    // The signed PDF: the figures, the monthly payment, the terms, and the certificate page.
    const stored = await readDocument(t.db, t.app.deps.documentsKey, janeId, row?.documentId as string);
    signedPdf = stored?.content as Buffer;
    const pdf = await PDFDocument.load(signedPdf);
    const text = Array.from({ length: pdf.getPageCount() }, (_, i) => pageText(pdf, i)).join('\n');
    for (const fact of [
      'Newborn Finance Agreement',
      'Linh Tran',
      'ACT10001',
      '$175.00',
      '$300.00',
      '$250.00',
      '$2,495.00',
      '6.00%',
      '$10,000.00',
      '$860.66',
      'non-refundable deposit of $250',
      '3% card processing fee',
    ]) {
      expect(text).toContain(fact);
    }
    const certificate = pageText(pdf, pdf.getPageCount() - 1);
    expect(certificate).toContain(agreementId);
    expect(certificate).toContain('agreement-test');
  });

  itLooks(
    'draws the signed agreement so that a person reads the figures, the signer and the date',
    async () => {
      const doc = await PDFDocument.load(signedPdf);
      const signedAt = valueAfter(pageText(doc, doc.getPageCount() - 1), 'Signed at (UTC)');
      expect(signedAt).toBe(t.clock.now().toISOString());
      const [figuresPage, certificate] = await Promise.all([
        readPdf(signedPdf, { pages: [1], languages: ['eng'] }),
        readPdf(signedPdf, { pages: [-1], languages: ['eng'] }),
      ]);
      expectSeen(figuresPage, [
        'Newborn Finance Agreement',
        'Main contact Linh Tran',
        'Total amount financed $10,000.00',
        'Monthly payment $860.66',
      ]);
      expectSeen(certificate, ['Linh Tran (Client ID ACT10001)', `Signed at (UTC) ${signedAt.slice(0, 10)}`]);
    },
  );
});

describe('demo data', () => {
  it('seeds one unsigned agreement for Mia Nguyen (ACT10020), once, that `npm run agreement-link` opens', async () => {
    expect(await seedDemoNewbornAgreement(t.db, t.clock.now())).toBe(true);
    expect(await seedDemoNewbornAgreement(t.db, t.clock.now())).toBe(false);
    const rows = await t.db
      .select()
      .from(newbornAgreements)
      .where(eq(newbornAgreements.patientId, 'ACT10020'));
    expect(rows.map((r) => [r.id, r.signedAt])).toEqual([[DEMO_NEWBORN_AGREEMENT_ID, null]]);
    const response = await get(createAgreementLinkToken(secret(), DEMO_NEWBORN_AGREEMENT_ID, t.clock.now()));
    expect(response.json()).toMatchObject({
      Name: 'Linh Nguyen',
      Patient_ID__c: 'ACT10020',
      Total_Amount_Financing__c: 2670,
      Total_Monthly_Payment_Amount__c: 229.8,
      NB_Finance_Agreement_Completed__c: false,
    });
  });
});
