export { vialRequestBody } from './vial-request-body';

import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expect } from 'vitest';
import type { Database } from '../db/client';
import { clients } from '../db/schema';
import { type GatewayToken, tokenizeBank, tokenizeCard } from './sandbox-tokens';
import type { TestApp } from './test-app';

export { imagesOf, pageText } from './pdf-reading';
export { type GatewayToken, tokenizeBank, tokenizeCard } from './sandbox-tokens';
export { pngDataUrl, signaturePng } from './signature-png';

/**
 * What the forms' API tests share: drawn signatures, PDFs to upload, reading a PDF's text back,
 * fresh clients for cases that need a form not yet signed, and sandbox tokens.
 */

export const sha256 = (content: Buffer | string) => createHash('sha256').update(content).digest('hex');

export const pdfDataUrl = (pdf: Buffer) => `data:application/pdf;base64,${pdf.toString('base64')}`;

/** A small, real one-page PDF, as a lab would send. */
export async function labReportPdf(text = 'Infectious disease panel: all negative'): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText(text, { x: 50, y: 700, size: 12, font });
  return Buffer.from(await doc.save());
}

/** Bytes that start and end like a PDF, padded to the size asked for. */
export function pdfLikeOfSize(bytes: number): Buffer {
  const head = Buffer.from('%PDF-1.4\n');
  const tail = Buffer.from('\n%%EOF\n');
  return Buffer.concat([head, Buffer.alloc(bytes - head.length - tail.length, 0x20), tail]);
}

let clientSeq = 0;

/**
 * A new client with the demo password, the initial processing paid and no form signed, for a
 * case that needs its own client (each form can be submitted once per client).
 */
export async function addClient(
  db: Database,
  values: Partial<typeof clients.$inferInsert> = {},
): Promise<{ id: string; actId: string; email: string }> {
  const [jane] = await db
    .select({ passwordHash: clients.passwordHash })
    .from(clients)
    .where(eq(clients.clientActId, 'ACT10001'));
  clientSeq += 1;
  const actId = `ACT${String(70000 + clientSeq)}`;
  const [row] = await db
    .insert(clients)
    .values({
      clientActId: actId,
      passwordHash: jane?.passwordHash ?? null,
      firstName: 'Test',
      lastName: `Client${clientSeq}`,
      dateOfBirth: '1980-01-01',
      email: `${actId.toLowerCase()}@example.com`,
      initialProcessingFormCompleted: true,
      ...values,
    })
    .returning({ id: clients.id, actId: clients.clientActId, email: clients.email });
  if (!row) throw new Error('the test client was not created');
  return row;
}

/**
 * A new client who may request a release of vials: consent signed, cells banked years ago (release
 * requests open three months after the Enrollment Date, the banked date where none is recorded).
 */
export function addReleaseClient(db: Database, values: Partial<typeof clients.$inferInsert> = {}) {
  return addClient(db, { clientConsentFormCompleted: true, dateBankedIn: '2021-01-15', ...values });
}

/** The display fields sent with a new card's token (never its number). */
export function newCardFields(t: TestApp, token: GatewayToken, holder = { first: 'Test', last: 'Client' }) {
  return {
    token,
    Credit_Card_Type: 'Visa',
    Month_of_Expiry: '12',
    Year_of_Expiry: String(t.clock.now().getUTCFullYear() + 3),
    Credit_Card_Holder_First_Name: holder.first,
    Credit_Card_Holder_Last_Name: holder.last,
    Credit_Card_Biling_Email_Address: 'billing@example.com',
    Credit_Card_Holder_Country: 'United States',
    Credit_Card_Billing_Street: '1200 Brickell Avenue',
    Credit_Card_Billing_City: 'Miami',
    Credit_Card_Billing_State: 'FL',
    Credit_Card_Billing_Zip_Code: '33131',
  };
}

/** A card expiry `days` after the test clock's now (UTC): its month (1-12) and year. */
export function expiryInDays(t: TestApp, days: number): { month: number; year: number } {
  const day = new Date(t.clock.now().getTime() + days * 86_400_000);
  return { month: day.getUTCMonth() + 1, year: day.getUTCFullYear() };
}

/**
 * A new card's token and display fields for a card expiring in `expiry` (from expiryInDays, or a
 * past month for an expired card): the token and the fields sent with it give the same date.
 */
export async function newCardExpiring(t: TestApp, { month, year }: { month: number; year: number }) {
  const token = await tokenizeCard(t, '4242424242424242', { expiryMonth: month, expiryYear: year });
  return {
    ...newCardFields(t, token),
    Month_of_Expiry: String(month).padStart(2, '0'),
    Year_of_Expiry: String(year),
  };
}

/** A new card expiring in `expiry`, ticked to be kept on file ("Update card" and "Save card"). */
export async function newCardKeptOnFile(t: TestApp, expiry: { month: number; year: number }) {
  return { update_card: true, save_card: true, ...(await newCardExpiring(t, expiry)) };
}

/** A bank account tokenized and saved on file through set_PaymentInfo (what is overdue is charged to it). */
export async function saveBankOnFile(t: TestApp, cookie: string, key: string) {
  const token = await tokenizeBank(t);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/pay/set_PaymentInfo',
    headers: { cookie, 'idempotency-key': key },
    payload: {
      Payment_Type: 'ACH',
      token,
      Name_On_Account: 'Test Client',
      ABA_Routing_Number: '110000000',
      PaymentSource: 'CP Payment Info Page',
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response;
}

/** A card tokenized and saved on file through set_PaymentInfo (nothing overdue: no charge). */
export async function saveCardOnFile(t: TestApp, cookie: string, key: string, number = '4242424242424242') {
  const token = await tokenizeCard(t, number);
  const fields = newCardFields(t, token);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/pay/set_PaymentInfo',
    headers: { cookie, 'idempotency-key': key },
    payload: {
      ...fields,
      Credit_Card_Holder_Country: undefined,
      Country: fields.Credit_Card_Holder_Country,
      Payment_Type: 'CC',
      PaymentSource: 'CP Payment Info Page',
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response;
}
