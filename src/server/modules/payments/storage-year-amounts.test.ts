import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client-basics';
import { addDays, addYears } from '../../../domain/dates';
import { SHIPPED_PRICE_AMOUNTS } from '../../../domain/price-book';
import { annualStorageFees, paymentMethods, payments, sandboxPaymentMethods } from '../../db/schema';
import { addClient, saveBankOnFile } from '../../testing/form-fixtures';
import { tokenizeCard } from '../../testing/sandbox-tokens';
import { staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';
import { renewalDeps } from './billing-routes';
import { runBilling } from './billing-run';

/**
 * One rule for a storage year paid after its notice (issue 21): the notice fixes the year's amounts
 * ($350.00 by card or check, $339.81 by ACH with the book as shipped), and a year paid later, through
 * the decline e-mail's link, the public payment page or Payment Information, is charged the amount
 * fixed for the method, whatever version is in force by then. Here a version with other figures (a
 * 3.5% card fee, $345.00 by ACH, $360.00 by card or check) is put in force after the notices.
 */

let t: TestApp;
let today: string;
let admin: string;
let seq = 0;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_VERIFY_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
  today = todayFor(t.clock.now());
  admin = await staffSession(t);
});
afterAll(() => t.close());

/** A banked client paid until `due`, with a sandbox card whose charges fail for a hard reason (overdue at once). */
async function decliningClient(due: string) {
  const client = await addClient(t.db, {
    dateBankedIn: addYears(due, -2),
    annualStoragePaidUntil: due,
    clientConsentFormCompleted: true,
  });
  seq += 1;
  const ref = { paymentRef: `year-amounts-pm-${seq}`, customerRef: `year-amounts-cust-${seq}` };
  const expiry = { expiryMonth: 12, expiryYear: Number(today.slice(0, 4)) + 4 };
  await t.db.insert(sandboxPaymentMethods).values({
    ...ref,
    ...expiry,
    kind: 'card',
    brand: 'Visa',
    last4: '0069',
    behavior: 'charge:lost_card',
    createdAt: t.clock.now(),
  });
  await t.db.insert(paymentMethods).values({
    ...expiry,
    clientId: client.id,
    kind: 'card',
    brand: 'Visa',
    last4: '0069',
    gateway: 'sandbox',
    gatewayCustomerRef: ref.customerRef,
    gatewayPaymentRef: ref.paymentRef,
  });
  return client;
}

const run = (asOf: string, actIds: string[]) =>
  runBilling(renewalDeps(t.app.deps), { asOf, clientActIds: actIds });

async function mailTo(address: string, subject: string) {
  const found = (await t.mailTo(address)).find((m) => m.subject === subject);
  expect(found, `no e-mail "${subject}" to ${address}`).toBeDefined();
  return found?.textBody ?? '';
}

describe('a storage year paid after its notice, with another price version in force', () => {
  let due: string;
  let byCard: Awaited<ReturnType<typeof decliningClient>>;
  let byBank: Awaited<ReturnType<typeof decliningClient>>;

  beforeAll(async () => {
    due = addDays(today, 20);
    byCard = await decliningClient(due);
    byBank = await decliningClient(due);
    // The notices go today with the book as shipped.
    await run(today, [byCard.actId, byBank.actId]);
    for (const client of [byCard, byBank]) {
      const notice = await mailTo(client.email, 'Your annual storage renews soon');
      expect(notice).toContain('The amount is $350.00.');
    }
    // Then a version with other figures is put in force.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/staff/create_price_version',
      headers: { cookie: admin },
      payload: {
        effectiveOn: today,
        note: 'New storage prices after the notices',
        amounts: {
          ...SHIPPED_PRICE_AMOUNTS,
          cardProcessingFee: 350,
          annualMaintenanceFee: 34_500,
          annualFeeCardOrCheck: 36_000,
        },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ awaitingApproval: false });
    // The due date: the card is refused for good, and the year is overdue.
    await run(due, [byCard.actId, byBank.actId]);
  });

  it('the decline e-mail quotes the amounts the notice fixed: $350.00 by card, $339.81 by bank account', async () => {
    const declined = await mailTo(byCard.email, 'Your annual storage payment is overdue');
    expect(declined).toContain('We could not charge $350.00 for your annual storage');
    expect(declined).toContain('To pay now ($350.00 by card, $339.81 by bank account)');
    for (const figure of ['$360.00', '$345.00', '$351.70', '$362.25']) expect(declined).not.toContain(figure);
  });

  it('the payment page shows them, and a card saved through its link is charged $350.00 with no fee', async () => {
    const declined = await mailTo(byCard.email, 'Your annual storage payment is overdue');
    const link = declined.match(/\?t=([\w.-]+)/)?.[1];
    expect(link, declined).toBeDefined();
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/pay/set_verifyClientData',
      payload: { mode: 'link', t: link },
      remoteAddress: '10.31.0.1',
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().amountDue).toEqual({
      overdueYears: [{ dueDate: due, amountCents: 33_981, cardAmountCents: 35_000 }],
      overdueCents: 33_981,
      charges: {
        card: { amountCents: 35_000, feeCents: 0, totalCents: 35_000 },
        ach: { amountCents: 33_981, feeCents: 0, totalCents: 33_981 },
      },
    });
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/pay/set_PublicPaymentInfo',
      headers: { 'idempotency-key': `year-amounts-public-${byCard.actId}` },
      remoteAddress: '10.31.0.1',
      payload: {
        verification: verified.json().verification,
        agree: true,
        page: 'email',
        Payment_Type: 'CC',
        token: await tokenizeCard(t, '4242424242424242'),
        Credit_Card_Type: 'Visa',
        Month_of_Expiry: '12',
        Year_of_Expiry: String(Number(today.slice(0, 4)) + 3),
        Credit_Card_Holder_First_Name: 'Test',
        Credit_Card_Holder_Last_Name: 'Client',
        Credit_Card_Biling_Email_Address: byCard.email,
        Country: 'United States',
        Credit_Card_Billing_Street: '1200 Brickell Avenue',
        Credit_Card_Billing_City: 'Miami',
        Credit_Card_Billing_State: 'FL',
        Credit_Card_Billing_Zip_Code: '33131',
        expectedTotalCents: 35_000,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ amountCharged: 350, processingFee: 0 });
    const [ledger] = await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.clientId, byCard.id), eq(payments.status, 'approved')));
    expect(ledger).toMatchObject({ amountCents: 35_000, feeCents: 0, totalCents: 35_000 });
    const [year] = await t.db
      .select()
      .from(annualStorageFees)
      .where(eq(annualStorageFees.clientId, byCard.id));
    expect(year).toMatchObject({ status: 'paid', paymentId: ledger?.id });
  });

  it('Payment Information and the release checklist quote them, and a bank account saved is charged $339.81', async () => {
    const cookie = await t.signIn(byBank.actId);
    const info = await t.app.inject({ method: 'GET', url: '/api/pay/get_PaymentInfo', headers: { cookie } });
    expect(info.json().result).toMatchObject({
      Total_Amount_Overdue: 339.81,
      overdueCharges: {
        card: { amountCents: 35_000, feeCents: 0, totalCents: 35_000 },
        ach: { amountCents: 33_981, feeCents: 0, totalCents: 33_981 },
      },
    });
    const readiness = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_ReleaseReadiness',
      headers: { cookie },
    });
    expect(readiness.statusCode, readiness.body).toBe(200);
    expect(readiness.json().overdueStorage).toEqual({
      years: 1,
      amountCents: 33_981,
      addedToOrder: true,
      charges: {
        card: { amountCents: 35_000, feeCents: 0, totalCents: 35_000 },
        ach: { amountCents: 33_981, feeCents: 0, totalCents: 33_981 },
      },
    });
    const saved = await saveBankOnFile(t, cookie, `year-amounts-bank-${byBank.actId}`);
    expect(saved.json()).toMatchObject({ amountCharged: 339.81, processingFee: 0 });
  });
});
