import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client-basics';
import { addDays, addYears, isoToUsDate as usDate } from '../../../domain/dates';
import { annualStorageFees, clientActivities, clients, payments } from '../../db/schema';
import { bankedClient } from '../../testing/billing-fixtures';
import { saveCardOnFile } from '../../testing/form-fixtures';
import { staffLevelMember, staffSession } from '../../testing/staff-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { renewalDeps } from './billing-routes';
import { runBilling } from './billing-run';

/**
 * Storage renewals (issue 21): the notice 30 days ahead, the charge on the due date once per
 * client and year, soft declines retried on days 3, 7 and 14, hard ones not, the overdue year,
 * and the demo's "Run billing as of…".
 */

let t: TestApp;
let today: string;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  today = todayFor(t.clock.now());
  admin = await staffSession(t);
});
afterAll(async () => {
  await t.close();
});

const run = (asOf: string, actIds: string[]) =>
  runBilling(renewalDeps(t.app.deps), { asOf, clientActIds: actIds });

async function years(clientId: string) {
  return t.db.select().from(annualStorageFees).where(eq(annualStorageFees.clientId, clientId));
}

async function paidUntilOf(clientId: string) {
  const [row] = await t.db
    .select({ paidUntil: clients.annualStoragePaidUntil })
    .from(clients)
    .where(eq(clients.id, clientId));
  return row?.paidUntil;
}

describe('storage renewals', () => {
  it('notices 30 days ahead, charges $350.00 once on the due date and moves paid-until a year', async () => {
    const due = addDays(today, 20);
    const ivy = await bankedClient(t, due, { behavior: 'approve', last4: '4242' }, addYears(due, -1));
    // The notice went on the first day run (fewer than 30 days ahead, at least 15: charged on the due date).
    const first = await run(today, [ivy.actId]);
    expect(first).toMatchObject({ days: 1, notices: 1, charges: 0 });
    const [noticed] = await years(ivy.id);
    expect(noticed).toMatchObject({ yearNumber: 1, dueDate: due, chargeOn: due, amountCents: 35_000 });
    const notice = (await t.mailTo(ivy.email)).find((m) => m.subject === 'Your annual storage renews soon');
    expect(notice?.textBody).toContain('The amount is $350.00.');
    expect(notice?.textBody).toContain('Visa ending 4242');

    const charged = await run(addDays(due, 5), [ivy.actId]);
    expect(charged).toMatchObject({ notices: 0, charges: 1, declines: 0 });
    // Running the same days again (another process, a second press) charges nothing more.
    expect(await run(addDays(due, 5), [ivy.actId])).toMatchObject({ days: 0, charges: 0 });
    const [paid] = await years(ivy.id);
    expect(paid).toMatchObject({ status: 'paid', paidOn: due, tries: 0 });
    expect(await paidUntilOf(ivy.id)).toBe(addYears(due, 1));
    const ledger = await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.clientId, ivy.id), eq(payments.status, 'approved')));
    expect(ledger.map((p) => p.totalCents)).toEqual([35_000]);
    const activity = await t.db.select().from(clientActivities).where(eq(clientActivities.clientId, ivy.id));
    expect(activity).toMatchObject([{ type: 'Annual Storage Fee', amountCents: 35_000, closeDate: due }]);
    const receipt = (await t.mailTo(ivy.email)).find((m) => m.subject === 'Receipt: annual storage renewed');
    expect(receipt?.textBody).toContain('We charged $350.00 to your Visa ending 4242');
  });

  it('retries a soft decline on days 3, 7 and 14, e-mails a link each time, then the year is overdue', async () => {
    const due = addDays(today, 25);
    const ben = await bankedClient(t, due, { behavior: 'charge:generic_decline', last4: '0341' });
    await run(due, [ben.actId]);
    let [year] = await years(ben.id);
    expect(year).toMatchObject({
      status: 'retrying',
      tries: 1,
      nextTryOn: addDays(due, 3),
      lastDecline: 'generic_decline',
    });
    const mail = (await t.mailTo(ben.email)).find(
      (m) => m.subject === 'Your annual storage payment did not go through',
    );
    expect(mail?.textBody).toContain('We could not charge $350.00');
    expect(mail?.textBody).toMatch(/\/updatepaymentinformation\?t=/);

    expect(await run(addDays(due, 6), [ben.actId])).toMatchObject({ declines: 1, retries: 1 });
    [year] = await years(ben.id);
    expect(year).toMatchObject({ tries: 2, nextTryOn: addDays(due, 7) });
    await run(addDays(due, 13), [ben.actId]);
    [year] = await years(ben.id);
    expect(year).toMatchObject({ tries: 3, nextTryOn: addDays(due, 14) });
    expect(await run(addDays(due, 20), [ben.actId])).toMatchObject({ declines: 1, overdue: 1 });
    [year] = await years(ben.id);
    expect(year).toMatchObject({ status: 'overdue', tries: 4, nextTryOn: null });
    expect(await paidUntilOf(ben.id)).toBe(due);
    const overdueMail = (await t.mailTo(ben.email)).filter(
      (m) => m.subject === 'Your annual storage payment is overdue',
    );
    expect(overdueMail).toHaveLength(1);
  });

  it('does not retry a hard decline: the year is overdue at once', async () => {
    const due = addDays(today, 30);
    const client = await bankedClient(t, due, { behavior: 'charge:stolen_card', last4: '0019' });
    expect(await run(due, [client.actId])).toMatchObject({ notices: 1, declines: 1, retries: 0, overdue: 1 });
    const [year] = await years(client.id);
    expect(year).toMatchObject({ status: 'overdue', tries: 1, lastDecline: 'stolen_card' });
  });

  it('invoices a client with no method on file, and makes the year overdue 14 days after the due date', async () => {
    const due = addDays(today, 40);
    const client = await bankedClient(t, due, null);
    expect(await run(addDays(due, -31), [client.actId])).toMatchObject({ notices: 0 });
    expect(await run(addDays(due, -30), [client.actId])).toMatchObject({ notices: 1 });
    const invoice = (await t.mailTo(client.email)).find(
      (m) => m.subject === 'Your annual storage renews soon',
    );
    expect(invoice?.textBody).toContain(
      'No payment method is on file, so this notice is your invoice: $350.00',
    );
    expect(invoice?.textBody).toContain(
      `Or pay by check. Please make your check for $350.00 payable to Stem Cell Bank, write "${client.actId} storage year 3" on it, and mail it to Stem Cell Bank, Attn: Accounts Receivable, 1450 Brickell Avenue, Suite 1900, Miami, FL 33131.`,
    );
    expect(await run(addDays(due, 13), [client.actId])).toMatchObject({ overdue: 0 });
    expect(await run(addDays(due, 14), [client.actId])).toMatchObject({ overdue: 1 });
  });

  it('charges nothing for a year a storage plan prepaid after its notice', async () => {
    const due = addDays(today, 30);
    const client = await bankedClient(t, due, { behavior: 'approve', last4: '4242' });
    await run(today, [client.actId]);
    await t.db
      .update(clients)
      .set({ annualStoragePaidUntil: addYears(due, 5) })
      .where(eq(clients.id, client.id));
    expect(await run(due, [client.actId])).toMatchObject({ charges: 0 });
    const [year] = await years(client.id);
    expect(year?.status).toBe('covered');
  });

  it('charges a year once when two runs of the same days race (two processes, a double press)', async () => {
    const due = addDays(today, 21);
    const client = await bankedClient(t, due, { behavior: 'approve', last4: '4242' });
    const results = await Promise.all([run(due, [client.actId]), run(due, [client.actId])]);
    expect(results.reduce((sum, r) => sum + r.notices, 0)).toBe(1);
    const approved = await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.clientId, client.id), eq(payments.status, 'approved')));
    expect(approved).toHaveLength(1);
    const notices = (await t.mailTo(client.email)).filter(
      (m) => m.subject === 'Your annual storage renews soon',
    );
    expect(notices).toHaveLength(1);
    expect(await paidUntilOf(client.id)).toBe(addYears(due, 1));
  });

  it('lets the client pay a declined year from Payment Information; the next retry charges nothing', async () => {
    const due = addDays(today, 26);
    const client = await bankedClient(t, due, { behavior: 'charge:insufficient_funds', last4: '9995' });
    await run(due, [client.actId]);
    const cookie = await t.signIn(client.actId);
    const renewal = await t.app.inject({
      method: 'GET',
      url: '/api/pay/storage_renewal',
      headers: { cookie },
    });
    expect(renewal.json()).toMatchObject({
      retryingOn: `Payment due, retrying on ${usDate(addDays(due, 3))}`,
    });
    const info = await t.app.inject({ method: 'GET', url: '/api/pay/get_PaymentInfo', headers: { cookie } });
    expect(info.json().result.Total_Amount_Overdue).toBe(339.81);
    const saved = await saveCardOnFile(t, cookie, `renewal-pay-${client.actId}`);
    // By card the year's card amount its notice fixed, $350.00, with no fee on top.
    expect(saved.json()).toMatchObject({ amountCharged: 350 });
    const [year] = await years(client.id);
    expect(year).toMatchObject({ status: 'paid', recovered: true });
    expect(await paidUntilOf(client.id)).toBe(addYears(due, 1));
    expect(await run(addDays(due, 20), [client.actId])).toMatchObject({ charges: 0, declines: 0 });
  });

  it('is run by an admin in demo mode with an Idempotency-Key; a repeat answers the same counts', async () => {
    const due = addDays(today, 22);
    const client = await bankedClient(t, due, { behavior: 'approve', last4: '4242' });
    const post = (asOf: string, key: string, cookie = admin) =>
      t.app.inject({
        method: 'POST',
        url: '/api/staff/billing/run',
        headers: { cookie, 'idempotency-key': key },
        payload: { asOf, clients: [client.actId] },
      });
    const first = await post(due, 'billing-run-test-1');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ notices: 1, charges: 1, asOf: due });
    const again = await post(due, 'billing-run-test-1');
    expect(again.json()).toEqual(first.json());
    const tooFar = await post(addYears(today, 3), 'billing-run-test-2');
    expect(tooFar.statusCode).toBe(400);
    expect(tooFar.json().error).toBe('The date can be at most two years ahead');
    const overview = await t.app.inject({
      method: 'GET',
      url: '/api/staff/billing',
      headers: { cookie: admin },
    });
    expect(overview.statusCode).toBe(200);
  });

  it('lets an admin waive an overdue year (paid through it) or defer a year, with a reason; staff only read', async () => {
    const due = addDays(today, 28);
    const waived = await bankedClient(t, due, { behavior: 'charge:stolen_card', last4: '0019' });
    await run(due, [waived.actId]);
    const [overdue] = await years(waived.id);
    expect(overdue?.status).toBe('overdue');
    const change = (id: string, payload: object, cookie = admin) =>
      t.app.inject({ method: 'POST', url: `/api/staff/billing/years/${id}`, headers: { cookie }, payload });

    const member = await staffLevelMember(t, admin, 'billing-member@example.com');
    expect(
      (await change(overdue?.id ?? '', { action: 'waive', reason: 'Goodwill' }, member)).statusCode,
    ).toBe(404);
    const noReason = await change(overdue?.id ?? '', { action: 'waive', reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fields).toEqual({ reason: 'Please give a reason' });
    const done = await change(overdue?.id ?? '', {
      action: 'waive',
      reason: 'Goodwill after a hospital stay',
    });
    expect(done.json()).toEqual({ message: 'The year was waived.' });
    expect(await paidUntilOf(waived.id)).toBe(addYears(due, 1));
    expect((await change(overdue?.id ?? '', { action: 'waive', reason: 'Again' })).statusCode).toBe(409);

    const deferred = await bankedClient(t, addDays(today, 29), { behavior: 'approve', last4: '4242' });
    await run(today, [deferred.actId]);
    const [noticed] = await years(deferred.id);
    const later = addDays(today, 60);
    const moved = await change(noticed?.id ?? '', {
      action: 'defer',
      reason: 'Asked to pay after surgery',
      until: later,
    });
    expect(moved.json()).toEqual({ message: `The year was deferred to ${usDate(later)}.` });
    expect(await run(addDays(today, 59), [deferred.actId])).toMatchObject({ charges: 0 });
    expect(await run(later, [deferred.actId])).toMatchObject({ charges: 1 });

    // The client's record shows the schedule, to staff of either level.
    const schedule = await t.app.inject({
      method: 'GET',
      url: `/api/staff/billing/clients/${waived.actId}`,
      headers: { cookie: member },
    });
    expect(schedule.json().years).toMatchObject([
      { status: 'waived', note: 'Waived: Goodwill after a hospital stay', amountCents: 35_000, tries: 1 },
    ]);
    // A client reaches none of it: the same 404 as a route that does not exist.
    const client = await t.signIn(waived.actId);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/staff/billing', headers: { cookie: client } }))
        .statusCode,
    ).toBe(404);
  });
});
