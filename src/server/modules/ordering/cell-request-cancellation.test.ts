import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway';
import { clientActivities, clients, payments, refunds, sandboxRefunds, vialRequests } from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { validTuesday } from '../../testing/dates';
import { addReleaseClient, saveCardOnFile, vialRequestBody } from '../../testing/form-fixtures';
import { staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * Cancelling a vial request (issue 22): the policy's cutoff and fee through the API, refunds once
 * under concurrency and after a lost answer, refused once shipped, scoped to the request's client.
 */

let lostRefundAnswer = false;
function faulty(real: PaymentGateway): PaymentGateway {
  return {
    ...real,
    name: real.name,
    notFoundGraceMs: 0,
    saveMethod: (request) => real.saveMethod(request),
    charge: (request) => real.charge(request),
    void: (request) => real.void(request),
    lookupRefund: (request) => real.lookupRefund(request),
    lookupCharge: (request) => real.lookupCharge(request),
    async refund(request) {
      const result = await real.refund(request);
      if (lostRefundAnswer) throw new Error('the connection to the gateway was lost');
      return result;
    },
  };
}

const DAY = 24 * 60 * 60_000;
const log = { info() {}, warn() {} };
let t: TestApp;
let keySeq = 0;
const newKey = () => `cancel-${++keySeq}`;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '10000', ...MANY_PAYMENT_ATTEMPTS }, { gateway: faulty });
});
afterAll(() => t.close());
beforeEach(() => {
  lostRefundAnswer = false;
});

/**
 * A new client with a consent, a Visa on file and one pre-paid Bio-Insurance vial, who orders 3
 * vials (1 pre-paid) with CPP by FedEx four weeks out: 2 x $500.00 + 3 x $25.00 + the offline
 * carrier's quote, 3% card fee.
 */
async function clientWithRequest(
  holdings: { bioInsuranceVialsAvailable: number; longevityVialsAvailable?: number } = {
    bioInsuranceVialsAvailable: 1,
  },
  vials = 3,
) {
  const client = await addReleaseClient(t.db, holdings);
  const cookie = await t.signIn(client.actId);
  await saveCardOnFile(t, cookie, newKey());
  const today = todayFor(t.clock.now());
  const placed = await t.app.inject({
    method: 'POST',
    url: '/api/pay/send_CellRequest',
    headers: { cookie, 'idempotency-key': newKey() },
    payload: vialRequestBody({ NumberOfVials: vials, CPP: 'Yes', ShipmentDate: validTuesday(today, 28) }),
  });
  expect(placed.statusCode, placed.body).toBe(200);
  const id = placed.json().id as string;
  const [charge] = await t.db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, client.id), eq(payments.purpose, 'vial_request')));
  if (!charge) throw new Error('no charge');
  return { ...client, clientId: client.id, cookie, id, charge };
}

const cancel = (cookie: string, id: string, key = newKey()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/pay/cancel_CellRequest',
    headers: { cookie, 'idempotency-key': key },
    payload: { id },
  });

const view = (cookie: string, id: string) =>
  t.app.inject({ method: 'GET', url: `/api/pay/get_CellRequest?id=${id}`, headers: { cookie } });

async function vialsOf(clientId: string) {
  const [row] = await t.db
    .select({ bio: clients.bioInsuranceVialsAvailable })
    .from(clients)
    .where(eq(clients.id, clientId));
  return row?.bio;
}

/** The client's pre-paid vials: Bio-Insurance (10 million cells each), Longevity (1 million cells each). */
async function holdingsOf(clientId: string) {
  const [row] = await t.db
    .select({ bio: clients.bioInsuranceVialsAvailable, longevity: clients.longevityVialsAvailable })
    .from(clients)
    .where(eq(clients.id, clientId));
  return row;
}

const refundsOf = (paymentId: string) => t.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));

describe('a client cancels a vial request', () => {
  it('before the cutoff: the page says everything comes back, and it does (voided, vial given back)', async () => {
    const c = await clientWithRequest();
    // 2 paid vials $1,000.00, CPP 3 x $25.00, FedEx to New York $118.38, 3% card fee $35.80.
    expect(c.charge.totalCents).toBe(122_918);
    expect(await vialsOf(c.clientId)).toBe(0);
    const before = (await view(c.cookie, c.id)).json();
    expect(before.cancellation).toMatchObject({
      state: 'open',
      phase: 'full',
      refundCents: c.charge.totalCents,
      keptCents: 0,
      returnedVials: 1,
    });
    expect(before.cancellation.lines).toContain('Your 1 pre-paid vial is given back to your plan.');

    const response = await cancel(c.cookie, c.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'cancelled',
      cancellation: { state: 'cancelled', by: 'client', refundCents: c.charge.totalCents, keptCents: 0 },
    });
    expect(response.json().cancellation.refundedCents).toBe(c.charge.totalCents);
    const [refund] = await refundsOf(c.charge.id);
    // Placed today and not yet in a settled batch: the whole charge is voided, nothing moves.
    expect(refund).toMatchObject({ kind: 'void', status: 'voided', amountCents: c.charge.totalCents });
    expect(await vialsOf(c.clientId)).toBe(1);
    const activity = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.clientId, c.clientId));
    expect(activity.map((a) => a.stageName)).toEqual(expect.arrayContaining(['Cancelled', 'Voided']));
    const mail = await t.mailTo(c.email);
    expect(mail.map((m) => m.subject)).toContain('Your stem cell request is cancelled');
    // The order's e-mail stated the policy with the price book's replacement fee.
    expect(
      mail.some((m) =>
        m.textBody.includes('A later cancellation costs a replacement fee of $250.00 per vial'),
      ),
    ).toBe(true);
  });

  it('20 at once, with different keys: one cancellation, one refund, the same answer to all', async () => {
    const c = await clientWithRequest();
    const answers = await Promise.all(Array.from({ length: 20 }, () => cancel(c.cookie, c.id)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.json().cancellation.cancelledAt)).size).toBe(1);
    const done = await refundsOf(c.charge.id);
    expect(done.filter((r) => r.status !== 'failed')).toHaveLength(1);
    expect(await vialsOf(c.clientId)).toBe(1);
  });

  it("another client's request, or an unknown one: the same 404; a physician cannot cancel", async () => {
    const c = await clientWithRequest();
    const other = await addReleaseClient(t.db);
    const otherCookie = await t.signIn(other.actId);
    const theirs = await cancel(otherCookie, c.id);
    const unknown = await cancel(otherCookie, '00000000-0000-4000-8000-000000000000');
    expect([theirs.statusCode, unknown.statusCode]).toEqual([404, 404]);
    expect(theirs.json().error).toBe(unknown.json().error);
    const physician = await t.signInPhysician('PHY20001');
    expect((await cancel(physician, c.id)).statusCode).toBe(404);
    const [row] = await t.db.select().from(vialRequests).where(eq(vialRequests.id, c.id));
    expect(row?.status).toBe('requested');
  });

  it('needs an Idempotency-Key', async () => {
    const c = await clientWithRequest();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pay/cancel_CellRequest',
      headers: { cookie: c.cookie },
      payload: { id: c.id },
    });
    expect(response.statusCode).toBe(400);
  });

  it('once shipped: refused with the policy’s words, nothing refunded', async () => {
    const c = await clientWithRequest();
    await t.db
      .update(vialRequests)
      .set({ status: 'shipped', shippedAt: t.clock.now() })
      .where(eq(vialRequests.id, c.id));
    expect((await view(c.cookie, c.id)).json().cancellation).toMatchObject({
      state: 'closed',
      message: 'No cancellation is possible once the vials have shipped.',
    });
    const response = await cancel(c.cookie, c.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('No cancellation is possible once the vials have shipped.');
    expect(await refundsOf(c.charge.id)).toHaveLength(0);
  });

  it('after the cutoff, the charge not yet settled: the fee is kept, the refund owed is sent once the charge settles', async () => {
    const c = await clientWithRequest();
    // The delivery is tomorrow: the cutoff has passed.
    const tomorrow = todayFor(new Date(t.clock.now().getTime() + DAY));
    await t.db.update(vialRequests).set({ shipmentDate: tomorrow }).where(eq(vialRequests.id, c.id));
    // $1,193.38 before the fee; $500.00 kept for the 2 paid vials, $693.38 refunded with its share
    // of the $35.80 card fee ($20.80): $714.18 back, $515.00 kept.
    const expected = 71_418;

    const response = await cancel(c.cookie, c.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().cancellation).toMatchObject({
      state: 'cancelled',
      refundCents: expected,
      keptCents: 51_500,
      forfeitedVials: 1,
      refundedCents: 0,
    });
    expect(await vialsOf(c.clientId)).toBe(0);
    // Refused for now (not settled); the sweep tries again an hour later, after the batch settles.
    t.clock.advance(DAY);
    await reconcile(t.app.deps, log);
    const live = (await refundsOf(c.charge.id)).filter((r) => r.status === 'refunded');
    expect(live.map((r) => r.amountCents)).toEqual([expected]);
    await reconcile(t.app.deps, log);
    expect((await refundsOf(c.charge.id)).filter((r) => r.status === 'refunded')).toHaveLength(1);
    const cookie = await t.signIn(c.actId);
    expect((await view(cookie, c.id)).json().cancellation.refundedCents).toBe(expected);
  });
});

describe('Longevity vials: taken 10 a vial, and a cancellation gives back exactly those', () => {
  /**
   * 1 Bio-Insurance vial and 25 Longevity vials; 4 vials with CPP by FedEx: 1 covered by the
   * Bio-Insurance vial, 2 by 20 Longevity vials (the 5 left cover no vial), 1 charged. $500.00 +
   * CPP 4 x $25.00 + FedEx $118.38 = $718.38, 3% card fee $21.55: $739.93.
   */
  const longevityRequest = () =>
    clientWithRequest({ bioInsuranceVialsAvailable: 1, longevityVialsAvailable: 25 }, 4);

  it('before the cutoff: 20 Longevity vials and the Bio-Insurance vial come back, 25 and 1 again', async () => {
    const c = await longevityRequest();
    expect(c.charge.totalCents).toBe(73_993);
    expect(await holdingsOf(c.clientId)).toEqual({ bio: 0, longevity: 5 });
    const before = (await view(c.cookie, c.id)).json();
    expect(before).toMatchObject({
      NumberOfVials: 4,
      PrePaidVials: 3,
      BioInsuranceVialsUsed: 1,
      LongevityVialsUsed: 20,
      vialsCents: 50_000,
      cppCents: 10_000,
    });
    expect(before.cancellation).toMatchObject({ state: 'open', phase: 'full', returnedVials: 3 });
    expect(before.cancellation.lines).toContain(
      'Your 3 pre-paid vials (1 Bio-Insurance vial, 20 Longevity vials of 1 million cells) are given back to your plan.',
    );
    const placedMail = (await t.mailTo(c.email)).find(
      (m) => m.subject === 'Client Portal: your stem cell request',
    );
    expect(placedMail?.textBody).toContain(
      'Vials: 4 (3 pre-paid: 1 Bio-Insurance vial, 20 Longevity vials of 1 million cells), $500.00',
    );

    const response = await cancel(c.cookie, c.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().cancellation).toMatchObject({
      state: 'cancelled',
      returnedVials: 3,
      forfeitedVials: 0,
    });
    expect(await holdingsOf(c.clientId)).toEqual({ bio: 1, longevity: 25 });
    // A repeat gives nothing back twice.
    expect((await cancel(c.cookie, c.id)).statusCode).toBe(200);
    expect(await holdingsOf(c.clientId)).toEqual({ bio: 1, longevity: 25 });
    const cancelledMail = (await t.mailTo(c.email)).find(
      (m) => m.subject === 'Your stem cell request is cancelled',
    );
    expect(cancelledMail?.textBody).toContain(
      'Your 3 pre-paid vials (1 Bio-Insurance vial, 20 Longevity vials of 1 million cells) are given back to your plan.',
    );
  });

  it('after the cutoff: the fee is kept for the 1 paid vial only, the 3 covered vials forfeited, the 5 Longevity vials left untouched', async () => {
    const c = await longevityRequest();
    const tomorrow = todayFor(new Date(t.clock.now().getTime() + DAY));
    await t.db.update(vialRequests).set({ shipmentDate: tomorrow }).where(eq(vialRequests.id, c.id));
    // $718.38 before the fee; $250.00 kept for the 1 paid vial, $468.38 refunded with its share of
    // the $21.55 card fee ($14.05): $482.43 back, $257.50 kept.
    const response = await cancel(c.cookie, c.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().cancellation).toMatchObject({
      state: 'cancelled',
      refundCents: 48_243,
      keptCents: 25_750,
      returnedVials: 0,
      forfeitedVials: 3,
    });
    expect(await holdingsOf(c.clientId)).toEqual({ bio: 0, longevity: 5 });
  });

  it('9 Longevity vials cover no vial: both vials charged, and the 9 stay on the record after a cancellation', async () => {
    const c = await clientWithRequest({ bioInsuranceVialsAvailable: 0, longevityVialsAvailable: 9 }, 2);
    // 2 x $500.00 + CPP 2 x $25.00 + FedEx $118.38 = $1,168.38, 3% card fee $35.05: $1,203.43.
    expect(c.charge.totalCents).toBe(120_343);
    expect(await holdingsOf(c.clientId)).toEqual({ bio: 0, longevity: 9 });
    const response = await cancel(c.cookie, c.id);
    expect(response.json().cancellation).toMatchObject({ returnedVials: 0, forfeitedVials: 0 });
    expect(await holdingsOf(c.clientId)).toEqual({ bio: 0, longevity: 9 });
  });
});

describe('staff cancel a request with a reason', () => {
  it('needs a reason; then cancels by the same policy, and a repeat answers the same', async () => {
    const c = await clientWithRequest();
    const staff = await staffSession(t);
    const send = (reason: string, key = newKey()) =>
      t.app.inject({
        method: 'POST',
        url: `/api/staff/vial_requests/${c.id}/cancel`,
        headers: { cookie: staff, 'idempotency-key': key },
        payload: { reason },
      });
    const empty = await send('  ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.reason).toBe('Please give a reason for the cancellation');
    const done = await send('The clinic postponed the procedure');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      message: 'The request was cancelled.',
      request: { status: 'cancelled' },
    });
    expect((await send('Again')).statusCode).toBe(200);
    const [row] = await t.db.select().from(vialRequests).where(eq(vialRequests.id, c.id));
    expect(row).toMatchObject({ cancelReason: 'The clinic postponed the procedure' });
    expect((await refundsOf(c.charge.id)).filter((r) => r.status !== 'failed')).toHaveLength(1);
  });
});

describe('a refund whose answer was lost', () => {
  it('is found at the gateway by our reference and recorded once', async () => {
    const c = await clientWithRequest();
    // Settled first, so that this is a refund (not a void).
    t.clock.advance(DAY);
    const cookie = await t.signIn(c.actId);
    await t.db
      .update(vialRequests)
      .set({ shipmentDate: todayFor(new Date(t.clock.now().getTime() + DAY)) })
      .where(eq(vialRequests.id, c.id));
    lostRefundAnswer = true;
    const response = await cancel(cookie, c.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().cancellation.refundedCents).toBe(0);
    lostRefundAnswer = false;
    t.clock.advance(10 * 60_000);
    await reconcile(t.app.deps, log);
    await reconcile(t.app.deps, log);
    const rows = await refundsOf(c.charge.id);
    expect(rows.filter((r) => r.status === 'refunded')).toHaveLength(1);
    const atGateway = await t.db
      .select()
      .from(sandboxRefunds)
      .where(eq(sandboxRefunds.chargeTransactionId, c.charge.gatewayTransactionId ?? ''));
    expect(atGateway).toHaveLength(1);
    // The sweep looked again a lease after the refund was left under way, not an hour after.
    const [request] = await t.db.select().from(vialRequests).where(eq(vialRequests.id, c.id));
    expect(request?.cancelRefundsSettledAt).not.toBeNull();
  });
});
