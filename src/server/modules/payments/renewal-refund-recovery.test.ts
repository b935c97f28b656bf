import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client-basics';
import { addDays, addYears } from '../../../domain/dates';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway';
import {
  annualStorageFees,
  clientActivities,
  clients,
  payments,
  refunds,
  sandboxRefunds,
  sandboxTransactions,
} from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { bankedClient } from '../../testing/billing-fixtures';
import { staffSession } from '../../testing/staff-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { renewalDeps } from './billing-routes';
import { runBilling } from './billing-run';

/**
 * A renewal whose charge's answer is lost (the connection drops after the gateway approved, the
 * gateway times out): the year stays held, no later day charges it again, and reconciliation
 * settles it from the gateway's records, once.
 */

let fault: null | 'lost-after-approval' | 'timeout' | 'refund-lost' = null;

function faulty(real: PaymentGateway): PaymentGateway {
  return {
    ...real,
    name: real.name,
    notFoundGraceMs: 0,
    saveMethod: (request) => real.saveMethod(request),
    async refund(request) {
      const result = await real.refund(request);
      if (fault === 'refund-lost') throw new Error('the connection to the gateway was lost');
      return result;
    },
    void: (request) => real.void(request),
    lookupRefund: (request) => real.lookupRefund(request),
    lookupCharge: (request) => real.lookupCharge(request),
    async charge(request) {
      if (fault === 'timeout') {
        return { outcome: 'error', reason: 'gateway_unavailable', message: 'timed out', transactionId: null };
      }
      const result = await real.charge(request);
      if (fault === 'lost-after-approval') throw new Error('the connection to the gateway was lost');
      return result;
    },
  };
}

const log = { info() {}, warn() {} };
let t: TestApp;
let today: string;

beforeAll(async () => {
  t = await startTestApp({}, { gateway: faulty });
  today = todayFor(t.clock.now());
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  fault = null;
});

const run = (asOf: string, actId: string) =>
  runBilling(renewalDeps(t.app.deps), { asOf, clientActIds: [actId] });

async function stateOf(client: { id: string; customerRef: string }) {
  const [year] = await t.db.select().from(annualStorageFees).where(eq(annualStorageFees.clientId, client.id));
  const [row] = await t.db
    .select({ paidUntil: clients.annualStoragePaidUntil })
    .from(clients)
    .where(eq(clients.id, client.id));
  const charges = await t.db
    .select()
    .from(sandboxTransactions)
    .where(
      and(
        eq(sandboxTransactions.customerRef, client.customerRef),
        eq(sandboxTransactions.status, 'approved'),
      ),
    );
  const ledger = await t.db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, client.id), eq(payments.status, 'approved')));
  const activity = await t.db.select().from(clientActivities).where(eq(clientActivities.clientId, client.id));
  return { year, paidUntil: row?.paidUntil, charges, ledger, activity };
}

describe('a renewal whose outcome was not recorded', () => {
  it('is held while in doubt, settled as paid once by reconciliation, and never charged again', async () => {
    const due = addDays(today, 24);
    const client = await bankedClient(t, due);
    fault = 'lost-after-approval';
    expect(await run(due, client.actId)).toMatchObject({ charges: 0, declines: 0 });
    fault = null;
    let state = await stateOf(client);
    expect(state.charges).toHaveLength(1);
    expect(state.year?.claimOperationId).not.toBeNull();
    // The next days leave the held year alone: no second charge while its outcome is unknown.
    expect(await run(addDays(due, 4), client.actId)).toMatchObject({ charges: 0 });
    expect((await stateOf(client)).charges).toHaveLength(1);

    await reconcile(t.app.deps, log);
    state = await stateOf(client);
    expect(state.year).toMatchObject({ status: 'paid', claimOperationId: null });
    expect(state.paidUntil).toBe(addYears(due, 1));
    expect(state.ledger.map((p) => p.totalCents)).toEqual([35_000]);
    expect(state.activity.filter((a) => a.type === 'Annual Storage Fee')).toHaveLength(1);
    expect(await run(addDays(due, 20), client.actId)).toMatchObject({ charges: 0 });
    expect((await stateOf(client)).charges).toHaveLength(1);
  });

  it('counts a charge the gateway never saw as a soft try once reconciliation settles it, and retries on day 3', async () => {
    const due = addDays(today, 27);
    const client = await bankedClient(t, due);
    fault = 'timeout';
    expect(await run(due, client.actId)).toMatchObject({ charges: 0, declines: 0 });
    fault = null;
    // In doubt until the gateway's records say it never arrived: nothing taken, one try counted.
    await reconcile(t.app.deps, log);
    let state = await stateOf(client);
    expect(state.year).toMatchObject({
      status: 'retrying',
      tries: 1,
      lastDecline: 'unknown',
      nextTryOn: addDays(due, 3),
      claimOperationId: null,
    });
    expect(state.charges).toHaveLength(0);
    expect(await run(addDays(due, 3), client.actId)).toMatchObject({ charges: 1 });
    state = await stateOf(client);
    expect(state.year).toMatchObject({ status: 'paid', paidOn: addDays(due, 3), recovered: true });
    expect(state.charges).toHaveLength(1);
  });
});

describe('a refund whose answer was lost', () => {
  it('is found at the gateway by reconciliation and recorded once', async () => {
    const due = addDays(today, 23);
    const client = await bankedClient(t, due);
    expect(await run(due, client.actId)).toMatchObject({ charges: 1 });
    const [charge] = (await stateOf(client)).ledger;
    // Two days on, the charge has settled: it can be refunded (not voided).
    t.clock.advance(2 * 24 * 60 * 60 * 1000);
    const admin = await staffSession(t);
    fault = 'refund-lost';
    const lost = await t.app.inject({
      method: 'POST',
      url: '/api/staff/refunds',
      headers: { cookie: admin, 'idempotency-key': `lost-refund-${client.actId}` },
      payload: { paymentId: charge?.id, amount: '50.00', reason: 'Goodwill' },
    });
    expect(lost.statusCode).toBeGreaterThanOrEqual(500);
    fault = null;
    await reconcile(t.app.deps, log);
    const rows = await t.db
      .select()
      .from(refunds)
      .where(eq(refunds.paymentId, charge?.id ?? ''));
    expect(rows).toMatchObject([{ status: 'refunded', amountCents: 5_000 }]);
    const atGateway = await t.db
      .select()
      .from(sandboxRefunds)
      .where(eq(sandboxRefunds.customerRef, client.customerRef));
    expect(atGateway).toHaveLength(1);
    const replay = await t.app.inject({
      method: 'POST',
      url: '/api/staff/refunds',
      headers: { cookie: admin, 'idempotency-key': `lost-refund-${client.actId}` },
      payload: { paymentId: charge?.id, amount: '50.00', reason: 'Goodwill' },
    });
    expect(replay.json()).toMatchObject({ kind: 'refund', amountCents: 5_000, leftCents: 30_000 });
  });
});
