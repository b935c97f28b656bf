import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client-basics';
import { addDays, addMonths, isoToUsDate } from '../../../domain/dates';
import type { NewbornAgreementFigures } from '../../../domain/newborn-agreement';
import {
  clientActivities,
  newbornAgreements,
  newbornInstallments,
  paymentMethods,
  payments,
  sandboxPaymentMethods,
} from '../../db/schema';
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
 * The newborn installments on the billing run (issue 21): the first one charged one month after
 * the deposit, once, with its receipt; the reminder 3 days before; a decline tried again on days
 * 3, 7 and 14; one $50 late charge 30 days after the due date.
 */

const LINK_SECRET = 'a-test-link-secret-of-at-least-32-characters';

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
let today: string;
let ipSeq = 0;

beforeAll(async () => {
  t = await startTestApp({ LINK_SECRET });
  today = todayFor(t.clock.now());
});
afterAll(() => t.close());

/** A client whose main contact signed an agreement today with a Visa (deposit charged). */
async function signedClient() {
  const client = await addClient(t.db);
  const email = `contact-${client.actId.toLowerCase()}@example.com`;
  const { token, agreementId } = await createNewbornAgreementLink(
    t.db,
    Buffer.from(LINK_SECRET, 'utf8'),
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
    headers: { 'idempotency-key': `installments-${client.actId}` },
    remoteAddress: `10.8.0.${++ipSeq}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return { ...client, email, agreementId };
}

const billing = () => renewalDeps(t.app.deps);
const run = (asOf: string, actIds: string[]) =>
  runBilling(billing(), {
    asOf,
    clientActIds: actIds,
    installmentsDay: (day, scope) => runInstallmentsDay(billing(), day, scope),
  });

async function installment(agreementId: string, number: number) {
  const [row] = await t.db
    .select()
    .from(newbornInstallments)
    .where(and(eq(newbornInstallments.agreementId, agreementId), eq(newbornInstallments.number, number)));
  return row;
}

/** The client's card starts declining every charge (the sandbox's "charge:" behaviour). */
async function cardDeclines(clientId: string) {
  const [card] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.clientId, clientId));
  await t.db
    .update(sandboxPaymentMethods)
    .set({ behavior: 'charge:generic_decline' })
    .where(eq(sandboxPaymentMethods.paymentRef, card?.gatewayPaymentRef as string));
}

describe('newborn installments on the billing run', () => {
  it('reminds 3 days before, then charges the first installment one month after the deposit, once, with the card fee', async () => {
    const linh = await signedClient();
    const due = addMonths(today, 1);
    expect((await installment(linh.agreementId, 1))?.dueDate).toBe(due);

    // The days before: nothing charged, the reminder on the third day before the due date.
    const before = await run(addDays(due, -4), [linh.actId]);
    expect(before.installments).toEqual({ reminders: 0, charges: 0, declines: 0, lateCharges: 0 });
    const reminderDay = await run(addDays(due, -3), [linh.actId]);
    expect(reminderDay.installments).toMatchObject({ reminders: 1, charges: 0 });
    const reminder = (await t.mailTo(linh.email)).filter(
      (m) => m.subject === 'Reminder: your newborn finance installment',
    );
    expect(reminder).toHaveLength(1);
    // $860.66 and the 3% card fee ($25.82).
    expect(reminder[0]?.textBody).toContain(
      `On ${isoToUsDate(due)} we will charge $886.48 to your Visa ending 4242 for installment 1 of 12`,
    );

    const charged = await run(due, [linh.actId]);
    expect(charged.installments).toEqual({ reminders: 0, charges: 1, declines: 0, lateCharges: 0 });
    // The same days again (another process, a second press): nothing more.
    expect((await run(due, [linh.actId])).days).toBe(0);
    await runInstallmentsDay(billing(), due, { clientIds: [linh.id] });

    expect(await installment(linh.agreementId, 1)).toMatchObject({
      status: 'paid',
      paidOn: due,
      paidTotalCents: 88_648,
      tries: 0,
      claimOperationId: null,
    });
    expect((await installment(linh.agreementId, 2))?.status).toBe('due');
    const ledger = await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.clientId, linh.id), eq(payments.purpose, 'newborn_installment')));
    expect(ledger.map((p) => [p.status, p.amountCents, p.feeCents, p.totalCents])).toEqual([
      ['approved', 86_066, 2_582, 88_648],
    ]);
    const activity = await t.db
      .select()
      .from(clientActivities)
      .where(
        and(eq(clientActivities.clientId, linh.id), eq(clientActivities.type, 'Newborn Finance Installment')),
      );
    expect(activity.map((a) => [a.amountCents, a.closeDate, a.purchasedPlanName])).toEqual([
      [88_648, due, 'Newborn Finance Agreement installment 1 of 12'],
    ]);
    const receipts = (await t.mailTo(linh.email)).filter(
      (m) => m.subject === 'Receipt: your newborn finance installment',
    );
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.textBody).toContain(
      'We charged $886.48 to your Visa ending 4242 for installment 1 of 12 of your Newborn Finance Agreement',
    );
    expect(receipts[0]?.textBody).toContain('The balance still financed is $9,189.34.');

    // Staff read the schedule and each installment's status on the client's record.
    const staff = await staffSession(t);
    const record = await t.app.inject({
      method: 'GET',
      url: `/api/staff/newborn-agreements/clients/${linh.actId}`,
      headers: { cookie: staff },
    });
    expect(record.statusCode, record.body).toBe(200);
    const [agreement] = record.json().agreements;
    expect(agreement).toMatchObject({ id: linh.agreementId, depositTotalCents: 25_750, paymentKind: 'card' });
    expect(agreement.installments).toHaveLength(12);
    expect(agreement.installments[0]).toMatchObject({
      number: 1,
      dueDate: due,
      status: 'paid',
      paidOn: due,
      paidTotalCents: 88_648,
    });
    expect(agreement.installments[1]).toMatchObject({ number: 2, status: 'due', paidOn: null });
    const unsigned = await t.app.inject({
      method: 'GET',
      url: '/api/staff/newborn-agreements/clients/ACT10001',
      headers: { cookie: staff },
    });
    expect(unsigned.json()).toEqual({ agreements: [] });
    const noSession = await t.app.inject({
      method: 'GET',
      url: `/api/staff/newborn-agreements/clients/${linh.actId}`,
    });
    expect(noSession.statusCode).toBe(401);
  });

  it("adds the agreement's own late charge, the one of the price version it was signed under, and names it", async () => {
    const omar = await signedClient();
    // Signed with the book as shipped: its terms' $50.00 is kept on it.
    const [signed] = await t.db
      .select({ lateChargeCents: newbornAgreements.lateChargeCents })
      .from(newbornAgreements)
      .where(eq(newbornAgreements.id, omar.agreementId));
    expect(signed?.lateChargeCents).toBe(5_000);
    // As if a version with a $65.00 late charge had been in force when it was signed.
    await t.db
      .update(newbornAgreements)
      .set({ lateChargeCents: 6_500 })
      .where(eq(newbornAgreements.id, omar.agreementId));
    await cardDeclines(omar.id);
    const due = addMonths(today, 1);
    await run(addDays(due, 14), [omar.actId]);
    expect((await run(addDays(due, 30), [omar.actId])).installments?.lateCharges).toBe(1);
    expect((await installment(omar.agreementId, 1))?.lateChargeCents).toBe(6_500);
    const lateMail = (await t.mailTo(omar.email)).filter(
      (m) => m.subject === 'Your newborn finance installment is late',
    );
    expect(lateMail[0]?.textBody).toContain('a late charge of $65.00 is added: $925.66 is now due.');
  });

  it('retries a declined installment on days 3, 7 and 14, then adds one $50 late charge 30 days after its due date', async () => {
    const ana = await signedClient();
    await cardDeclines(ana.id);
    const due = addMonths(today, 1);

    const first = await run(due, [ana.actId]);
    expect(first.installments).toMatchObject({ charges: 0, declines: 1, lateCharges: 0 });
    expect(await installment(ana.agreementId, 1)).toMatchObject({
      status: 'retrying',
      tries: 1,
      nextTryOn: addDays(due, 3),
      lastDecline: 'generic_decline',
    });
    const declined = (await t.mailTo(ana.email)).filter(
      (m) => m.subject === 'Your newborn finance installment could not be charged',
    );
    expect(declined[0]?.textBody).toContain(`We will try again on ${isoToUsDate(addDays(due, 3))}.`);

    const retries = await run(addDays(due, 14), [ana.actId]);
    expect(retries.installments).toMatchObject({ charges: 0, declines: 3, lateCharges: 0 });
    expect(await installment(ana.agreementId, 1)).toMatchObject({
      status: 'unpaid',
      tries: 4,
      nextTryOn: null,
    });

    expect((await run(addDays(due, 29), [ana.actId])).installments?.lateCharges).toBe(0);
    const late = await run(addDays(due, 30), [ana.actId]);
    expect(late.installments?.lateCharges).toBe(1);
    expect(await installment(ana.agreementId, 1)).toMatchObject({
      status: 'late',
      lateChargeCents: 5_000,
      paymentId: null,
    });
    const lateMail = (await t.mailTo(ana.email)).filter(
      (m) => m.subject === 'Your newborn finance installment is late',
    );
    expect(lateMail).toHaveLength(1);
    expect(lateMail[0]?.textBody).toContain('a late charge of $50.00 is added: $910.66 is now due.');

    // Once: later days add nothing more to it.
    expect((await run(addDays(due, 45), [ana.actId])).installments?.lateCharges).toBe(0);
    await runInstallmentsDay(billing(), addDays(due, 46), { clientIds: [ana.id] });
    expect((await installment(ana.agreementId, 1))?.lateChargeCents).toBe(5_000);
    const approved = await t.db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.clientId, ana.id),
          eq(payments.purpose, 'newborn_installment'),
          eq(payments.status, 'approved'),
        ),
      );
    expect(approved).toHaveLength(0);
  });

  it('takes a card on file with no gateway customer for none: the reminder asks for a method and the installment is overdue on its date, uncharged', async () => {
    const mai = await signedClient();
    await t.db
      .update(paymentMethods)
      .set({ gatewayCustomerRef: null })
      .where(eq(paymentMethods.clientId, mai.id));
    const due = addMonths(today, 1);

    await run(addDays(due, -3), [mai.actId]);
    const reminder = (await t.mailTo(mai.email)).filter(
      (m) => m.subject === 'Reminder: your newborn finance installment',
    );
    expect(reminder[0]?.textBody).toContain(
      `Installment 1 of 12 of your Newborn Finance Agreement, $860.66, is due on ${isoToUsDate(due)}, and no payment method is on file.`,
    );

    const onDue = await run(due, [mai.actId]);
    expect(onDue.installments).toMatchObject({ charges: 0, declines: 1 });
    expect(await installment(mai.agreementId, 1)).toMatchObject({
      status: 'unpaid',
      tries: 0,
      paymentId: null,
    });
    const overdue = (await t.mailTo(mai.email)).filter(
      (m) => m.subject === 'Your newborn finance installment is overdue',
    );
    expect(overdue).toHaveLength(1);
    const charged = await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.clientId, mai.id), eq(payments.purpose, 'newborn_installment')));
    expect(charged).toHaveLength(0);
  });
});
