import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client-basics';
import { addDays, addMonths } from '../../../domain/dates';
import type { NewbornAgreementFigures } from '../../../domain/newborn-agreement';
import { newbornInstallments, paymentMethods, payments, sandboxPaymentMethods } from '../../db/schema';
import { createAgreementLinkToken, createPaymentLinkToken } from '../../lib/link-tokens';
import { addClient, newCardFields } from '../../testing/form-fixtures';
import { tokenizeCard } from '../../testing/sandbox-tokens';
import { pngDataUrl, signaturePng } from '../../testing/signature-png';
import { staffSession } from '../../testing/staff-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { renewalDeps } from '../payments/billing-routes';
import { runBilling } from '../payments/billing-run';
import { createNewbornAgreementLink } from './newborn-agreement-service';
import { runInstallmentsDay } from './newborn-installments';

/**
 * After signing (issue 21): an installment unpaid after its last try is overdue, on the Billing
 * page with "Send payment link", and e-mailed with its amount and a signed link to the agreement's
 * page; that page shows the schedule, takes a new method for the installments, pays what is
 * overdue, and pays the balance off early (the remaining principal, without future interest), once.
 */

const LINK_SECRET = 'a-test-link-secret-of-at-least-32-characters';
const secret = Buffer.from(LINK_SECRET, 'utf8');
const DAY = 24 * 60 * 60 * 1000;

const figures: NewbornAgreementFigures = {
  mainContact: 'Linh Tran',
  patientId: 'ACT-NB',
  annualBankingFeeCents: 17_500,
  bioInsuranceFeeCents: 30_000,
  downPaymentCents: 25_000,
  initialProcessingFeeCents: 249_500,
  interestRateBasisPoints: 600,
  installments: 12,
  totalFinancedCents: 1_000_000,
};

let t: TestApp;
let ipSeq = 0;
/** While set, the next charge waits for it: a payment held mid-charge while another arrives. */
let chargesWait: Promise<void> | null = null;
const ip = () => `10.9.${Math.floor(ipSeq / 200)}.${(ipSeq++ % 200) + 1}`;

beforeAll(async () => {
  t = await startTestApp(
    { LINK_SECRET },
    {
      gateway: (real) => ({
        ...real,
        name: real.name,
        saveMethod: (request) => real.saveMethod(request),
        charge: async (request) => {
          // Only the first charge after it is set waits.
          const wait = chargesWait;
          chargesWait = null;
          if (wait) await wait;
          return real.charge(request);
        },
        lookupCharge: (request) => real.lookupCharge(request),
        refund: (request) => real.refund(request),
        void: (request) => real.void(request),
        lookupRefund: (request) => real.lookupRefund(request),
      }),
    },
  );
});
afterAll(() => t.close());

const today = () => todayFor(t.clock.now());

async function signedClient() {
  const client = await addClient(t.db);
  const email = `contact-${client.actId.toLowerCase()}@example.com`;
  const { token, agreementId } = await createNewbornAgreementLink(
    t.db,
    secret,
    client.id,
    { ...figures, mainContactEmail: email },
    t.clock.now(),
  );
  const { Credit_Card_Holder_Country, ...card } = newCardFields(t, await tokenizeCard(t, '4242424242424242'));
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/pay/set_Client_Agreement_service',
    payload: {
      ClientId: token,
      signatureData: pngDataUrl(signaturePng()),
      NBAgreementCompleted: true,
      authorizeCharges: true,
      Payment_Type: 'CC',
      ...card,
      Country: Credit_Card_Holder_Country,
    },
    headers: { 'idempotency-key': `account-${client.actId}` },
    remoteAddress: ip(),
  });
  expect(response.statusCode, response.body).toBe(200);
  return { ...client, email, agreementId, token };
}

const billing = () => renewalDeps(t.app.deps);
const run = (asOf: string, actIds: string[]) =>
  runBilling(billing(), {
    asOf,
    clientActIds: actIds,
    installmentsDay: (day, scope) => runInstallmentsDay(billing(), day, scope),
  });

/** Moves the application's clock to `day` (the billing day the pages read). */
function clockTo(day: string) {
  const days = Math.round((Date.parse(`${day}T12:00:00Z`) - Date.parse(`${today()}T12:00:00Z`)) / DAY);
  t.clock.advance(days * DAY);
  expect(today()).toBe(day);
}

async function cardDeclines(clientId: string) {
  const [card] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.clientId, clientId));
  await t.db
    .update(sandboxPaymentMethods)
    .set({ behavior: 'charge:generic_decline' })
    .where(eq(sandboxPaymentMethods.paymentRef, card?.gatewayPaymentRef as string));
}

const account = (token: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/pay/get_Client_Agreement_account?id=${encodeURIComponent(token)}`,
    remoteAddress: ip(),
  });

const pay = (token: string, what: 'overdue' | 'payoff', expectedTotalCents: number, key: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/pay/set_Client_Agreement_payment',
    payload: { ClientId: token, pay: what, expectedTotalCents },
    headers: { 'idempotency-key': key },
    remoteAddress: ip(),
  });

async function newCard(token: string, key: string) {
  const { Credit_Card_Holder_Country, ...card } = newCardFields(t, await tokenizeCard(t, '4242424242424242'));
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/set_Client_Agreement_payment_method',
    payload: {
      ClientId: token,
      Payment_Type: 'CC',
      authorizeCharges: true,
      ...card,
      Country: Credit_Card_Holder_Country,
    },
    headers: { 'idempotency-key': key },
    remoteAddress: ip(),
  });
}

async function approvedInstallmentPayments(clientId: string) {
  return t.db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.clientId, clientId),
        eq(payments.purpose, 'newborn_installment'),
        eq(payments.status, 'approved'),
      ),
    );
}

describe('an overdue installment', () => {
  it('is overdue after its last try: counted on the Billing page, e-mailed with its amount and a link that pays it', async () => {
    const ana = await signedClient();
    await cardDeclines(ana.id);
    const due = addMonths(today(), 1);

    await run(due, [ana.actId]);
    clockTo(due);
    const staff = await staffSession(t);
    const retrying = (
      await t.app.inject({ method: 'GET', url: '/api/staff/billing', headers: { cookie: staff } })
    ).json();
    // The Billing page counts it with its amount: $860.66, waiting for a retry.
    expect(retrying.installments.retrying).toEqual({ count: 1, amountCents: 86_066 });
    expect(retrying.installments.overdue).toEqual({ count: 0, amountCents: 0 });

    // The daily run of day 14 (the clock there, as the daily job runs): the last try declines.
    clockTo(addDays(due, 14));
    await run(addDays(due, 14), [ana.actId]);
    expect(
      (
        await t.db
          .select()
          .from(newbornInstallments)
          .where(eq(newbornInstallments.agreementId, ana.agreementId))
      ).find((r) => r.number === 1)?.status,
    ).toBe('unpaid');
    const mail = (await t.mailTo(ana.email)).filter(
      (m) => m.subject === 'Your newborn finance installment is overdue',
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]?.textBody).toContain('Installment 1 of 12 of your Newborn Finance Agreement');
    expect(mail[0]?.textBody).toContain('is overdue: $860.66 is due.');
    const link = mail[0]?.textBody.match(/\/newbornfinanceagreement\/(\S+)/)?.[1] ?? '';
    expect(link).not.toBe('');

    const staff2 = await staffSession(t);
    const page = (
      await t.app.inject({ method: 'GET', url: '/api/staff/billing', headers: { cookie: staff2 } })
    ).json();
    expect(page.installments.overdue).toEqual({ count: 1, amountCents: 86_066 });
    expect(page.installments.retrying).toEqual({ count: 0, amountCents: 0 });
    const row = page.installments.overdueList.find(
      (r: { clientActId: string }) => r.clientActId === ana.actId,
    );
    expect(row).toMatchObject({ number: 1, of: 12, amountCents: 86_066, tries: 4, mainContact: 'Linh Tran' });

    // Staff send the link again: the same e-mail; an installment not overdue, or none, is refused.
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/staff/billing/installments/${row.id}/payment_link`,
      headers: { cookie: staff2 },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().sentTo).toBe(`c***@example.com`);
    expect(
      (await t.mailTo(ana.email)).filter((m) => m.subject === 'Your newborn finance installment is overdue'),
    ).toHaveLength(2);
    const [second] = await t.db
      .select({ id: newbornInstallments.id })
      .from(newbornInstallments)
      .where(and(eq(newbornInstallments.agreementId, ana.agreementId), eq(newbornInstallments.number, 2)));
    const notOverdue = await t.app.inject({
      method: 'POST',
      url: `/api/staff/billing/installments/${second?.id}/payment_link`,
      headers: { cookie: staff2 },
    });
    expect(notOverdue.statusCode).toBe(409);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/staff/billing/installments/00000000-0000-4000-8000-000000000000/payment_link',
      headers: { cookie: staff2 },
    });
    expect(unknown.statusCode).toBe(404);

    // The link's page: installment 1 overdue, the others due; $860.66 + 3% on the card = $886.48.
    const read = await account(link);
    expect(read.statusCode, read.body).toBe(200);
    const body = read.json();
    expect(body.installments).toHaveLength(12);
    expect(body.installments[0]).toMatchObject({
      number: 1,
      dueDate: due,
      state: 'overdue',
      paymentCents: 86_066,
    });
    expect(body.installments[1]).toMatchObject({ number: 2, state: 'due' });
    expect(body.method).toBe('Visa ending 4242');
    expect(body.overdue).toEqual({ amountCents: 86_066, feeCents: 2_582, totalCents: 88_648 });

    // A new card for the installments (nothing charged), then the overdue one paid with it.
    const saved = await newCard(link, 'new-card-1');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().message).toBe('The payment method for your installments is updated.');
    expect(await approvedInstallmentPayments(ana.id)).toHaveLength(0);
    const stale = await pay(link, 'overdue', 86_066, 'pay-overdue-stale');
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe('The amount is now $886.48. Please check it and pay again.');
    const paid = await pay(link, 'overdue', 88_648, 'pay-overdue-1');
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ amountChargedCents: 88_648, installmentsPaid: 1 });
    // The same press again: answered as it was, charged once.
    expect((await pay(link, 'overdue', 88_648, 'pay-overdue-1')).json()).toEqual(paid.json());
    expect((await approvedInstallmentPayments(ana.id)).map((p) => p.totalCents)).toEqual([88_648]);
    const after = (await account(link)).json();
    expect(after.installments[0]).toMatchObject({ state: 'paid', paidOn: addDays(due, 14) });
    expect(after.overdue).toBeNull();
    const nothing = await pay(link, 'overdue', 0, 'pay-overdue-2');
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().error).toBe('Nothing is owed on this agreement now.');
  });
});

describe("the agreement's link", () => {
  it('reads and pays only its own agreement: another token, altered, or of another kind is the same 404 as an unknown one', async () => {
    const one = await signedClient();
    const other = await signedClient();
    const unknownToken = createAgreementLinkToken(
      secret,
      '00000000-0000-4000-8000-000000000000',
      t.clock.now(),
    );
    const unknown = await account(unknownToken);
    expect(unknown.statusCode).toBe(404);
    // Another agreement's id in a payload signed by nobody (the first token's signature).
    const [, signature] = one.token.split('.');
    const [otherPayload] = other.token.split('.');
    const forged = `${otherPayload}.${signature}`;
    // A payment-page link of the same client is for another purpose.
    const wrongKind = createPaymentLinkToken(secret, one.actId, t.clock.now());
    for (const token of [forged, wrongKind, `${one.token}x`]) {
      const read = await account(token);
      expect(read.statusCode).toBe(404);
      expect(read.json().error).toBe(unknown.json().error);
      const paying = await pay(token, 'payoff', 1, `scoped-${token.slice(-6)}`);
      expect(paying.statusCode).toBe(404);
      expect(paying.json().error).toBe(unknown.json().error);
      expect((await newCard(token, `scoped-card-${token.slice(-6)}`)).statusCode).toBe(404);
    }
    // Each link reads its own schedule.
    const mine = (await account(one.token)).json();
    expect(mine.mainContact).toBe('Linh Tran');
    expect(await approvedInstallmentPayments(one.id)).toHaveLength(0);
    expect(await approvedInstallmentPayments(other.id)).toHaveLength(0);
  });

  it('answers 409 before the agreement is signed', async () => {
    const client = await addClient(t.db);
    const { token } = await createNewbornAgreementLink(t.db, secret, client.id, figures, t.clock.now());
    const read = await account(token);
    expect(read.statusCode).toBe(409);
    expect(read.json().error).toBe('This agreement is not signed yet.');
  });
});

describe('an early payoff', () => {
  it('charges the remaining principal without future interest, once, when two payoffs with different keys arrive at once', async () => {
    const leo = await signedClient();
    const due = addMonths(today(), 1);
    await run(due, [leo.actId]);
    clockTo(due);
    // The link of a later e-mail (the signing's lasts 7 days).
    leo.token = createAgreementLinkToken(secret, leo.agreementId, t.clock.now());
    // Installment 1 ($860.66) paid on its day: $9,189.34 of principal is left, with no interest
    // of the months ahead; by card, plus 3% ($275.68): $9,465.02.
    const read = (await account(leo.token)).json();
    expect(read.installments[0].state).toBe('paid');
    expect(read.payoff).toEqual({ amountCents: 918_934, feeCents: 27_568, totalCents: 946_502 });

    // The first payoff is held at the gateway, its installments claimed, while the second arrives
    // under another key: the second is refused, and nothing is charged twice.
    let release = () => {};
    chargesWait = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a = pay(leo.token, 'payoff', 946_502, 'payoff-a');
    await expect
      .poll(
        async () =>
          (
            await t.db
              .select({ held: newbornInstallments.claimOperationId })
              .from(newbornInstallments)
              .where(eq(newbornInstallments.agreementId, leo.agreementId))
          ).filter((r) => r.held !== null).length,
      )
      .toBe(11);
    const b = await pay(leo.token, 'payoff', 946_502, 'payoff-b');
    expect(b.statusCode, b.body).toBe(409);
    expect(b.json().error).toBe(
      'A payment of this agreement is under way. Please wait a moment and reload the page.',
    );
    release();
    const won = await a;
    expect(won.statusCode, won.body).toBe(200);
    expect(won.json()).toMatchObject({
      message: 'Your agreement is paid off. Thank you.',
      amountChargedCents: 946_502,
      installmentsPaid: 11,
    });
    const charged = await approvedInstallmentPayments(leo.id);
    expect(charged.map((p) => p.totalCents).sort()).toEqual([88_648, 946_502]);
    const rows = await t.db
      .select()
      .from(newbornInstallments)
      .where(eq(newbornInstallments.agreementId, leo.agreementId));
    expect(rows.every((r) => r.status === 'paid')).toBe(true);
    // Each keeps what was charged for it, the card fee shared: together the charge, to the cent.
    expect(rows.reduce((sum, r) => sum + (r.number > 1 ? (r.paidTotalCents ?? 0) : 0), 0)).toBe(946_502);
    const after = (await account(leo.token)).json();
    expect(after.payoff).toBeNull();
    // Nothing is left for the billing run to charge.
    const later = await run(addMonths(due, 2), [leo.actId]);
    expect(later.installments?.charges).toBe(0);
    expect(await approvedInstallmentPayments(leo.id)).toHaveLength(2);
    const receipt = (await t.mailTo(leo.email)).filter(
      (m) => m.subject === 'Receipt: your Newborn Finance Agreement is paid off',
    );
    expect(receipt).toHaveLength(1);
    expect(receipt[0]?.textBody).toContain('We charged $9,465.02 to your Visa ending 4242');
  });
});

describe('a payment of an installment that carries its late charge', () => {
  it('is dated on or after the day the installment became late, even when the billing day is earlier (a demo run crossing several days)', async () => {
    const mia = await signedClient();
    const due = addMonths(today(), 1);
    clockTo(addDays(due, 2));
    mia.token = createAgreementLinkToken(secret, mia.agreementId, t.clock.now());
    // As a demo "Run billing as of…" reaching 30 days past the due date leaves it, while the
    // billing day the page reads is still where the last run ended (two days past it).
    await t.db
      .update(newbornInstallments)
      .set({ status: 'late', lateChargeCents: 5_000 })
      .where(and(eq(newbornInstallments.agreementId, mia.agreementId), eq(newbornInstallments.number, 1)));
    // $860.66 and the $50.00 late charge, plus 3% by card ($27.32): $937.98.
    const read = (await account(mia.token)).json();
    expect(read.overdue).toEqual({ amountCents: 91_066, feeCents: 2_732, totalCents: 93_798 });
    const paid = await pay(mia.token, 'overdue', 93_798, 'late-paid');
    expect(paid.statusCode, paid.body).toBe(200);
    const [row] = await t.db
      .select()
      .from(newbornInstallments)
      .where(and(eq(newbornInstallments.agreementId, mia.agreementId), eq(newbornInstallments.number, 1)));
    expect(row).toMatchObject({ status: 'paid', lateChargeCents: 5_000, paidOn: addDays(due, 30) });
  });
});
