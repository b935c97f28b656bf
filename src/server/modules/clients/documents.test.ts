import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, documents } from '../../db/schema';
import { documentsKey, storeDocument } from '../../lib/document-store';
import { startTestApp, type TestApp } from '../../testing/test-app';

const KEY = Buffer.alloc(32, 7).toString('base64');
const report = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');

let t: TestApp;
let jane: string;
let john: string;
let janeDocument: string;

beforeAll(async () => {
  t = await startTestApp({ DOCUMENTS_KEY: KEY });
  jane = await t.signIn('ACT10001');
  john = await t.signIn('ACT10002');
  const [row] = await t.db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.clientActId, 'ACT10001'));
  const stored = await storeDocument(t.db, documentsKey('.tmp/unused', KEY), {
    clientId: row?.id as string,
    kind: 'lab_report',
    fileName: 'lab report.pdf',
    contentType: 'application/pdf',
    content: report,
    now: new Date(),
  });
  janeDocument = stored.id;
});
afterAll(() => t.close());

describe('documents', () => {
  it('are encrypted at rest: the stored bytes are not the document', async () => {
    const [row] = await t.db.select().from(documents).where(eq(documents.id, janeDocument));
    expect(row?.ciphertext.length).toBe(report.length);
    expect(row?.ciphertext.equals(report)).toBe(false);
    expect(row?.ciphertext.includes(Buffer.from('%PDF'))).toBe(false);
    expect(row?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('are given back, decrypted, to their owner only', async () => {
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/pay/documents/${janeDocument}`,
      headers: { cookie: jane },
    });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('application/pdf');
    expect(own.headers['content-disposition']).toBe('attachment; filename="lab_report.pdf"');
    expect(own.rawPayload.equals(report)).toBe(true);

    const other = await t.app.inject({
      method: 'GET',
      url: `/api/pay/documents/${janeDocument}`,
      headers: { cookie: john },
    });
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/pay/documents/00000000-0000-4000-8000-000000000000',
      headers: { cookie: john },
    });
    const malformed = await t.app.inject({
      method: 'GET',
      url: '/api/pay/documents/not-an-id',
      headers: { cookie: john },
    });
    for (const answer of [other, unknown, malformed]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
    }
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/pay/documents/${janeDocument}` })).statusCode,
    ).toBe(401);
  });

  it('refuse to give back bytes that were changed at rest', async () => {
    await t.db.execute(
      sql`update documents set ciphertext = decode('00', 'hex') || substring(ciphertext from 2) where id = ${janeDocument}`,
    );
    const answer = await t.app.inject({
      method: 'GET',
      url: `/api/pay/documents/${janeDocument}`,
      headers: { cookie: jane },
    });
    expect(answer.statusCode).toBe(500);
    expect(answer.body).not.toContain('%PDF');
  });
});
