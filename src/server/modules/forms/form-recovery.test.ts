import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONSENT_AGREEMENT_VERSION } from '../../../domain/consent-agreement';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway';
import {
  clientActivities,
  clients,
  documents,
  formSubmissions,
  operations,
  outboxMessages,
  payments,
} from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { storeDocument } from '../../lib/document-store';
import { addClient, pngDataUrl, saveCardOnFile, signaturePng } from '../../testing/form-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * A signing cut short by a crash (the process killed after the form was claimed and some of its
 * documents stored) must not lock the client out for long, nor leave its documents behind. A
 * screening whose White Glove Labs charge went through is finished, never given back.
 */

/** `lost`: the gateway approves, then the answer is lost; `unknown`: the gateway cannot be asked. */
let gatewayFault: null | 'lost' | 'lost-and-unknown' = null;

function faulty(real: PaymentGateway): PaymentGateway {
  return {
    name: real.name,
    notFoundGraceMs: real.notFoundGraceMs,
    refund: (request) => real.refund(request),
    void: (request) => real.void(request),
    lookupRefund: (request) => real.lookupRefund(request),
    saveMethod: (request) => real.saveMethod(request),
    async charge(request) {
      const result = await real.charge(request);
      if (gatewayFault) throw new Error('the connection to the gateway was lost');
      return result;
    },
    async lookupCharge(request) {
      if (gatewayFault === 'lost-and-unknown') return { status: 'unavailable', message: 'try later' };
      return real.lookupCharge(request);
    },
  };
}

let t: TestApp;
let keySeq = 0;
const newKey = () => `recovery-${++keySeq}-${Date.now()}`;
const log = { info() {}, warn() {} };

beforeAll(async () => {
  t = await startTestApp({ RUN_ONCE_LEASE_MS: '5000', ...MANY_PAYMENT_ATTEMPTS }, { gateway: faulty });
});
afterAll(() => t.close());
beforeEach(() => {
  gatewayFault = null;
});

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

describe('a White Glove Labs screening whose answer was lost after the charge', () => {
  const whiteGlove = {
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
  };

  function screen(cookie: string, key = newKey()) {
    return t.app.inject({
      method: 'POST',
      url: '/api/pay/set_DiseaseData',
      headers: { cookie, 'idempotency-key': key },
      payload: whiteGlove,
    });
  }

  async function stateOf(clientId: string) {
    const [client] = await t.db.select().from(clients).where(eq(clients.id, clientId));
    const charges = await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.clientId, clientId), eq(payments.purpose, 'white_glove_lab')));
    const forms = await t.db
      .select()
      .from(formSubmissions)
      .where(and(eq(formSubmissions.clientId, clientId), eq(formSubmissions.form, 'infectious_disease')));
    const activities = await t.db
      .select()
      .from(clientActivities)
      .where(and(eq(clientActivities.clientId, clientId), eq(clientActivities.type, 'White Glove Labs')));
    return { completed: client?.infectiousDiseaseFormCompleted, charges, forms, activities };
  }

  async function clientWithCard() {
    const client = await addClient(t.db);
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    return { ...client, cookie };
  }

  it('is completed by reconciliation with the charge the gateway approved, e-mailed once', async () => {
    const client = await clientWithCard();
    const key = newKey();
    gatewayFault = 'lost';
    const lost = await screen(client.cookie, key);
    gatewayFault = null;
    expect(lost.statusCode).toBe(503);
    const before = await stateOf(client.id);
    expect(before.forms.map((f) => f.status)).toEqual(['pending']);
    expect(before.completed).toBe(false);

    t.clock.advance(6_000);
    await reconcile(t.app.deps, log);
    const after = await stateOf(client.id);
    expect(after.charges.map((c) => [c.status, c.totalCents])).toEqual([['approved', 41_097]]);
    expect(after.forms).toHaveLength(1);
    expect(after.forms[0]).toMatchObject({
      status: 'completed',
      submissionOption: 'White Glove Labs',
      paymentId: after.charges[0]?.id,
    });
    expect(after.forms[0]?.pdfDocumentId).toBeTruthy();
    expect(after.completed).toBe(true);
    expect(after.activities).toHaveLength(1);
    const mail = await t.mailTo(client.email);
    const screening = mail.filter(
      (m) => m.subject === 'Client Portal: your infectious disease screening form',
    );
    expect(screening).toHaveLength(1);
    expect(screening[0]?.textBody).toContain('We charged $410.97 for White Glove Labs');

    // The same key now answers the completed form; nothing is charged again.
    const replay = await screen(client.cookie, key);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().TransactionId).toBe(after.charges[0]?.gatewayTransactionId);
    expect((await stateOf(client.id)).charges).toHaveLength(1);
  });

  it('waits while its charge is still unknown at the gateway, then completes: never given back meanwhile', async () => {
    const client = await clientWithCard();
    gatewayFault = 'lost-and-unknown';
    expect((await screen(client.cookie)).statusCode).toBe(503);

    t.clock.advance(6_000);
    await reconcile(t.app.deps, log);
    const waiting = await stateOf(client.id);
    expect(waiting.forms.map((f) => f.status)).toEqual(['pending']);
    expect(waiting.charges.map((c) => c.status)).toEqual(['in_progress']);
    // Another submission meanwhile neither takes the form over nor charges again.
    const meanwhile = await screen(client.cookie);
    expect(meanwhile.statusCode).toBe(409);
    expect(meanwhile.json().error).toBe(
      'This form is being submitted already. Please wait a moment and reload the page.',
    );
    expect((await stateOf(client.id)).charges).toHaveLength(1);

    gatewayFault = null;
    t.clock.advance(61_000);
    await reconcile(t.app.deps, log);
    await reconcile(t.app.deps, log);
    const after = await stateOf(client.id);
    expect(after.charges.map((c) => [c.status, c.totalCents])).toEqual([['approved', 41_097]]);
    expect(after.forms.map((f) => [f.status, f.paymentId])).toEqual([['completed', after.charges[0]?.id]]);
    expect(after.completed).toBe(true);
  });
});
