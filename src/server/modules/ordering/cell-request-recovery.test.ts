import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendCellRequestSchema } from '../../../domain/cell-request';
import { todayFor } from '../../../domain/client';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway';
import {
  annualStorageFees,
  clientActivities,
  clients,
  operations,
  outboxMessages,
  payments,
  sandboxTransactions,
  vialRequests,
} from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { jsonSha256 } from '../../lib/secrets';
import { validTuesday } from '../../testing/dates';
import { addReleaseClient, saveCardOnFile } from '../../testing/form-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';

/**
 * A vial request whose process died part-way (DESIGN.md section 5): after the request was
 * claimed (pre-paid vial reserved) but before the gateway was asked, and after the gateway
 * charged but before anything recorded it. Reconciliation finishes the one and undoes the other:
 * at most one charge, an order for every charge, and the client never left blocked.
 */

type Fault = null | 'die-before-charge' | 'die-after-charge';
let fault: Fault = null;
let reached = false;
let wake: (() => void) | null = null;

function dying(real: PaymentGateway): PaymentGateway {
  return {
    ...real,
    name: real.name,
    notFoundGraceMs: real.notFoundGraceMs,
    saveMethod: (request) => real.saveMethod(request),
    lookupCharge: (request) => real.lookupCharge(request),
    async charge(request) {
      const at = fault;
      if (at === 'die-before-charge') {
        reached = true;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        return { outcome: 'error', reason: 'gateway_unavailable', message: 'stopped', transactionId: null };
      }
      const result = await real.charge(request);
      if (at === 'die-after-charge') {
        reached = true;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      return result;
    },
  };
}

const log = { info() {}, warn() {} };
let t: TestApp;
let today: string;
let keySeq = 0;
const newKey = () => `vial-recovery-${++keySeq}-${Date.now()}`;

beforeAll(async () => {
  t = await startTestApp({ RUN_ONCE_LEASE_MS: '5000' }, { gateway: dying });
  today = todayFor(t.clock.now());
});
afterAll(async () => {
  wake?.();
  await t.close();
});
beforeEach(() => {
  fault = null;
  reached = false;
  wake = null;
});

// 2 vials, one pre-paid: $500 + CPP $50 + FedEx to New York $118.38 + 3% = $688.43.
const TOTAL = 68_843;

function order() {
  return {
    NumberOfVials: 2,
    CPP: 'Yes',
    shipping_method: 'FedEx',
    ShipmentDate: validTuesday(today, 28),
    clinicName: 'Hudson Orthopedic Associates',
    firstName: 'Samuel',
    lastName: 'Okafor',
    ShippingEmail: 'receiving@hudson-ortho.example.com',
    phone: '2125550188',
    street: '160 East 56th Street',
    city: 'New York',
    state: 'NY',
    country: 'United States',
    ZipCode: '10022',
    Tissue_Info: 'Adipose',
    Infectious_Disease: 'not treated',
    authorize: true,
    PaymentMethod: 'Credit Card',
    expectedTotalCents: TOTAL,
  };
}

function send(cookie: string, key: string, body = order()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/send_CellRequest',
    headers: { cookie, 'idempotency-key': key },
    payload: body,
  });
}

async function client() {
  // 10 Longevity vials (1 million cells each): they cover one of the 2 vials ordered.
  const row = await addReleaseClient(t.db, { longevityVialsAvailable: 10 });
  const cookie = await t.signIn(row.actId);
  await saveCardOnFile(t, cookie, newKey());
  return { ...row, cookie };
}

async function stateOf(clientId: string) {
  const requests = await t.db.select().from(vialRequests).where(eq(vialRequests.clientId, clientId));
  const ledger = await t.db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, clientId), eq(payments.purpose, 'vial_request')));
  const refs = ledger.flatMap((row) => (row.reference ? [row.reference] : []));
  const charges = (await t.db.select().from(sandboxTransactions)).filter((row) =>
    refs.includes(row.reference),
  );
  const activity = (
    await t.db.select().from(clientActivities).where(eq(clientActivities.clientId, clientId))
  ).filter((row) => row.type === 'Dose Retrieval Fee');
  const [holder] = await t.db.select().from(clients).where(eq(clients.id, clientId));
  const ops = await t.db
    .select()
    .from(operations)
    .where(eq(operations.scope, `client:${clientId}`));
  return { requests, ledger, charges, activity, vials: holder?.longevityVialsAvailable, ops };
}

/** Waits until the submission is at the gateway, then kills its owner: its lease lapses unrenewed. */
async function dieAtTheGateway(clientId: string) {
  for (let i = 0; i < 250 && !reached; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(reached).toBe(true);
  await t.db
    .update(operations)
    .set({ leaseToken: 'the process that died', leaseUntil: new Date(t.clock.now().getTime() - 1) })
    .where(eq(operations.scope, `client:${clientId}`));
}

/**
 * Sweeps until nothing is left to settle, a minute apart (a charge still in doubt is looked at
 * later), and signs the client in again (the minutes passed end an idle session).
 */
async function reconcileAll(holder: { actId: string; cookie: string }) {
  for (let sweep = 0; sweep < 3; sweep += 1) {
    await reconcile(t.app.deps, log);
    t.clock.advance(61_000);
  }
  holder.cookie = await t.signIn(holder.actId);
}

describe('a vial request whose process died', () => {
  it('before the gateway was asked: given back, the pre-paid vial returned, nothing charged, the client free to order', async () => {
    const holder = await client();
    const key = newKey();
    fault = 'die-before-charge';
    const stuck = send(holder.cookie, key);
    await dieAtTheGateway(holder.id);

    // Claimed and dead: the request is held, the vial reserved.
    const held = await stateOf(holder.id);
    expect(held.requests.map((r) => r.status)).toEqual(['pending']);
    expect(held.vials).toBe(0);

    await reconcileAll(holder);
    const after = await stateOf(holder.id);
    expect(after.requests).toHaveLength(0);
    expect(after.vials).toBe(10);
    expect(after.charges).toHaveLength(0);
    expect(after.activity).toHaveLength(0);
    expect(after.ops.every((op) => op.status !== 'running')).toBe(true);

    // The page's retry with the same key hears that nothing was ordered.
    fault = null;
    const replay = await send(holder.cookie, key);
    expect(replay.statusCode).toBeGreaterThanOrEqual(400);
    expect(replay.statusCode).toBeLessThan(500);

    // Not blocked: a new submission orders and charges once, with the returned vial.
    const again = await send(holder.cookie, newKey());
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().amountChargedCents).toBe(TOTAL);

    // The dead owner wakes: it changes nothing.
    wake?.();
    expect((await stuck).statusCode).toBeGreaterThanOrEqual(400);
    const final = await stateOf(holder.id);
    expect(final.charges).toHaveLength(1);
    expect(final.requests.map((r) => r.status)).toEqual(['requested']);
    expect(final.activity).toHaveLength(1);
    expect(final.vials).toBe(0);
  });

  it('after the gateway charged, before anything was recorded: the order is completed once, with its activity and e-mail', async () => {
    const holder = await client();
    const key = newKey();
    const body = order();
    fault = 'die-after-charge';
    const stuck = send(holder.cookie, key, body);
    await dieAtTheGateway(holder.id);
    expect((await stateOf(holder.id)).requests.map((r) => r.status)).toEqual(['pending']);

    // Money was taken: meanwhile the same key does not charge again.
    fault = null;
    await reconcileAll(holder);
    const after = await stateOf(holder.id);
    expect(after.charges).toHaveLength(1);
    const approved = after.ledger.filter((row) => row.status === 'approved');
    expect(approved).toHaveLength(1);
    expect(approved[0]?.totalCents).toBe(TOTAL);
    expect(after.requests).toHaveLength(1);
    expect(after.requests[0]).toMatchObject({
      status: 'requested',
      paymentId: approved[0]?.id,
      transactionId: after.charges[0]?.transactionId,
      longevityVialsUsed: 10,
      longevityCoveredVials: 1,
    });
    expect(after.vials).toBe(0);
    expect(after.activity).toHaveLength(1);
    expect(after.activity[0]).toMatchObject({ paymentId: approved[0]?.id, amountCents: TOTAL });
    const mail = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.dedupeKey, `vial-request:${after.requests[0]?.id}:${holder.email}`));
    expect(mail).toHaveLength(1);
    expect(mail[0]?.textBody).toContain('Total charged: $688.43');

    // The page's retry with the same key gets the order, charged once; the request hash is the body's.
    const [op] = after.ops.filter((o) => o.kind === 'vial-request');
    expect(op?.requestHash).toBe(jsonSha256(sendCellRequestSchema.parse(body)));
    const replay = await send(holder.cookie, key, body);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json()).toMatchObject({
      id: after.requests[0]?.id,
      TransactionId: after.charges[0]?.transactionId,
      amountChargedCents: TOTAL,
    });

    // The dead owner wakes with the gateway's answer: nothing is charged or recorded twice.
    wake?.();
    await stuck;
    await reconcileAll(holder);
    const final = await stateOf(holder.id);
    expect(final.charges).toHaveLength(1);
    expect(final.requests).toHaveLength(1);
    expect(final.activity).toHaveLength(1);
    expect(final.ledger.filter((row) => row.status === 'approved')).toHaveLength(1);
  });

  describe('with two overdue years of annual storage joining the charge', () => {
    // $688.43, and two noticed years at the card amount their notice fixed, $350.00 each: $700.00.
    const WITH_YEARS = TOTAL + 70_000;

    async function owingClient() {
      const holder = await client();
      await t.db.insert(annualStorageFees).values(
        ['2024-06-19', '2025-06-19'].map((dueDate) => ({
          clientId: holder.id,
          dueDate,
          amountCents: 35_000,
          achAmountCents: 33_981,
          status: 'overdue' as const,
        })),
      );
      return holder;
    }
    const yearsOf = (clientId: string) =>
      t.db.select().from(annualStorageFees).where(eq(annualStorageFees.clientId, clientId));

    it('died after the charge: the years stay held by the order, then are paid by its charge once', async () => {
      const holder = await owingClient();
      fault = 'die-after-charge';
      const stuck = send(holder.cookie, newKey(), { ...order(), expectedTotalCents: WITH_YEARS });
      await dieAtTheGateway(holder.id);
      const held = await yearsOf(holder.id);
      expect(held.every((y) => y.claimOperationId !== null && y.status === 'overdue')).toBe(true);

      fault = null;
      await reconcileAll(holder);
      const approved = (await stateOf(holder.id)).ledger.filter((row) => row.status === 'approved');
      expect(approved.map((row) => row.totalCents)).toEqual([WITH_YEARS]);
      const paid = await yearsOf(holder.id);
      expect(paid.map((y) => [y.status, y.paymentId, y.claimOperationId])).toEqual([
        ['paid', approved[0]?.id, null],
        ['paid', approved[0]?.id, null],
      ]);
      wake?.();
      await stuck;
      await reconcileAll(holder);
      expect((await stateOf(holder.id)).charges).toHaveLength(1);
    });

    it('died before the charge: given back, the years free and still overdue', async () => {
      const holder = await owingClient();
      fault = 'die-before-charge';
      const stuck = send(holder.cookie, newKey(), { ...order(), expectedTotalCents: WITH_YEARS });
      await dieAtTheGateway(holder.id);
      fault = null;
      await reconcileAll(holder);
      const years = await yearsOf(holder.id);
      expect(years.map((y) => [y.status, y.paymentId, y.claimOperationId])).toEqual([
        ['overdue', null, null],
        ['overdue', null, null],
      ]);
      expect((await stateOf(holder.id)).charges).toHaveLength(0);
      wake?.();
      await stuck;
    });
  });
});
