import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChargeLookup, PaymentGateway } from '../../adapters/payments/payment-gateway';
import {
  annualStorageFees,
  clientActivities,
  clients,
  operations,
  outboxMessages,
  paymentMethods,
  payments,
  sandboxTransactions,
} from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { addClient, newCardFields } from '../../testing/form-fixtures';
import { tokenizeCard } from '../../testing/sandbox-tokens';
import { startTestApp, type TestApp } from '../../testing/test-app';

/**
 * Payments that survive what goes wrong between the gateway and the ledger: an answer lost after
 * the gateway approved, a timeout, a charge held for review, a process that died holding its
 * claim. Reconciliation settles each from the gateway's own records, once.
 */

type Fault = null | 'lost-after-approval' | 'timeout' | 'held-for-review' | 'hang-save';
let fault: Fault = null;
let lookupOverride: ChargeLookup | null = null;
let releaseHang: (() => void) | null = null;

function faulty(real: PaymentGateway): PaymentGateway {
  return {
    name: real.name,
    notFoundGraceMs: real.notFoundGraceMs,
    refund: (request) => real.refund(request),
    void: (request) => real.void(request),
    lookupRefund: (request) => real.lookupRefund(request),
    async saveMethod(request) {
      if (fault === 'hang-save') {
        await new Promise<void>((resolve) => {
          releaseHang = resolve;
        });
        return { outcome: 'error', reason: 'gateway_unavailable', message: 'stopped' };
      }
      return real.saveMethod(request);
    },
    async charge(request) {
      if (fault === 'timeout') {
        return { outcome: 'error', reason: 'gateway_unavailable', message: 'timed out', transactionId: null };
      }
      const result = await real.charge(request);
      if (fault === 'lost-after-approval') throw new Error('the connection to the gateway was lost');
      if (fault === 'held-for-review' && result.outcome === 'approved') {
        return {
          outcome: 'error',
          reason: 'processing_error',
          message: 'held for review',
          transactionId: result.transactionId,
        };
      }
      return result;
    },
    async lookupCharge(request) {
      return lookupOverride ?? real.lookupCharge(request);
    },
  };
}

const log = { info() {}, warn() {} };
let t: TestApp;
let keySeq = 0;
const newKey = () => `reconcile-${++keySeq}-${Date.now()}`;

beforeAll(async () => {
  t = await startTestApp({}, { gateway: faulty });
});
afterAll(async () => {
  releaseHang?.();
  await t.close();
});
beforeEach(() => {
  fault = null;
  lookupOverride = null;
});

/** A client two years overdue ($339.81 each: $679.62, $700.01 by card), signed in. */
async function overdueClient() {
  const client = await addClient(t.db, { annualStoragePaidUntil: '2020-01-01' });
  await t.db.insert(annualStorageFees).values([
    { clientId: client.id, dueDate: '2024-01-01', amountCents: 33_981 },
    { clientId: client.id, dueDate: '2025-01-01', amountCents: 33_981 },
  ]);
  return { ...client, cookie: await t.signIn(client.actId) };
}

/** A new card's save body: display fields and a fresh token, never the number. */
async function cardBody(extra: Record<string, unknown> = {}) {
  const fields = newCardFields(t, await tokenizeCard(t, '4242424242424242'));
  return {
    ...fields,
    Credit_Card_Holder_Country: undefined,
    Country: fields.Credit_Card_Holder_Country,
    Payment_Type: 'CC',
    PaymentSource: 'CP Payment Info Page',
    ...extra,
  };
}

function post(cookie: string, key: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/set_PaymentInfo',
    headers: { cookie, 'idempotency-key': key },
    payload: body,
  });
}

async function saveCard(cookie: string, key = newKey()) {
  return post(cookie, key, await cardBody());
}

async function stateOf(clientId: string) {
  const ledger = await t.db.select().from(payments).where(eq(payments.clientId, clientId));
  const fees = await t.db.select().from(annualStorageFees).where(eq(annualStorageFees.clientId, clientId));
  const activity = await t.db.select().from(clientActivities).where(eq(clientActivities.clientId, clientId));
  const [client] = await t.db.select().from(clients).where(eq(clients.id, clientId));
  const methods = await t.db.select().from(paymentMethods).where(eq(paymentMethods.clientId, clientId));
  const refs = ledger.flatMap((row) => (row.reference ? [row.reference] : []));
  const charges = (await t.db.select().from(sandboxTransactions)).filter((row) =>
    refs.includes(row.reference),
  );
  return { ledger, fees, activity, client, methods, charges };
}

const settle = () => reconcile(t.app.deps, log);

describe('reconciliation of charges whose outcome was not recorded', () => {
  it('applies once a charge the gateway approved after the answer was lost: fees, activity, e-mail, replay', async () => {
    const client = await overdueClient();
    const key = newKey();
    const body = await cardBody();
    fault = 'lost-after-approval';
    const lost = await post(client.cookie, key, body);
    expect(lost.statusCode, lost.body).toBe(503);
    expect(lost.json().code).toBe('PAYMENT_PENDING');

    // Money was taken: until reconciliation says so, the fees stay claimed and nothing is charged again.
    fault = null;
    const meanwhile = await saveCard(client.cookie);
    expect(meanwhile.statusCode).toBe(409);
    expect((await stateOf(client.id)).charges).toHaveLength(1);

    expect((await settle()).settled).toBe(1);
    const after = await stateOf(client.id);
    const approved = after.ledger.filter((row) => row.status === 'approved');
    expect(approved).toHaveLength(1);
    expect(approved[0]?.totalCents).toBe(70_001);
    expect(approved[0]?.gatewayTransactionId).toBe(after.charges[0]?.transactionId);
    expect(after.fees.every((fee) => fee.paidAt && fee.paymentId === approved[0]?.id)).toBe(true);
    expect(after.client?.annualStoragePaidUntil).toBe('2026-01-01');
    expect(after.activity.filter((row) => row.paymentId === approved[0]?.id)).toHaveLength(1);
    expect(after.activity[0]?.amountCents).toBe(70_001);
    const receipts = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.dedupeKey, `payment:${approved[0]?.id}`));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.textBody).toContain('$700.01');

    // The page's retry with the same key now gets the first answer; a second sweep changes nothing.
    const replay = await post(client.cookie, key, body);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json()).toMatchObject({
      TransactionId: after.charges[0]?.transactionId,
      amountCharged: 700.01,
    });
    expect((await settle()).settled).toBe(0);
    expect((await stateOf(client.id)).charges).toHaveLength(1);
  });

  it('gives back the fees of a charge that timed out and never reached the gateway; the next save pays them', async () => {
    const client = await overdueClient();
    fault = 'timeout';
    const timedOut = await saveCard(client.cookie);
    expect(timedOut.statusCode, timedOut.body).toBe(503);
    expect((await settle()).settled).toBe(1);
    const given = await stateOf(client.id);
    expect(given.fees.every((fee) => fee.paymentId === null && fee.paidAt === null)).toBe(true);
    expect(given.ledger[0]?.status).toBe('declined');
    // A card whose charge did not go through is not kept on file.
    expect(given.methods).toHaveLength(0);

    fault = null;
    const paid = await saveCard(client.cookie);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().amountCharged).toBe(700.01);
    expect((await stateOf(client.id)).charges).toHaveLength(1);
  });

  it('keeps a charge held for review in doubt, fees held, until the gateway says it was captured', async () => {
    const client = await overdueClient();
    fault = 'held-for-review';
    const held = await saveCard(client.cookie);
    expect(held.statusCode, held.body).toBe(503);

    lookupOverride = { status: 'pending', transactionId: 'review' };
    await settle();
    const [op] = await t.db
      .select()
      .from(operations)
      .where(and(eq(operations.scope, `client:${client.id}`), eq(operations.kind, 'payment-method')));
    expect(op?.status).toBe('running');
    expect(
      (await stateOf(client.id)).fees.every((fee) => fee.paymentId !== null && fee.paidAt === null),
    ).toBe(true);
    // Looked at again a minute later: nothing before.
    lookupOverride = null;
    expect((await settle()).settled).toBe(0);
    t.clock.advance(61_000);
    expect((await settle()).settled).toBe(1);
    const after = await stateOf(client.id);
    expect(after.ledger.filter((row) => row.status === 'approved')).toHaveLength(1);
    expect(after.fees.every((fee) => fee.paidAt !== null)).toBe(true);
  });
});

describe('the run-once engine on a payment', () => {
  it('replays a success to the same key and body, even once nothing is due any more', async () => {
    const client = await overdueClient();
    const key = newKey();
    const body = await cardBody({ expectedTotalCents: 70_001 });
    const send = () => post(client.cookie, key, body);
    const first = await send();
    expect(first.statusCode, first.body).toBe(200);
    const again = await send();
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await stateOf(client.id)).charges).toHaveLength(1);
  });

  it('takes over a claim whose owner died as soon as its lease lapses, and frees the fees', async () => {
    const client = await overdueClient();
    const key = newKey();
    const body = await cardBody();
    fault = 'hang-save';
    const stuck = post(client.cookie, key, body);
    // The owner holds its claim: the ledger row and the fees are taken.
    let ledger: (typeof payments.$inferSelect)[] = [];
    for (let i = 0; i < 100 && ledger.length === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ledger = (await stateOf(client.id)).ledger;
    }
    expect(ledger).toHaveLength(1);
    // The owner dies: its renewals stop, and its lease lapses.
    await t.db
      .update(operations)
      .set({ leaseToken: 'dead', leaseUntil: new Date(t.clock.now().getTime() - 1) })
      .where(eq(operations.scope, `client:${client.id}`));

    fault = null;
    // The page's retry finds the claim abandoned, settles it (nothing was charged) and says so.
    const retried = await post(client.cookie, key, body);
    expect(retried.statusCode, retried.body).toBe(503);
    expect(retried.json().error).toContain('nothing was charged');
    const freed = await t.db
      .select()
      .from(annualStorageFees)
      .where(and(eq(annualStorageFees.clientId, client.id), isNull(annualStorageFees.paymentId)));
    expect(freed).toHaveLength(2);
    const paid = await saveCard(client.cookie);
    expect(paid.statusCode, paid.body).toBe(200);

    releaseHang?.();
    expect((await stuck).statusCode).toBeGreaterThanOrEqual(400);
    expect((await stateOf(client.id)).charges).toHaveLength(1);
  });
});
