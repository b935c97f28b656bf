import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import { addYears } from '../../../domain/dates';
import { storagePlanMessages } from '../../../domain/storage-plans';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway';
import {
  clientActivities,
  clients,
  documents,
  outboxMessages,
  payments,
  sandboxTransactions,
  storagePlanOrders,
} from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { addClient, newCardFields, saveBankOnFile, saveCardOnFile } from '../../testing/form-fixtures';
import { tokenizeCard } from '../../testing/sandbox-tokens';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * send_StoragePlan: priced by the server, charged once per key, applied once (paid-until date,
 * vials, Client Activity, e-mail with the receipt); a check order applies nothing; an answer lost
 * after the gateway approved is settled by reconciliation, once.
 */

let lostAfterApproval = false;
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
      if (lostAfterApproval) throw new Error('the connection to the gateway was lost');
      return result;
    },
    lookupCharge: (request) => real.lookupCharge(request),
  };
}

let t: TestApp;
let today: string;
let keySeq = 0;
const newKey = () => `storage-plan-${Date.now()}-${++keySeq}`;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS }, { gateway: faulty });
  today = todayFor(t.clock.now());
});
afterAll(() => t.close());
beforeEach(() => {
  lostAfterApproval = false;
});

const send = (cookie: string, body: Record<string, unknown>, key = newKey()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/pay/send_StoragePlan',
    headers: { cookie, 'idempotency-key': key },
    payload: body,
  });

function order(overrides: Record<string, unknown> = {}) {
  return {
    Source: 'Client Portal',
    Annual_Storage_Plan: '5 Year',
    Plan: 'Bio-Insurance Plan',
    Vials: 25,
    Tissue_Info: 'Adipose',
    PaymentMethod: 'Credit Card',
    ...overrides,
  };
}

// 5 years $1,575 + 25 vials $10,000 = $11,575; by card + $347.25 = $11,922.25.
const CARD_TOTAL = 1_192_225;

async function stateOf(clientId: string) {
  const [client] = await t.db.select().from(clients).where(eq(clients.id, clientId));
  const ledger = await t.db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, clientId), eq(payments.purpose, 'storage_plan')));
  const orders = await t.db.select().from(storagePlanOrders).where(eq(storagePlanOrders.clientId, clientId));
  const activity = await t.db.select().from(clientActivities).where(eq(clientActivities.clientId, clientId));
  const refs = ledger.flatMap((row) => (row.reference ? [row.reference] : []));
  const charges = (await t.db.select().from(sandboxTransactions)).filter((row) =>
    refs.includes(row.reference),
  );
  if (!client) throw new Error('no client');
  return { client, ledger, orders, activity, charges };
}

async function clientWithCard(values: Partial<typeof clients.$inferInsert> = {}) {
  const client = await addClient(t.db, {
    annualStoragePaidUntil: addYears(today, 1),
    bioInsuranceVialsAvailable: 4,
    ...values,
  });
  const cookie = await t.signIn(client.actId);
  await saveCardOnFile(t, cookie, newKey());
  return { ...client, cookie };
}

describe('get_StoragePlanQuote', () => {
  it('prices the default order: Bio-Insurance 10 vials by card, $4,250.00 + $127.50 = $4,377.50', async () => {
    const cookie = await t.signIn('ACT10001');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pay/get_StoragePlanQuote',
      headers: { cookie },
      payload: {
        Annual_Storage_Plan: 'No Annual Storage',
        Plan: 'Bio-Insurance Plan',
        Vials: 10,
        PaymentMethod: 'Credit Card',
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      storageCents: 0,
      bankingCents: 425_000,
      amountCents: 425_000,
      processingFeeCents: 12_750,
      totalCents: 437_750,
    });
  });

  it('refuses an order of nothing with the spec message', async () => {
    const cookie = await t.signIn('ACT10001');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pay/get_StoragePlanQuote',
      headers: { cookie },
      payload: {
        Annual_Storage_Plan: 'No Annual Storage',
        Plan: 'No additional Plan',
        PaymentMethod: 'Check',
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(storagePlanMessages.selectAny);
  });
});

describe('send_StoragePlan', () => {
  it('needs an Idempotency-Key and is the client’s own (a physician gets 404)', async () => {
    const cookie = await t.signIn('ACT10001');
    const noKey = await t.app.inject({
      method: 'POST',
      url: '/api/pay/send_StoragePlan',
      headers: { cookie },
      payload: order(),
    });
    expect(noKey.statusCode).toBe(400);
    const physician = await t.signInPhysician('PHY20001');
    expect((await send(physician, order())).statusCode).toBe(404);
  });

  it('refuses an order of nothing and a missing sample type with the spec messages', async () => {
    const cookie = await t.signIn('ACT10001');
    const nothing = await send(
      cookie,
      order({ Annual_Storage_Plan: 'No Annual Storage', Plan: 'No additional Plan' }),
    );
    expect(nothing.statusCode).toBe(400);
    expect(JSON.stringify(nothing.json())).toContain(storagePlanMessages.selectAny);
    const noTissue = await send(cookie, order({ Tissue_Info: undefined }));
    expect(noTissue.statusCode).toBe(400);
    expect(JSON.stringify(noTissue.json())).toContain(storagePlanMessages.sampleType);
  });

  it('a forged total answers 409 and charges nothing', async () => {
    const client = await clientWithCard();
    for (const forged of [
      { expectedTotalCents: 100 },
      { amount: 1 },
      { expectedTotalCents: CARD_TOTAL - 1 },
    ]) {
      const response = await send(client.cookie, order(forged));
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().error).toContain('$11,922.25');
    }
    // Legacy amount fields are ignored: the server's price stands.
    const state = await stateOf(client.id);
    expect(state.ledger).toHaveLength(0);
    expect(state.orders).toHaveLength(0);
    expect(state.client.bioInsuranceVialsAvailable).toBe(4);
  });

  it('charges once per key and applies once: paid-until +5 years, +25 vials, activity, e-mail with receipt', async () => {
    const client = await clientWithCard();
    const key = newKey();
    const body = order({
      expectedTotalCents: CARD_TOTAL,
      Banking_Plan_Amount: 1,
      CreditCardProcessingFee: 0,
    });
    const first = await send(client.cookie, body, key);
    expect(first.statusCode, first.body).toBe(200);
    const second = await send(client.cookie, body, key);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toEqual(first.json());
    const expectedPaidUntil = addYears(addYears(today, 1), 5);
    expect(first.json()).toMatchObject({
      success: true,
      message: storagePlanMessages.submitted,
      amountChargedCents: CARD_TOTAL,
      order: {
        status: 'paid',
        storageYears: 5,
        bioInsuranceVials: 25,
        processingFeeCents: 34_725,
        totalCents: CARD_TOTAL,
        paidUntilBefore: addYears(today, 1),
        paidUntilAfter: expectedPaidUntil,
      },
    });

    const state = await stateOf(client.id);
    expect(state.charges).toHaveLength(1);
    expect(state.charges[0]?.amountCents).toBe(CARD_TOTAL);
    expect(state.ledger.filter((row) => row.status === 'approved')).toHaveLength(1);
    expect(state.ledger[0]).toMatchObject({
      purpose: 'storage_plan',
      amountCents: 1_157_500,
      feeCents: 34_725,
    });
    expect(state.client.annualStoragePaidUntil).toBe(expectedPaidUntil);
    expect(state.client.bioInsuranceVialsAvailable).toBe(29);
    expect(state.client.lastBioInsurancePurchasedDate).toBe(today);
    expect(state.activity).toHaveLength(1);
    expect(state.activity[0]).toMatchObject({
      type: 'Banking and Storage Plan Fee',
      purchasedPlanName: '5 Year Storage Plan + Bio-Insurance 250 (250,000,000 cells, 25 Vials)',
      stageName: 'Closed Won',
      amountCents: CARD_TOTAL,
    });
    const mail = await t.mailTo(client.email);
    const confirmation = mail.filter(
      (m) => m.subject === 'Client Portal: your Banking and Storage Plans order',
    );
    expect(confirmation).toHaveLength(1);
    expect(confirmation[0]?.textBody).toContain('$11,922.25');
    expect(confirmation[0]?.textBody).toMatch(/\[Attachment: receipt\.pdf, application\/pdf, \d+ bytes\]/);

    // A second order with another key extends from the new date.
    const again = await send(client.cookie, order({ Plan: 'No additional Plan', Vials: undefined }));
    expect(again.statusCode, again.body).toBe(200);
    expect((await stateOf(client.id)).client.annualStoragePaidUntil).toBe(addYears(expectedPaidUntil, 5));
  });

  it('extends from today when the storage had lapsed; ACH pays no fee; Longevity adds longevity vials', async () => {
    const client = await addClient(t.db, {
      annualStoragePaidUntil: '2020-03-01',
      lastBioInsurancePurchasedDate: null,
    });
    const cookie = await t.signIn(client.actId);
    await saveBankOnFile(t, cookie, newKey());
    const response = await send(
      cookie,
      order({
        Annual_Storage_Plan: '10 Year',
        Plan: 'Longevity Plan',
        Vials: undefined,
        Longevity_Banking_Plans: 'Longevity 250',
        PaymentMethod: 'ACH Payment',
        expectedTotalCents: 297_500 + 500_000,
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const state = await stateOf(client.id);
    expect(state.charges[0]?.amountCents).toBe(797_500);
    expect(state.ledger[0]?.feeCents).toBe(0);
    expect(state.client.annualStoragePaidUntil).toBe(addYears(today, 10));
    expect(state.client.longevityVialsAvailable).toBe(25);
    expect(state.client.lastBioInsurancePurchasedDate).toBeNull();
    expect(state.activity[0]?.type).toBe('Banking and Storage Plan Fee');
  });

  it('a new card, not kept: charged with its token and not put on file', async () => {
    const client = await addClient(t.db);
    const cookie = await t.signIn(client.actId);
    const card = newCardFields(t, await tokenizeCard(t, '4242424242424242'));
    const response = await send(
      cookie,
      order({
        Annual_Storage_Plan: 'No Annual Storage',
        Vials: 10,
        update_card: true,
        save_card: false,
        ...card,
        expectedTotalCents: 437_750,
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().order.paymentDescription).toContain('not kept on file');
    expect((await stateOf(client.id)).charges[0]?.amountCents).toBe(437_750);
  });

  it('a declined card leaves nothing ordered and nothing applied', async () => {
    const client = await addClient(t.db, { bioInsuranceVialsAvailable: 0 });
    const cookie = await t.signIn(client.actId);
    const card = newCardFields(t, await tokenizeCard(t, '4000000000009995'));
    const response = await send(cookie, order({ update_card: true, ...card }));
    expect(response.statusCode, response.body).toBe(402);
    const state = await stateOf(client.id);
    expect(state.orders).toHaveLength(0);
    expect(state.activity).toHaveLength(0);
    expect(state.client.bioInsuranceVialsAvailable).toBe(0);
  });

  it('a check order changes nothing: recorded as awaiting the check, no charge, no vials, no date', async () => {
    const client = await clientWithCard();
    const before = await stateOf(client.id);
    const response = await send(
      client.cookie,
      order({ PaymentMethod: 'Check', expectedTotalCents: 1_157_500 }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      amountChargedCents: 0,
      TransactionId: null,
      order: { status: 'awaiting_check', processingFeeCents: 0, totalCents: 1_157_500, paidUntilAfter: null },
    });
    const after = await stateOf(client.id);
    expect(after.ledger).toHaveLength(before.ledger.length);
    expect(after.charges).toHaveLength(before.charges.length);
    expect(after.activity).toHaveLength(before.activity.length);
    expect(after.client.annualStoragePaidUntil).toBe(before.client.annualStoragePaidUntil);
    expect(after.client.bioInsuranceVialsAvailable).toBe(before.client.bioInsuranceVialsAvailable);
    expect(after.client.lastBioInsurancePurchasedDate).toBe(before.client.lastBioInsurancePurchasedDate);
    expect(after.orders.map((o) => o.status)).toEqual(['awaiting_check']);
    const [mail] = await t.mailTo(client.email);
    expect(mail?.textBody).toContain(
      `Please make your check for $11,575.00 payable to Stem Cell Bank, write "${client.actId} order SP-`,
    );
    expect(mail?.textBody).toContain(
      'and mail it to Stem Cell Bank, Attn: Accounts Receivable, 1450 Brickell Avenue, Suite 1900, Miami, FL 33131.',
    );

    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_StoragePlanOrders',
      headers: { cookie: client.cookie },
    });
    expect(listed.json().orders.map((o: { status: string }) => o.status)).toEqual(['awaiting_check']);
  });

  it('an answer lost after the gateway approved is applied once by reconciliation', async () => {
    const client = await clientWithCard();
    const key = newKey();
    const body = order({ expectedTotalCents: CARD_TOTAL });
    lostAfterApproval = true;
    const lost = await send(client.cookie, body, key);
    expect(lost.statusCode, lost.body).toBe(503);
    lostAfterApproval = false;
    expect((await stateOf(client.id)).client.bioInsuranceVialsAvailable).toBe(4);

    // Once the leases lapse, the sweep settles the charge, then the order.
    const log = { info() {}, warn() {} };
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(120_000);
      await reconcile(t.app.deps, log);
    }
    const state = await stateOf(client.id);
    expect(state.charges).toHaveLength(1);
    expect(state.client.bioInsuranceVialsAvailable).toBe(29);
    expect(state.client.annualStoragePaidUntil).toBe(addYears(addYears(today, 1), 5));
    expect(state.activity).toHaveLength(1);
    expect(state.orders.map((o) => o.status)).toEqual(['paid']);
    const receipts = await t.db.select().from(documents).where(eq(documents.clientId, client.id));
    expect(receipts.filter((d) => d.kind === 'receipt')).toHaveLength(1);
    const mails = await t.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, client.email));
    expect(mails.filter((m) => m.subject.includes('Banking and Storage Plans'))).toHaveLength(1);

    // The page's retry with the same key gets the applied answer and charges nothing more.
    // (the session lapsed while the clock moved on: sign in again)
    const replay = await send(await t.signIn(client.actId), body, key);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().order.bioInsuranceVials).toBe(25);
    expect((await stateOf(client.id)).charges).toHaveLength(1);
  });
});
