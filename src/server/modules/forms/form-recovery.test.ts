import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_AGREEMENT_VERSION } from '../../../domain/consent-agreement';
import { documents, formSubmissions, operations, outboxMessages } from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { storeDocument } from '../../lib/document-store';
import { addClient, pngDataUrl, signaturePng } from '../../testing/form-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';

/**
 * A signing cut short by a crash (the process killed after the form was claimed and some of its
 * documents stored) must not lock the client out for long, nor leave its documents behind.
 */

let t: TestApp;
let keySeq = 0;
const newKey = () => `recovery-${++keySeq}-${Date.now()}`;
const log = { info() {}, warn() {} };

beforeAll(async () => {
  t = await startTestApp({ RUN_ONCE_LEASE_MS: '5000' });
});
afterAll(() => t.close());

const consentBody = {
  Medications: 'No',
  Tissue_deliver: 'Destroy any Tissue',
  sample_type: 'Adipose',
  PaymentMethod: 'Check',
  agree: true,
  Signature: pngDataUrl(signaturePng()),
  agreementVersion: CONSENT_AGREEMENT_VERSION,
};

function sign(cookie: string, key = newKey()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/send_ConsentData',
    headers: { cookie, 'idempotency-key': key },
    payload: consentBody,
  });
}

/** The state a process leaves when it dies after claiming the consent and storing a document. */
async function interruptedConsent(clientId: string, leaseUntil: Date) {
  const [op] = await t.db
    .insert(operations)
    .values({
      scope: `client:${clientId}`,
      idempotencyKey: newKey(),
      kind: 'consent',
      requestHash: 'whatever it was',
      status: 'running',
      leaseToken: 'the process that died',
      leaseUntil,
      createdAt: t.clock.now(),
    })
    .returning();
  if (!op) throw new Error('no operation');
  const [submission] = await t.db
    .insert(formSubmissions)
    .values({
      clientId,
      form: 'consent',
      status: 'pending',
      idempotencyKey: op.idempotencyKey,
      requestHash: op.requestHash,
      operationId: op.id,
      createdAt: t.clock.now(),
    })
    .returning();
  await t.db
    .update(operations)
    .set({
      stateJson: JSON.stringify({
        operationId: op.id,
        submissionId: submission?.id,
        clientId,
        form: 'consent',
      }),
    })
    .where(eq(operations.id, op.id));
  const orphan = await storeDocument(t.db, t.app.deps.documentsKey, {
    clientId,
    kind: 'signature',
    fileName: 'signature.png',
    contentType: 'image/png',
    content: signaturePng(),
    now: t.clock.now(),
    operationId: op.id,
  });
  return { op, orphan };
}

describe('a consent interrupted by a crash', () => {
  it('holds the form while its owner could still be alive, then is taken over by the next submission', async () => {
    const client = await addClient(t.db);
    const cookie = await t.signIn(client.actId);
    const { op, orphan } = await interruptedConsent(client.id, new Date(t.clock.now().getTime() + 5_000));

    const tooSoon = await sign(cookie);
    expect(tooSoon.statusCode).toBe(409);

    // Seconds later, not ten minutes: the lease has lapsed.
    t.clock.advance(6_000);
    const signed = await sign(cookie);
    expect(signed.statusCode, signed.body).toBe(200);

    const [settled] = await t.db.select().from(operations).where(eq(operations.id, op.id));
    expect(settled?.status).toBe('failed');
    expect(await t.db.select().from(documents).where(eq(documents.id, orphan.id))).toHaveLength(0);
    const rows = await t.db.select().from(formSubmissions).where(eq(formSubmissions.clientId, client.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe('completed');
    const mail = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.dedupeKey, `form:${rows[0]?.id}`));
    expect(mail).toHaveLength(1);
  });

  it('is given back by the reconciliation sweep, documents and all, without waiting for the client', async () => {
    const client = await addClient(t.db);
    const { op, orphan } = await interruptedConsent(client.id, new Date(t.clock.now().getTime() - 1));
    await reconcile(t.app.deps, log);
    const [settled] = await t.db.select().from(operations).where(eq(operations.id, op.id));
    expect(settled?.status).toBe('failed');
    expect(await t.db.select().from(documents).where(eq(documents.id, orphan.id))).toHaveLength(0);
    expect(
      await t.db.select().from(formSubmissions).where(eq(formSubmissions.clientId, client.id)),
    ).toHaveLength(0);
  });
});
