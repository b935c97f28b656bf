import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client-basics';
import { addDays, addYears } from '../../../domain/dates';
import {
  annualStorageFees,
  clientActivities,
  clients,
  operations,
  payments,
  sandboxTransactions,
} from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { bankedClient } from '../../testing/billing-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { renewalDeps } from './billing-routes';
import { runBilling } from './billing-run';
import { batchesOf } from './paid-order-batch';

/**
 * The renewals of a billing day are charged in batches (paid-order-batch.ts): one transaction
 * commits a batch's intents, the gateway is asked for each charge, one transaction records them.
 * Each year is still charged once, a decline still counts as a try, and a batch whose record never
 * committed is settled from the gateway by reconciliation, once, with one receipt e-mail.
 */

const log = { info() {}, warn() {} };
let t: TestApp;
let today: string;

beforeAll(async () => {
  t = await startTestApp();
  today = todayFor(t.clock.now());
});
afterAll(async () => {
  await t.close();
});

const run = (asOf: string, actIds: string[]) =>
  runBilling(renewalDeps(t.app.deps), { asOf, clientActIds: actIds });

async function approvedAtGateway(customerRefs: string[]) {
  return t.db
    .select()
    .from(sandboxTransactions)
    .where(
      and(inArray(sandboxTransactions.customerRef, customerRefs), eq(sandboxTransactions.status, 'approved')),
    );
}

describe('batches of renewals', () => {
  it('put one order of a client in each batch, in the order given', () => {
    const order = (id: string) => ({ id, clientId: id.slice(0, 1) });
    const ids = (batches: { id: string }[][]) => batches.map((b) => b.map((o) => o.id));
    expect(ids(batchesOf(['a1', 'b1', 'a2', 'c1', 'a3'].map(order), 2))).toEqual([
      ['a1', 'b1'],
      ['a2', 'c1'],
      ['a3'],
    ]);
    expect(ids(batchesOf(['a1', 'a2', 'b1', 'b2', 'c1'].map(order), 3))).toEqual([
      ['a1', 'b1', 'c1'],
      ['a2', 'b2'],
    ]);
  });

  it('charge 25 clients due on one day once each, count a decline as a try, and e-mail each receipt', async () => {
    const due = addDays(today, 26);
    const paying = await Promise.all(Array.from({ length: 24 }, () => bankedClient(t, due)));
    const declined = await bankedClient(t, due, { behavior: 'charge:insufficient_funds', last4: '4242' });
    const all = [...paying, declined];
    const actIds = all.map((c) => c.actId);
    expect(await run(addDays(due, -1), actIds)).toMatchObject({ notices: 25, charges: 0 });
    expect(await run(due, actIds)).toMatchObject({ charges: 24, declines: 1, retries: 1, overdue: 0 });

    expect(await approvedAtGateway(all.map((c) => c.customerRef))).toHaveLength(24);
    const ledger = await t.db
      .select()
      .from(payments)
      .where(
        and(
          inArray(
            payments.clientId,
            all.map((c) => c.id),
          ),
          eq(payments.status, 'approved'),
        ),
      );
    expect(ledger.map((p) => p.totalCents)).toEqual(Array(24).fill(35_000));
    const years = await t.db
      .select()
      .from(annualStorageFees)
      .where(
        inArray(
          annualStorageFees.clientId,
          all.map((c) => c.id),
        ),
      );
    expect(years.filter((y) => y.status === 'paid' && y.claimOperationId === null)).toHaveLength(24);
    expect(years.find((y) => y.clientId === declined.id)).toMatchObject({
      status: 'retrying',
      tries: 1,
      lastDecline: 'insufficient_funds',
      nextTryOn: addDays(due, 3),
      claimOperationId: null,
    });
    const paidUntil = await t.db
      .select({ id: clients.id, paidUntil: clients.annualStoragePaidUntil })
      .from(clients)
      .where(
        inArray(
          clients.id,
          paying.map((c) => c.id),
        ),
      );
    expect(new Set(paidUntil.map((c) => c.paidUntil))).toEqual(new Set([addYears(due, 1)]));
    const activity = await t.db
      .select()
      .from(clientActivities)
      .where(
        inArray(
          clientActivities.clientId,
          all.map((c) => c.id),
        ),
      );
    expect(activity.filter((a) => a.type === 'Annual Storage Fee').map((a) => a.amountCents)).toEqual(
      Array(24).fill(35_000),
    );
    const [first] = paying;
    const receipts = (await t.mailTo(first?.email ?? '')).filter((m) => m.subject.startsWith('Receipt'));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.textBody).toContain('We charged $350.00 to your Visa ending 4242');
    expect(receipts[0]?.textBody).toMatch(/\[Attachment: receipt\.pdf, application\/pdf, \d{4,} bytes\]/);
    // No operation of the run is left running.
    const running = await t.db
      .select()
      .from(operations)
      .where(and(eq(operations.kind, 'storage-renewal'), eq(operations.status, 'running')));
    expect(running).toHaveLength(0);
  });

  it('leave charges approved but never recorded to reconciliation, which records each once', async () => {
    const due = addDays(today, 28);
    const pair = [await bankedClient(t, due), await bankedClient(t, due)];
    const actIds = pair.map((c) => c.actId);
    await run(addDays(due, -1), actIds);
    // The record's transaction fails (the database went away as it wrote the receipts).
    const mailer = t.app.deps.mailer;
    const enqueueMany = mailer.enqueueMany;
    mailer.enqueueMany = async () => {
      throw new Error('the connection to the database was lost');
    };
    try {
      expect(await run(due, actIds)).toMatchObject({ charges: 0, declines: 0 });
    } finally {
      mailer.enqueueMany = enqueueMany;
    }
    expect(await approvedAtGateway(pair.map((c) => c.customerRef))).toHaveLength(2);
    const held = await t.db
      .select()
      .from(annualStorageFees)
      .where(
        inArray(
          annualStorageFees.clientId,
          pair.map((c) => c.id),
        ),
      );
    expect(held.map((y) => [y.status, y.claimOperationId !== null])).toEqual([
      ['noticed', true],
      ['noticed', true],
    ]);

    await reconcile(t.app.deps, log);
    const settled = await t.db
      .select()
      .from(annualStorageFees)
      .where(
        inArray(
          annualStorageFees.clientId,
          pair.map((c) => c.id),
        ),
      );
    expect(settled.map((y) => [y.status, y.claimOperationId])).toEqual([
      ['paid', null],
      ['paid', null],
    ]);
    for (const client of pair) {
      const receipts = (await t.mailTo(client.email)).filter((m) => m.subject.startsWith('Receipt'));
      expect(receipts).toHaveLength(1);
    }
    // Later days charge nothing more.
    expect(await run(addDays(due, 14), actIds)).toMatchObject({ charges: 0 });
    expect(await approvedAtGateway(pair.map((c) => c.customerRef))).toHaveLength(2);
  });
});
