import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client-basics';
import { addMonths, isoToUsDate } from '../../../domain/dates';
import {
  newbornAgreementMessages as m,
  type NewbornAgreementFigures,
} from '../../../domain/newborn-agreement';
import { SHIPPED_PRICE_AMOUNTS } from '../../../domain/price-book';
import {
  clientActivities,
  clients,
  documents,
  newbornAgreements,
  newbornInstallments,
  outboxMessages,
  paymentMethods,
  payments,
} from '../../db/schema';
import { DEMO_NEWBORN_AGREEMENT_ID, seedDemoNewbornAgreement } from '../../db/seed-newborn';
import { readDocument } from '../../lib/document-store';
import { createAgreementLinkToken, createPaymentLinkToken } from '../../lib/link-tokens';
import { addClient, newCardFields } from '../../testing/form-fixtures';
import { expectSeen, itLooks, readPdf, valueAfter } from '../../testing/pdf-ocr';
import { pageText } from '../../testing/pdf-reading';
import { type GatewayToken, tokenizeBank, tokenizeCard } from '../../testing/sandbox-tokens';
import { pngDataUrl, signaturePng } from '../../testing/signature-png';
import { staffSession } from '../../testing/staff-fixtures';
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

/** A new card as the page sends it: the gateway's token and the fields a person reads back. */
async function cardFields(number = '4242424242424242') {
  const { Credit_Card_Holder_Country, ...fields } = newCardFields(t, await tokenizeCard(t, number), {
    first: 'Linh',
    last: 'Tran',
  });
  return { Payment_Type: 'CC' as const, ...fields, Country: Credit_Card_Holder_Country };
}

async function bankFields(token?: GatewayToken) {
  return {
    Payment_Type: 'ACH' as const,
    token: token ?? (await tokenizeBank(t)),
    Name_On_Account: 'Linh Tran',
    ABA_Routing_Number: '110000000',
  };
}

let keySeq = 0;
const newKey = () => `agreement-key-${++keySeq}-${Date.now()}`;

async function sign(
  token: string,
  options: {
    signatureData?: string;
    payment?: Record<string, unknown>;
    key?: string;
    extra?: Record<string, unknown>;
    ip?: string;
  } = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/set_Client_Agreement_service',
    payload: {
      ClientId: token,
      signatureData: options.signatureData ?? SIGNATURE,
      NBAgreementCompleted: true,
      authorizeCharges: true,
      ...(options.payment ?? (await cardFields())),
      ...options.extra,
    },
    headers: { 'user-agent': 'agreement-test', 'idempotency-key': options.key ?? newKey() },
    remoteAddress: options.ip ?? nextIp(),
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
      depositReceipt: false,
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
      const response = await sign(token, { signatureData });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(m.signature);
    }
    expect((await get(token)).json().NB_Finance_Agreement_Completed__c).toBe(false);
  });

  it('needs the authorization of the charges, a payment method and an Idempotency-Key', async () => {
    const { token } = await newAgreement();
    const unauthorized = await sign(token, { extra: { authorizeCharges: false } });
    expect(unauthorized.statusCode).toBe(400);
    expect(unauthorized.json().error).toBe(m.authorize);
    const noMethod = await t.app.inject({
      method: 'POST',
      url: '/api/pay/set_Client_Agreement_service',
      payload: {
        ClientId: token,
        signatureData: SIGNATURE,
        NBAgreementCompleted: true,
        authorizeCharges: true,
      },
      headers: { 'idempotency-key': newKey() },
      remoteAddress: nextIp(),
    });
    expect(noMethod.statusCode).toBe(400);
    const noKey = await t.app.inject({
      method: 'POST',
      url: '/api/pay/set_Client_Agreement_service',
      payload: {
        ClientId: token,
        signatureData: SIGNATURE,
        NBAgreementCompleted: true,
        authorizeCharges: true,
        ...(await cardFields()),
      },
      remoteAddress: nextIp(),
    });
    expect(noKey.statusCode).toBe(400);
    expect((await get(token)).json().NB_Finance_Agreement_Completed__c).toBe(false);
  });

  let signedPdf: Buffer;

  it('signs with a card: the $250.00 deposit and its 3% fee charged once, the card kept, the installments written, the PDF and receipt e-mailed', async () => {
    const today = todayFor(t.clock.now());
    const { token, agreementId } = await newAgreement({ mainContactEmail: 'once@example.com' });
    const key = newKey();
    const card = await cardFields();
    // A double click (the same submission twice) and a second tab (another key) at once.
    const answers = await Promise.all([
      sign(token, { key, payment: card, extra: { expectedTotalCents: 25_750 } }),
      sign(token, { key, payment: card, extra: { expectedTotalCents: 25_750 } }),
      sign(token),
    ]);
    const codes = answers.map((r) => r.statusCode);
    expect(
      codes.filter((c) => c === 200).length,
      JSON.stringify(answers.map((r) => r.json())),
    ).toBeGreaterThanOrEqual(1);
    const ok = answers.find((r) => r.statusCode === 200);
    expect(ok?.json()).toMatchObject({
      NB_Finance_Agreement_Completed__c: true,
      message: m.completed,
      amountChargedCents: 25_750,
    });
    for (const refused of answers.filter((r) => r.statusCode !== 200)) {
      expect(refused.statusCode).toBe(409);
      expect([m.alreadySigned, m.beingSigned, 'Please try again.']).toContain(refused.json().error);
    }

    const [row] = await t.db.select().from(newbornAgreements).where(eq(newbornAgreements.id, agreementId));
    expect(row?.signedAt?.getTime()).toBe(t.clock.now().getTime());
    expect(row?.userAgent).toBe('agreement-test');
    expect(row).toMatchObject({ paymentKind: 'card', depositTotalCents: 25_750, signingOperationId: null });

    // One charge: $250.00 and the $7.50 card fee, on the ledger once.
    const charged = await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.clientId, janeId), eq(payments.purpose, 'newborn_deposit')));
    expect(
      charged.filter((p) => p.status === 'approved').map((p) => [p.amountCents, p.feeCents, p.totalCents]),
    ).toEqual([[25_000, 750, 25_750]]);
    expect(row?.depositPaymentId).toBe(charged.find((p) => p.status === 'approved')?.id);
    // The card is kept on file for the installments.
    const onFile = await t.db.select().from(paymentMethods).where(eq(paymentMethods.clientId, janeId));
    expect(onFile.find((p) => p.kind === 'card')).toMatchObject({ last4: '4242' });

    // The twelve installments from the schedule: $860.66 a month from one month after the deposit.
    const installments = await t.db
      .select()
      .from(newbornInstallments)
      .where(eq(newbornInstallments.agreementId, agreementId))
      .orderBy(newbornInstallments.number);
    expect(installments).toHaveLength(12);
    expect(installments[0]).toMatchObject({
      number: 1,
      dueDate: addMonths(today, 1),
      paymentCents: 86_066,
      interestCents: 5_000,
      principalCents: 81_066,
      balanceCents: 918_934,
      status: 'due',
      tries: 0,
      lateChargeCents: 0,
    });
    expect(installments[11]).toMatchObject({ number: 12, dueDate: addMonths(today, 12), balanceCents: 0 });

    const activity = await t.db
      .select()
      .from(clientActivities)
      .where(
        and(eq(clientActivities.clientId, janeId), eq(clientActivities.type, 'Newborn Finance Deposit')),
      );
    expect(activity.map((a) => a.amountCents)).toEqual([25_750]);

    const docs = await t.db.select().from(documents).where(eq(documents.clientId, janeId));
    const pdfs = docs.filter((d) => d.fileName === 'Newborn finance agreement ACT10001.pdf');
    expect(pdfs.map((d) => d.id)).toEqual([row?.documentId]);

    const mail = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, 'once@example.com'));
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe('Your signed Newborn Finance Agreement');
    expect(mail[0]?.textBody).toContain('We charged the deposit of $257.50 to your Visa ending 4242.');
    expect(mail[0]?.textBody).toContain(
      `the first of $860.66 on ${isoToUsDate(addMonths(today, 1))}, with the 3% card processing fee`,
    );
    const attachments = JSON.parse(mail[0]?.attachmentsJson ?? '[]') as { filename: string }[];
    expect(attachments.map((a) => a.filename)).toEqual([
      'Newborn finance agreement ACT10001.pdf',
      'receipt.pdf',
    ]);
    // Its link opens the agreement's page (the schedule, a new method, paying off early), for 14 days.
    const link = /\(the link is for you only and works for 14 days\): (\S+)/.exec(mail[0]?.textBody ?? '');
    const linkToken = new URL(link?.[1] ?? 'http://x/').pathname.split('/').pop() ?? '';
    expect(link?.[1]).toContain('/newbornfinanceagreement/');
    expect((await get(linkToken)).json()).toMatchObject({ NB_Finance_Agreement_Completed__c: true });

    // A second visit: completed; a second signing: refused, nothing more charged, kept or sent.
    expect((await get(token)).json().NB_Finance_Agreement_Completed__c).toBe(true);
    const again = await sign(token);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(m.alreadySigned);
    // The same submission again (a retry after a lost answer) is answered as it was.
    const retry = await sign(token, { key, payment: card, extra: { expectedTotalCents: 25_750 } });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().amountChargedCents).toBe(25_750);
    expect(
      await t.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, 'once@example.com')),
    ).toHaveLength(1);
    const after = await t.db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.clientId, janeId),
          eq(payments.purpose, 'newborn_deposit'),
          eq(payments.status, 'approved'),
        ),
      );
    expect(after).toHaveLength(1);

    // The signed PDF: the figures, the terms, the schedule, the authorization, the certificate page.
    const stored = await readDocument(t.db, t.app.deps.documentsKey, janeId, row?.documentId as string);
    signedPdf = stored?.content as Buffer;
    const pdf = await PDFDocument.load(signedPdf);
    // Wrapped lines read as one text.
    const text = Array.from({ length: pdf.getPageCount() }, (_, i) => pageText(pdf, i))
      .join('\n')
      .replace(/\s+/g, ' ');
    for (const fact of [
      'Newborn Finance Agreement',
      'Linh Tran',
      'ACT10001',
      '$175.00',
      '$300.00',
      '$250.00',
      '$2,495.00',
      '6%',
      '$10,000.00',
      '$860.66',
      'An initial non-refundable deposit of $250.00 is due at signup.',
      'Payments made by credit card add a 3% card processing fee.',
      'Payment schedule',
      isoToUsDate(addMonths(today, 1)),
      '$9,189.34',
      isoToUsDate(addMonths(today, 12)),
      'I authorize the bank to charge the deposit today and each monthly installment on its due date to this payment method.',
      'Payment method: Visa ending 4242.',
      '$257.50 ($250.00 and the $7.50 card processing fee)',
    ]) {
      expect(text).toContain(fact);
    }
    const certificate = pageText(pdf, pdf.getPageCount() - 1);
    expect(certificate).toContain(agreementId);
    expect(certificate).toContain('agreement-test');
  });

  it('a declined card signs nothing and charges nothing; another card then signs it', async () => {
    const { token, agreementId } = await newAgreement({ mainContactEmail: 'declined@example.com' });
    const before = await t.db.select().from(payments).where(eq(payments.clientId, janeId));
    for (const number of ['4000000000000002', '4000000000000341']) {
      const declined = await sign(token, { payment: await cardFields(number) });
      expect(declined.statusCode, number).toBe(402);
    }
    const [row] = await t.db.select().from(newbornAgreements).where(eq(newbornAgreements.id, agreementId));
    expect(row).toMatchObject({ signedAt: null, signingOperationId: null, documentId: null });
    expect(
      await t.db.select().from(newbornInstallments).where(eq(newbornInstallments.agreementId, agreementId)),
    ).toHaveLength(0);
    const ledger = await t.db.select().from(payments).where(eq(payments.clientId, janeId));
    expect(ledger.filter((p) => p.status === 'approved')).toHaveLength(
      before.filter((p) => p.status === 'approved').length,
    );
    expect(await t.mailTo('declined@example.com')).toHaveLength(0);
    expect((await get(token)).json().NB_Finance_Agreement_Completed__c).toBe(false);

    const signed = await sign(token);
    expect(signed.statusCode).toBe(200);
    expect(signed.json().amountChargedCents).toBe(25_750);
  });

  it("charges the deposit alone by bank account, and refuses a total that is not the server's", async () => {
    const { token, agreementId } = await newAgreement({ downPaymentCents: 30_000 });
    const stale = await sign(token, { payment: await bankFields(), extra: { expectedTotalCents: 25_000 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('AMOUNT_CHANGED');
    const ok = await sign(token, { payment: await bankFields(), extra: { expectedTotalCents: 30_000 } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().amountChargedCents).toBe(30_000);
    const [row] = await t.db.select().from(newbornAgreements).where(eq(newbornAgreements.id, agreementId));
    expect(row).toMatchObject({ paymentKind: 'ach', depositTotalCents: 30_000 });
  });

  it('with no deposit charges nothing at signing, and still keeps the method on file for the installments', async () => {
    const client = await addClient(t.db);
    const { token, agreementId } = await createNewbornAgreementLink(
      t.db,
      secret(),
      client.id,
      { ...figures, downPaymentCents: 0 },
      t.clock.now(),
    );
    const signed = await sign(token, { payment: await cardFields(), extra: { expectedTotalCents: 0 } });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ amountChargedCents: 0, TransactionId: null });
    const [row] = await t.db.select().from(newbornAgreements).where(eq(newbornAgreements.id, agreementId));
    expect(row).toMatchObject({ paymentKind: 'card', depositTotalCents: 0, depositPaymentId: null });
    expect(row?.signedAt).not.toBeNull();
    const onFile = await t.db.select().from(paymentMethods).where(eq(paymentMethods.clientId, client.id));
    expect(onFile.map((p) => [p.kind, p.last4])).toEqual([['card', '4242']]);
    const charged = await t.db.select().from(payments).where(eq(payments.clientId, client.id));
    expect(charged.filter((p) => p.status === 'approved')).toHaveLength(0);
    expect(
      await t.db.select().from(newbornInstallments).where(eq(newbornInstallments.agreementId, agreementId)),
    ).toHaveLength(12);
  });

  itLooks(
    'draws the signed agreement so that a person reads the figures, the schedule, the authorization, the signer and the date',
    async () => {
      const doc = await PDFDocument.load(signedPdf);
      const signedAt = valueAfter(pageText(doc, doc.getPageCount() - 1), 'Signed at (UTC)');
      expect(signedAt).toBe(t.clock.now().toISOString());
      const today = todayFor(t.clock.now());
      const pages = Array.from({ length: doc.getPageCount() - 1 }, (_, i) => i + 1);
      const [body, certificate] = await Promise.all([
        readPdf(signedPdf, { pages, languages: ['eng'] }),
        readPdf(signedPdf, { pages: [-1], languages: ['eng'] }),
      ]);
      expectSeen(body, [
        'Newborn Finance Agreement',
        'Main contact Linh Tran',
        'Total amount financed $10,000.00',
        'Monthly payment $860.66',
        'Payment schedule',
        'Date Payment Interest Principal Balance',
        `${isoToUsDate(addMonths(today, 1))} $860.66 $50.00 $810.66 $9,189.34`,
        'I authorize the bank to charge the deposit today and each monthly installment on its due date to this payment method.',
        'Payment method: Visa ending 4242.',
      ]);
      expectSeen(certificate, ['Linh Tran (Client ID ACT10001)', `Signed at (UTC) ${signedAt.slice(0, 10)}`]);
    },
  );
});

const textOf = (doc: PDFDocument) =>
  Array.from({ length: doc.getPageCount() }, (_, i) => pageText(doc, i)).join('\n');

describe('the signed copy and the receipt on the done page (issue 24)', () => {
  const download = (route: 'document' | 'receipt', id: string | undefined) =>
    t.app.inject({
      method: 'GET',
      url: `/api/pay/get_Client_Agreement_${route}${id === undefined ? '' : `?id=${encodeURIComponent(id)}`}`,
      remoteAddress: nextIp(),
    });

  it("gives the signed PDF and the deposit's receipt by the agreement's own link, once signed", async () => {
    const { token } = await newAgreement();
    expect((await download('document', token)).statusCode).toBe(404);
    expect((await download('receipt', token)).statusCode).toBe(404);
    expect((await sign(token)).statusCode).toBe(200);
    expect((await get(token)).json()).toMatchObject({
      NB_Finance_Agreement_Completed__c: true,
      depositReceipt: true,
    });

    const agreement = await download('document', token);
    expect(agreement.statusCode).toBe(200);
    expect(agreement.headers['content-type']).toBe('application/pdf');
    expect(agreement.headers['cache-control']).toBe('no-store');
    expect(agreement.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(textOf(await PDFDocument.load(agreement.rawPayload))).toContain('Linh Tran');

    const receipt = await download('receipt', token);
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    expect(textOf(await PDFDocument.load(receipt.rawPayload))).toContain('$257.50');
  });

  it("answers another agreement's, an unknown, altered or expired link the same 404 as before signing", async () => {
    const { token: signedToken, agreementId } = await newAgreement();
    expect((await sign(signedToken)).statusCode).toBe(200);
    const { token: otherToken } = await newAgreement();
    const [payload, signature] = signedToken.split('.') as [string, string];
    const expired = createAgreementLinkToken(
      secret(),
      agreementId,
      new Date(t.clock.now().getTime() - 8 * DAY),
    );
    for (const route of ['document', 'receipt'] as const) {
      for (const bad of [
        undefined,
        'nonsense',
        agreementId,
        `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
        expired,
        createPaymentLinkToken(secret(), 'ACT10001', t.clock.now()),
        otherToken,
      ]) {
        const response = await download(route, bad);
        expect(response.statusCode, `${route} ${String(bad)}`).toBe(404);
        expect(response.json()).toEqual({
          error: 'Client id is not valid',
          code: 'NOT_FOUND',
          fields: { ClientId: 'Client id is not valid' },
        });
      }
    }
  });
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

describe('under a staff price version in force', () => {
  it("names the agreement's own deposit and the version's card fee in the PDF's terms and the e-mail, and charges that fee", async () => {
    const admin = await staffSession(t);
    const today = todayFor(t.clock.now());
    const version = await t.app.inject({
      method: 'POST',
      url: '/api/staff/create_price_version',
      headers: { cookie: admin },
      payload: {
        effectiveOn: today,
        note: 'A card fee of 3.5%',
        amounts: { ...SHIPPED_PRICE_AMOUNTS, cardProcessingFee: 350 },
      },
    });
    expect(version.statusCode, version.body).toBe(200);

    const { token, agreementId } = await newAgreement({
      mainContactEmail: 'version@example.com',
      downPaymentCents: 30_000,
      interestRateBasisPoints: 650,
    });
    // $300.00 and 3.5% by card: $10.50.
    const signed = await sign(token, { extra: { expectedTotalCents: 31_050 } });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().amountChargedCents).toBe(31_050);

    const [row] = await t.db.select().from(newbornAgreements).where(eq(newbornAgreements.id, agreementId));
    const stored = await readDocument(t.db, t.app.deps.documentsKey, janeId, row?.documentId as string);
    const pdf = await PDFDocument.load(stored?.content as Buffer);
    const text = Array.from({ length: pdf.getPageCount() }, (_, i) => pageText(pdf, i))
      .join('\n')
      .replace(/\s+/g, ' ');
    for (const fact of [
      'An initial non-refundable deposit of $300.00 is due at signup.',
      'Payments made by credit card add a 3.5% card processing fee.',
      '6.5%',
      '$310.50 ($300.00 and the $10.50 card processing fee)',
    ]) {
      expect(text).toContain(fact);
    }
    expect(text).not.toContain('$250.00');
    expect(text).not.toContain(' 3% ');

    const [mail] = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, 'version@example.com'));
    expect(mail?.textBody).toContain('We charged the deposit of $310.50 to your Visa ending 4242.');
    expect(mail?.textBody).toContain('with the 3.5% card processing fee');
  });
});
