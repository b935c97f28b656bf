import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientActivities,
  paymentMethods,
  refunds,
  sandboxPaymentMethods,
  sandboxRefunds,
  sandboxTransactions,
} from '../../db/schema';
import { addClient } from '../../testing/form-fixtures';
import { staffLevelMember, staffSession } from '../../testing/staff-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { chargeOnce } from './one-off-charge';

/**
 * Refunds (issue 22): a ledger entry linked to its charge, never more than was charged whatever
 * runs at once; a charge still in its open batch is voided whole; admins only, with a reason.
 */

let t: TestApp;
let admin: string;
let seq = 0;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await startTestApp();
  admin = await staffSession(t);
});
afterAll(async () => {
  await t.close();
});

/** A client charged `totalCents` by card (Visa ending 4242) through the one ledger. */
async function chargedClient(totalCents: number) {
  const client = await addClient(t.db);
  seq += 1;
  const ref = { paymentRef: `refund-test-pm-${seq}`, customerRef: `refund-test-cust-${seq}` };
  const card = { kind: 'card' as const, brand: 'Visa', last4: '4242', expiryMonth: 12, expiryYear: 2035 };
  await t.db
    .insert(sandboxPaymentMethods)
    .values({ ...ref, ...card, behavior: 'approve', createdAt: t.clock.now() });
  const [method] = await t.db
    .insert(paymentMethods)
    .values({
      clientId: client.id,
      ...card,
      gateway: 'sandbox',
      gatewayCustomerRef: ref.customerRef,
      gatewayPaymentRef: ref.paymentRef,
    })
    .returning();
  if (!method) throw new Error('no method');
  const charge = await chargeOnce(
    { ...t.app.deps, log: { warn() {} } },
    {
      clientId: client.id,
      source: 'CP Store',
      purpose: 'store_order',
      idempotencyKey: `refund-test-charge-${seq}`,
      request: {},
      amountCents: totalCents,
      feeCents: 0,
      kind: 'card',
      method: { onFile: method },
      description: 'Store order',
    },
  );
  return { ...client, paymentId: charge.paymentId, customerRef: ref.customerRef };
}

const refund = (body: object, key: string, cookie = admin) =>
  t.app.inject({
    method: 'POST',
    url: '/api/staff/refunds',
    headers: { cookie, 'idempotency-key': key },
    payload: body,
  });

/** The sandbox settles each day at 4:00 PM Pacific: two days on, every charge so far has settled. */
async function afterSettlement() {
  t.clock.advance(2 * DAY);
  admin = await staffSession(t);
}

describe('refunds', () => {
  it('voids a charge refunded whole before it settles: nothing moves, the client is told', async () => {
    const client = await chargedClient(35_000);
    const answer = await refund(
      { paymentId: client.paymentId, amount: '350.00', reason: 'Ordered twice' },
      `void-${client.actId}`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      kind: 'void',
      amountCents: 35_000,
      refundedCents: 35_000,
      leftCents: 0,
      message: 'The payment of $350.00 was voided before it settled: nothing was taken.',
    });
    const [sandbox] = await t.db
      .select()
      .from(sandboxTransactions)
      .where(eq(sandboxTransactions.customerRef, client.customerRef));
    expect(sandbox?.status).toBe('voided');
    const mail = (await t.mailTo(client.email)).find((m) => m.subject === 'Your refund');
    expect(mail?.textBody).toContain(
      'was cancelled before it settled: nothing was taken from your Visa ending in 4242',
    );
    const activity = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.clientId, client.id));
    expect(activity).toMatchObject([{ type: 'Refund', stageName: 'Voided', amountCents: 35_000 }]);
  });

  it('refunds part of a settled charge, answers a repeat of the key the same, and refuses more than is left', async () => {
    const client = await chargedClient(35_000);
    await afterSettlement();
    const first = await refund(
      { paymentId: client.paymentId, amount: '100.00', reason: 'Partial goodwill' },
      `part-${client.actId}`,
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      kind: 'refund',
      amountCents: 10_000,
      refundedCents: 10_000,
      leftCents: 25_000,
    });
    const again = await refund(
      { paymentId: client.paymentId, amount: '100.00', reason: 'Partial goodwill' },
      `part-${client.actId}`,
    );
    expect(again.json()).toEqual(first.json());
    const tooMuch = await refund(
      { paymentId: client.paymentId, amount: '250.01', reason: 'Too much' },
      `too-much-${client.actId}`,
    );
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().fields).toEqual({
      amount: 'The refund is more than what is left of this payment: at most $250.00 can be refunded.',
    });
    const mail = (await t.mailTo(client.email)).find((m) => m.subject === 'Your refund');
    expect(mail?.textBody).toContain('We refunded $100.00 of your payment of $350.00');
  });

  it('never refunds more than was charged when 20 refunds of one charge race', async () => {
    const client = await chargedClient(35_000);
    await afterSettlement();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        refund({ paymentId: client.paymentId, amount: '30.00', reason: 'Race' }, `race-${client.actId}-${i}`),
      ),
    );
    const done = answers.filter((a) => a.statusCode === 200);
    expect(done).toHaveLength(11);
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(9);
    const rows = await t.db
      .select()
      .from(refunds)
      .where(and(eq(refunds.paymentId, client.paymentId), eq(refunds.status, 'refunded')));
    expect(rows.reduce((sum, r) => sum + r.amountCents, 0)).toBe(33_000);
    const gatewayRefunds = await t.db
      .select()
      .from(sandboxRefunds)
      .where(and(eq(sandboxRefunds.customerRef, client.customerRef), eq(sandboxRefunds.status, 'refunded')));
    expect(gatewayRefunds.reduce((sum, r) => sum + r.amountCents, 0)).toBe(33_000);
  });

  it('is for admins, with a reason, up to $500.00 without a second approval', async () => {
    const client = await chargedClient(60_000);
    const member = await staffLevelMember(t, admin, `refund-member-${client.actId}@example.com`);
    const body = { paymentId: client.paymentId, amount: '10.00', reason: 'Staff' };
    expect((await refund(body, `member-${client.actId}`, member)).statusCode).toBe(404);
    const noReason = await refund({ ...body, reason: ' ' }, `no-reason-${client.actId}`);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fields).toMatchObject({ reason: 'Please give a reason for the refund' });
    const big = await refund({ ...body, amount: '500.01' }, `big-${client.actId}`);
    expect(big.statusCode).toBe(409);
    expect(big.json().error).toBe('A refund above $500.00 needs the approval of a second admin.');
    const unknown = await refund(
      { ...body, paymentId: '00000000-0000-4000-8000-000000000000' },
      `unknown-${client.actId}`,
    );
    expect(unknown.statusCode).toBe(404);
  });
});
