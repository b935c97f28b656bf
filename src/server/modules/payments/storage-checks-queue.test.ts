import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client-basics';
import { addDays, addYears, isoToUsDate as usDate } from '../../../domain/dates';
import { annualStorageFees, auditEvents, clientActivities, clients, documents } from '../../db/schema';
import { addClient, saveCardOnFile } from '../../testing/form-fixtures';
import { staffLevelMember, staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';
import { renewalDeps } from './billing-routes';
import { runBilling } from './billing-run';

/**
 * Storage years paid by check (issue 21): "a check recorded by staff on the existing check queue
 * pays the year". The invoiced years (no method on file) and the overdue ones are listed, oldest
 * due first; the check must be the year's $350.00 exactly; it pays the year once, whoever clicks.
 */

let t: TestApp;
let today: string;
let admin: string;
let member: string;
let keySeq = 0;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
  today = todayFor(t.clock.now());
  admin = await staffSession(t);
  member = await staffLevelMember(t, admin, 'desk.storage@bank.example.com', 'Desk Storage');
});
afterAll(() => t.close());

/** A banked client with no method on file whose year 1 falls due in `inDays`, noticed (its invoice sent). */
async function invoicedClient(inDays: number) {
  const due = addDays(today, inDays);
  const client = await addClient(t.db, { dateBankedIn: addYears(due, -1), annualStoragePaidUntil: due });
  await runBilling(renewalDeps(t.app.deps), { asOf: today, clientActIds: [client.actId] });
  const [year] = await yearsOf(client.id);
  expect(year).toMatchObject({ status: 'noticed', methodKind: 'none', amountCents: 35_000 });
  return { ...client, due, feeId: year?.id as string };
}

async function yearsOf(clientId: string) {
  return t.db.select().from(annualStorageFees).where(eq(annualStorageFees.clientId, clientId));
}

async function paidUntilOf(clientId: string) {
  const [row] = await t.db
    .select({ paidUntil: clients.annualStoragePaidUntil })
    .from(clients)
    .where(eq(clients.id, clientId));
  return row?.paidUntil;
}

const post = (cookie: string | undefined, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/staff/record_storage_check',
    payload,
    headers: cookie ? { cookie } : {},
  });
const list = async (cookie = admin) => {
  const answer = await t.app.inject({ method: 'GET', url: '/api/staff/storage_checks', headers: { cookie } });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ years: Array<{ feeId: string; [key: string]: unknown }> }>().years;
};
const check = (feeId: string, overrides: object = {}) => ({
  feeId,
  checkNumber: '5150',
  checkAmount: '350.00',
  checkDate: usDate(today),
  ...overrides,
});

describe('Storage Years Paid by Check: who may reach it', () => {
  it('answers 401 without a session, 404 to a client and to a physician', async () => {
    const client = await t.signIn('ACT10001');
    const physician = await t.signInPhysician('PHY20001');
    for (const [method, url] of [
      ['GET', '/api/staff/storage_checks'],
      ['POST', '/api/staff/record_storage_check'],
    ] as const) {
      const payload = method === 'POST' ? { payload: check(randomUUID()) } : {};
      expect((await t.app.inject({ method, url, ...payload })).statusCode).toBe(401);
      for (const cookie of [client, physician]) {
        const answer = await t.app.inject({ method, url, headers: { cookie }, ...payload });
        expect(answer.statusCode, answer.body).toBe(404);
      }
    }
  });
});

describe('Storage Years Paid by Check', () => {
  it('lists an invoiced year with its client, year, due date and $350.00; a card client is not listed', async () => {
    const later = await invoicedClient(28);
    const sooner = await invoicedClient(20);
    const byCard = await addClient(t.db, {
      dateBankedIn: addYears(addDays(today, 20), -1),
      annualStoragePaidUntil: addDays(today, 20),
    });
    await saveCardOnFile(t, await t.signIn(byCard.actId), `storage-checks-${++keySeq}`);
    await runBilling(renewalDeps(t.app.deps), { asOf: today, clientActIds: [byCard.actId] });

    const years = await list();
    expect(years.find((y) => y.feeId === sooner.feeId)).toMatchObject({
      clientActId: sooner.actId,
      yearNumber: 1,
      dueDate: sooner.due,
      overdue: false,
      amountDueCents: 35_000,
      paidUntil: sooner.due,
      paysUntil: addYears(sooner.due, 1),
    });
    const ids = years.map((y) => y.feeId);
    // Oldest due first.
    expect(ids.indexOf(sooner.feeId)).toBeLessThan(ids.indexOf(later.feeId));
    const [cardYear] = await yearsOf(byCard.id);
    expect(cardYear?.methodKind).toBe('card');
    expect(ids).not.toContain(cardYear?.id);

    const queues = await t.app.inject({
      method: 'GET',
      url: '/api/staff/queues',
      headers: { cookie: admin },
    });
    expect(queues.json<{ queues: unknown[] }>().queues).toContainEqual(
      expect.objectContaining({ key: 'storage-checks', title: 'Storage Years Paid by Check' }),
    );
  });

  it('refuses a check that is not for $350.00 exactly, or dated in the future, and pays nothing', async () => {
    const client = await invoicedClient(20);
    const short = await post(admin, check(client.feeId, { checkAmount: '339.81' }));
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      error: 'The check must be for the amount due, $350.00.',
      fields: { checkAmount: 'The check must be for the amount due, $350.00.' },
    });
    const future = await post(admin, check(client.feeId, { checkDate: usDate(addDays(today, 5)) }));
    expect(future.statusCode).toBe(400);
    expect(future.json().error).toBe('The check date cannot be in the future.');
    const [year] = await yearsOf(client.id);
    expect(year).toMatchObject({ status: 'noticed', paidAt: null });
  });

  it('recording the check pays the year once (clicked twice), moves paid-until and e-mails one receipt', async () => {
    const client = await invoicedClient(20);
    const [first, second] = await Promise.all([
      post(admin, check(client.feeId)),
      post(admin, check(client.feeId)),
    ]);
    expect(first?.statusCode, first?.body).toBe(200);
    expect(second?.statusCode, second?.body).toBe(200);
    expect(second?.json()).toEqual(first?.json());
    const newPaidUntil = addYears(client.due, 1);
    expect(first?.json()).toMatchObject({
      message: 'Check recorded. The storage year is paid and the client was e-mailed the receipt.',
      clientActId: client.actId,
      checkNumber: '5150',
      checkAmountCents: 35_000,
      checkDate: today,
      paidUntil: newPaidUntil,
    });
    // The same click again later: the same answer.
    const again = await post(admin, check(client.feeId));
    expect(again.json()).toEqual(first?.json());

    expect(await paidUntilOf(client.id)).toBe(newPaidUntil);
    const [year] = await yearsOf(client.id);
    expect(year).toMatchObject({ status: 'paid', paidOn: today, checkNumber: '5150', paymentId: null });
    const activity = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.clientId, client.id));
    expect(activity).toMatchObject([
      {
        type: 'Annual Storage Fee',
        purchasedPlanName: 'Annual Storage (storage year 1, check no. 5150)',
        stageName: 'Closed Won',
        amountCents: 35_000,
        closeDate: today,
      },
    ]);
    const receipts = await t.db
      .select()
      .from(documents)
      .where(and(eq(documents.clientId, client.id), eq(documents.kind, 'receipt')));
    expect(receipts).toHaveLength(1);
    const mails = (await t.mailTo(client.email)).filter(
      (m) => m.subject === 'Receipt: annual storage renewed',
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]?.textBody).toContain(
      `We received check no. 5150 of $350.00, dated ${usDate(today)}, for your annual storage (storage year 1, Client ID ${client.actId}).`,
    );
    expect(mails[0]?.textBody).toContain(`Your storage is now paid until ${usDate(newPaidUntil)}.`);
    expect(mails[0]?.textBody).toContain('[Attachment: receipt.pdf, application/pdf');

    expect((await list()).map((y) => y.feeId)).not.toContain(client.feeId);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.clientId, client.id), eq(auditEvents.action, 'record-storage-check')));
    expect(audit.length).toBeGreaterThan(0);
  });

  it('two staff at once: the year is paid once, the other is told who recorded the check', async () => {
    const client = await invoicedClient(20);
    const answers = await Promise.all([
      post(member, check(client.feeId)),
      post(admin, check(client.feeId, { checkNumber: '5151' })),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const won = answers.find((a) => a.statusCode === 200)?.json<{ checkNumber: string }>();
    const lost = answers.find((a) => a.statusCode === 409);
    const winner = won?.checkNumber === '5150' ? 'Desk Storage' : 'Demo Admin';
    expect(lost?.json().error).toBe(`This check was already recorded by ${winner} on ${usDate(today)}.`);
    // Whoever lost, sending it again later is told the same.
    const later = await post(
      won?.checkNumber === '5150' ? admin : member,
      check(client.feeId, { checkNumber: '9' }),
    );
    expect(later.statusCode).toBe(409);
    expect(later.json().error).toBe(`This check was already recorded by ${winner} on ${usDate(today)}.`);
    expect((await yearsOf(client.id)).filter((y) => y.status === 'paid')).toHaveLength(1);
    expect(
      await t.db.select().from(clientActivities).where(eq(clientActivities.clientId, client.id)),
    ).toHaveLength(1);
  });

  it('lists an overdue year; once the client paid it by card, the check is refused with when', async () => {
    const client = await invoicedClient(20);
    await runBilling(renewalDeps(t.app.deps), {
      asOf: addDays(client.due, 14),
      clientActIds: [client.actId],
    });
    expect((await list()).find((y) => y.feeId === client.feeId)).toMatchObject({ overdue: true });

    // Saving a card on Payment Information pays what is overdue.
    await saveCardOnFile(t, await t.signIn(client.actId), `storage-checks-${++keySeq}`);
    const [year] = await yearsOf(client.id);
    expect(year?.status).toBe('paid');
    expect((await list()).map((y) => y.feeId)).not.toContain(client.feeId);

    const refused = await post(admin, check(client.feeId));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(
      `This storage year was already paid by card or bank account on ${usDate(today)}.`,
    );
  });

  it('a year a renewal charge holds is not listed, and its check is refused while it charges', async () => {
    const client = await invoicedClient(20);
    // A charge in flight (the renewal's claim on the row, as storage-renewals.ts takes it).
    await t.db
      .update(annualStorageFees)
      .set({ claimOperationId: randomUUID() })
      .where(eq(annualStorageFees.id, client.feeId));
    expect((await list()).map((y) => y.feeId)).not.toContain(client.feeId);
    const refused = await post(admin, check(client.feeId));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(
      'A card or bank payment for this storage year is under way. Please look again in a minute.',
    );
    const [year] = await yearsOf(client.id);
    expect(year).toMatchObject({ status: 'noticed', paidAt: null, checkNumber: null });
    expect(await paidUntilOf(client.id)).toBe(client.due);
  });

  it('takes the checks of two overdue years in order: a later year first is refused, naming the earlier', async () => {
    const first = addDays(today, -400);
    const second = addYears(first, 1);
    const client = await addClient(t.db, {
      dateBankedIn: addYears(first, -1),
      annualStoragePaidUntil: first,
    });
    const overdueYear = (yearNumber: number, dueDate: string) => ({
      clientId: client.id,
      yearNumber,
      dueDate,
      coversUntil: addYears(dueDate, 1),
      amountCents: 35_000,
      achAmountCents: 33_981,
      status: 'overdue' as const,
      methodKind: 'none',
    });
    const [year1, year2] = await t.db
      .insert(annualStorageFees)
      .values([overdueYear(1, first), overdueYear(2, second)])
      .returning();
    const early = await post(admin, check(year2?.id ?? ''));
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe(
      `The client's storage year due ${usDate(first)} is not paid yet: record its check first.`,
    );
    expect(await paidUntilOf(client.id)).toBe(first);
    expect((await post(admin, check(year1?.id ?? ''))).statusCode).toBe(200);
    expect(await paidUntilOf(client.id)).toBe(second);
    const last = await post(admin, check(year2?.id ?? '', { checkNumber: '5152' }));
    expect(last.statusCode, last.body).toBe(200);
    expect(await paidUntilOf(client.id)).toBe(addYears(second, 1));
  });

  it('answers 404 for a storage year that does not exist', async () => {
    expect((await post(admin, check(randomUUID()))).statusCode).toBe(404);
  });
});
