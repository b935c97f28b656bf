import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffClientPayments } from '../../../domain/refunds';
import {
  clientActivities,
  paymentMethods,
  refunds,
  sandboxPaymentMethods,
  sandboxRefunds,
  sandboxTransactions,
} from '../../db/schema';
import { addClient } from '../../testing/form-fixtures';
import { expectSeen, itLooks, readPdf, valueAfter } from '../../testing/pdf-ocr';
import { pageText } from '../../testing/pdf-reading';
import { staffLevelMember, staffSession } from '../../testing/staff-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { chargeOnce } from './one-off-charge';
import { refundPayment } from './refunds';

/**
 * Refunds (issue 22): a ledger entry linked to its charge, never more than was charged whatever
 * runs at once; a charge still in its open batch is voided whole; admins only, with a reason.
 */

let t: TestApp;
let admin: string;
let seq = 0;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await startTestApp();
  admin = await staffSession(t);
});
afterAll(async () => {
  await t.close();
});

/** A client charged `totalCents` by card (Visa ending 4242) through the one ledger. */
async function chargedClient(totalCents: number) {
  const names = { firstName: 'Rosa', lastName: 'Alvarado' };
  const client = { ...(await addClient(t.db, names)), ...names };
  seq += 1;
  const ref = { paymentRef: `refund-test-pm-${seq}`, customerRef: `refund-test-cust-${seq}` };
  const card = { kind: 'card' as const, brand: 'Visa', last4: '4242', expiryMonth: 12, expiryYear: 2035 };
  await t.db
    .insert(sandboxPaymentMethods)
    .values({ ...ref, ...card, behavior: 'approve', createdAt: t.clock.now() });
  const [method] = await t.db
    .insert(paymentMethods)
    .values({
      clientId: client.id,
      ...card,
      gateway: 'sandbox',
      gatewayCustomerRef: ref.customerRef,
      gatewayPaymentRef: ref.paymentRef,
    })
    .returning();
  if (!method) throw new Error('no method');
  const charge = await chargeOnce(
    { ...t.app.deps, log: { warn() {} } },
    {
      clientId: client.id,
      source: 'CP Store',
      purpose: 'store_order',
      idempotencyKey: `refund-test-charge-${seq}`,
      request: {},
      amountCents: totalCents,
      feeCents: 0,
      kind: 'card',
      method: { onFile: method },
      description: 'Store order',
    },
  );
  return { ...client, paymentId: charge.paymentId, customerRef: ref.customerRef };
}

const refund = (body: object, key: string, cookie = admin) =>
  t.app.inject({
    method: 'POST',
    url: '/api/staff/refunds',
    headers: { cookie, 'idempotency-key': key },
    payload: body,
  });

/** The staff record's list of a client's payments, as `cookie` reads it. */
async function paymentsOf(actId: string, cookie = admin): Promise<StaffClientPayments> {
  const answer = await t.app.inject({
    method: 'GET',
    url: `/api/staff/clients/${actId}/payments`,
    headers: { cookie },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
}

const decide = (
  refundId: string,
  action: 'approve' | 'decline',
  cookie: string,
  key = `${action}-${refundId}`,
) =>
  t.app.inject({
    method: 'POST',
    url: `/api/staff/refunds/${refundId}/${action}`,
    headers: { cookie, 'idempotency-key': key },
  });

/** The sandbox settles each day at 4:00 PM Pacific: two days on, every charge so far has settled. */
async function afterSettlement() {
  t.clock.advance(2 * DAY);
  admin = await staffSession(t);
}

describe('refunds', () => {
  it('voids a charge refunded whole before it settles: nothing moves, the client is told', async () => {
    const client = await chargedClient(35_000);
    const answer = await refund(
      { paymentId: client.paymentId, amount: '350.00', reason: 'Ordered twice' },
      `void-${client.actId}`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      kind: 'void',
      amountCents: 35_000,
      refundedCents: 35_000,
      leftCents: 0,
      message: 'The payment of $350.00 was voided before it settled: nothing was taken.',
    });
    const [sandbox] = await t.db
      .select()
      .from(sandboxTransactions)
      .where(eq(sandboxTransactions.customerRef, client.customerRef));
    expect(sandbox?.status).toBe('voided');
    const mail = (await t.mailTo(client.email)).find((m) => m.subject === 'Your refund');
    expect(mail?.textBody).toContain(
      'was cancelled before it settled: nothing was taken from your Visa ending in 4242',
    );
    const activity = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.clientId, client.id));
    expect(activity).toMatchObject([{ type: 'Refund', stageName: 'Voided', amountCents: 35_000 }]);
  });

  it('refunds part of a settled charge, answers a repeat of the key the same, and refuses more than is left', async () => {
    const client = await chargedClient(35_000);
    await afterSettlement();
    const first = await refund(
      { paymentId: client.paymentId, amount: '100.00', reason: 'Partial goodwill' },
      `part-${client.actId}`,
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      kind: 'refund',
      amountCents: 10_000,
      refundedCents: 10_000,
      leftCents: 25_000,
    });
    const again = await refund(
      { paymentId: client.paymentId, amount: '100.00', reason: 'Partial goodwill' },
      `part-${client.actId}`,
    );
    expect(again.json()).toEqual(first.json());
    const tooMuch = await refund(
      { paymentId: client.paymentId, amount: '250.01', reason: 'Too much' },
      `too-much-${client.actId}`,
    );
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().fields).toEqual({
      amount: 'The refund is more than what is left of this payment: at most $250.00 can be refunded.',
    });
    const mail = (await t.mailTo(client.email)).find((m) => m.subject === 'Your refund');
    expect(mail?.textBody).toContain('We refunded $100.00 of your payment of $350.00');
  });

  it('never refunds more than was charged when 20 refunds of one charge race', async () => {
    const client = await chargedClient(35_000);
    await afterSettlement();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        refund({ paymentId: client.paymentId, amount: '30.00', reason: 'Race' }, `race-${client.actId}-${i}`),
      ),
    );
    const done = answers.filter((a) => a.statusCode === 200);
    expect(done).toHaveLength(11);
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(9);
    const rows = await t.db
      .select()
      .from(refunds)
      .where(and(eq(refunds.paymentId, client.paymentId), eq(refunds.status, 'refunded')));
    expect(rows.reduce((sum, r) => sum + r.amountCents, 0)).toBe(33_000);
    const gatewayRefunds = await t.db
      .select()
      .from(sandboxRefunds)
      .where(and(eq(sandboxRefunds.customerRef, client.customerRef), eq(sandboxRefunds.status, 'refunded')));
    expect(gatewayRefunds.reduce((sum, r) => sum + r.amountCents, 0)).toBe(33_000);
  });

  it('is for admins, with a reason; staff-level members only read the payments', async () => {
    const client = await chargedClient(60_000);
    const member = await staffLevelMember(t, admin, `refund-member-${client.actId}@example.com`);
    const body = { paymentId: client.paymentId, amount: '10.00', reason: 'Staff' };
    expect((await refund(body, `member-${client.actId}`, member)).statusCode).toBe(404);
    const read = await paymentsOf(client.actId, member);
    expect(read.canRefund).toBe(false);
    expect(read.payments).toMatchObject([
      {
        id: client.paymentId,
        totalCents: 60_000,
        refundedCents: 0,
        leftCents: 60_000,
        method: 'Visa ending in 4242',
      },
    ]);
    const noReason = await refund({ ...body, reason: ' ' }, `no-reason-${client.actId}`);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fields).toMatchObject({ reason: 'Please give a reason for the refund' });
    const unknown = await refund(
      { ...body, paymentId: '00000000-0000-4000-8000-000000000000' },
      `unknown-${client.actId}`,
    );
    expect(unknown.statusCode).toBe(404);
  });
});

/** Another admin, who signs in on their own (the asker cannot approve their own refund). */
const otherAdmin = (tag: string, name = 'Second Admin') =>
  staffLevelMember(t, admin, `${tag}@example.com`, name, 'admin');

const settledAtGateway = async (customerRef: string) => {
  const rows = await t.db
    .select()
    .from(sandboxRefunds)
    .where(and(eq(sandboxRefunds.customerRef, customerRef), eq(sandboxRefunds.status, 'refunded')));
  return { count: rows.length, cents: rows.reduce((sum, r) => sum + r.amountCents, 0) };
};

const refundMails = async (email: string) =>
  (await t.mailTo(email)).filter((mail) => mail.subject === 'Your refund');

describe('refunds above the approval limit', () => {
  it('are recorded awaiting another admin, nothing sent, and sent once when that admin approves', async () => {
    const client = await chargedClient(100_000);
    await afterSettlement();
    const second = await otherAdmin(`approver-${client.actId}`);
    const asked = await refund(
      { paymentId: client.paymentId, amount: '600.00', reason: 'Goodwill after a late shipment' },
      `big-${client.actId}`,
    );
    expect(asked.statusCode, asked.body).toBe(200);
    const refundId = asked.json().refundId as string;
    expect(asked.json()).toEqual({
      success: true,
      awaitingApproval: true,
      message: 'The refund of $600.00 is above $500.00: it is sent once another admin approves it.',
      refundId,
      paymentId: client.paymentId,
      amountCents: 60_000,
      refundedCents: 0,
      leftCents: 40_000,
    });
    // Nothing sent: no refund at the gateway, no e-mail, nothing on Client Activity.
    expect(await settledAtGateway(client.customerRef)).toEqual({ count: 0, cents: 0 });
    expect(await refundMails(client.email)).toHaveLength(0);
    const activity = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.clientId, client.id));
    expect(activity.filter((a) => a.type === 'Refund')).toHaveLength(0);

    // The asker sees it awaiting another admin; the other admin may approve it.
    const mine = await paymentsOf(client.actId);
    expect(mine).toMatchObject({ approvalLimitCents: 50_000, canRefund: true });
    expect(mine.payments[0]).toMatchObject({
      refundedCents: 0,
      awaitingApprovalCents: 60_000,
      leftCents: 40_000,
      refunds: [
        {
          id: refundId,
          status: 'awaiting_approval',
          amountCents: 60_000,
          reason: 'Goodwill after a late shipment',
          requestedBy: 'Demo Admin',
          askedByYou: true,
          canApprove: false,
        },
      ],
    });
    const theirs = await paymentsOf(client.actId, second);
    expect(theirs.payments[0]?.refunds[0]).toMatchObject({ askedByYou: false, canApprove: true });

    const own = await decide(refundId, 'approve', admin);
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toBe(
      'You asked for this refund: an admin other than the one who asked must approve it.',
    );

    const approved = await decide(refundId, 'approve', second);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      refundId,
      kind: 'refund',
      amountCents: 60_000,
      refundedCents: 60_000,
      leftCents: 40_000,
      message: '$600.00 was refunded.',
    });
    expect((await decide(refundId, 'approve', second)).json()).toEqual(approved.json());
    const again = await decide(refundId, 'approve', second, `again-${refundId}`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Another admin already approved this refund.');

    expect(await settledAtGateway(client.customerRef)).toEqual({ count: 1, cents: 60_000 });
    const mails = await refundMails(client.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.textBody).toContain('We refunded $600.00 of your payment of $1,000.00');
    expect(mails[0]?.textBody).toContain('[Attachment: refund-receipt.pdf, application/pdf');
    expect((await paymentsOf(client.actId)).payments[0]?.refunds[0]).toMatchObject({
      status: 'refunded',
      decidedBy: 'Second Admin',
      askedByYou: false,
      canApprove: false,
    });
  });

  it('is sent once when admins approve it at the same moment', async () => {
    const client = await chargedClient(80_000);
    await afterSettlement();
    const second = await otherAdmin(`racer-a-${client.actId}`);
    const third = await otherAdmin(`racer-b-${client.actId}`, 'Third Admin');
    const asked = await refund(
      { paymentId: client.paymentId, amount: '700.00', reason: 'Race' },
      `race-big-${client.actId}`,
    );
    const refundId = asked.json().refundId as string;
    const answers = await Promise.all([
      decide(refundId, 'approve', second, `a1-${refundId}`),
      decide(refundId, 'approve', second, `a2-${refundId}`),
      decide(refundId, 'approve', third, `b1-${refundId}`),
      decide(refundId, 'approve', third, `b2-${refundId}`),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await settledAtGateway(client.customerRef)).toEqual({ count: 1, cents: 70_000 });
    const rows = await t.db.select().from(refunds).where(eq(refunds.paymentId, client.paymentId));
    expect(rows.map((r) => r.status)).toEqual(['refunded']);
    expect(await refundMails(client.email)).toHaveLength(1);
  });

  it('are held against the charge: what may be refunded excludes them, whatever runs at once', async () => {
    const client = await chargedClient(100_000);
    await afterSettlement();
    const second = await otherAdmin(`holder-${client.actId}`);
    const asked = await refund(
      { paymentId: client.paymentId, amount: '600.00', reason: 'Held' },
      `held-${client.actId}`,
    );
    const refundId = asked.json().refundId as string;
    const tooMuch = await refund(
      { paymentId: client.paymentId, amount: '400.01', reason: 'Too much' },
      `held-too-much-${client.actId}`,
    );
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().fields).toEqual({
      amount: 'The refund is more than what is left of this payment: at most $400.00 can be refunded.',
    });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        refund(
          { paymentId: client.paymentId, amount: '100.00', reason: 'Race' },
          `held-${client.actId}-${i}`,
        ),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(4);
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(6);
    const approved = await decide(refundId, 'approve', second);
    expect(approved.json()).toMatchObject({ refundedCents: 100_000, leftCents: 0 });
    expect(await settledAtGateway(client.customerRef)).toEqual({ count: 5, cents: 100_000 });
    const listed = (await paymentsOf(client.actId)).payments[0];
    expect(listed).toMatchObject({ refundedCents: 100_000, awaitingApprovalCents: 0, leftCents: 0 });
  });

  it('declined (or withdrawn by the asker), sends nothing and frees its amount', async () => {
    const client = await chargedClient(100_000);
    await afterSettlement();
    const second = await otherAdmin(`decliner-${client.actId}`);
    const member = await staffLevelMember(t, admin, `decline-member-${client.actId}@example.com`);
    const ask = async (key: string) =>
      (await refund({ paymentId: client.paymentId, amount: '700.00', reason: 'Wrong amount' }, key)).json()
        .refundId as string;
    const first = await ask(`decline-a-${client.actId}`);
    expect((await decide(first, 'decline', member)).statusCode).toBe(404);
    expect((await decide(first, 'approve', member)).statusCode).toBe(404);
    const declined = await decide(first, 'decline', second);
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toEqual({
      success: true,
      message: 'The refund of $700.00 was declined: nothing was sent.',
      refundId: first,
    });
    expect((await decide(first, 'decline', second)).json()).toEqual(declined.json());
    const late = await decide(first, 'approve', admin, `late-${first}`);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('This refund was declined: nothing was sent.');

    // Its amount is free again; the asker withdraws a second request of their own.
    t.clock.advance(60_000);
    const withdrawn = await ask(`decline-b-${client.actId}`);
    expect((await decide(withdrawn, 'decline', admin)).statusCode).toBe(200);
    const listed = (await paymentsOf(client.actId)).payments[0];
    expect(listed).toMatchObject({ refundedCents: 0, awaitingApprovalCents: 0, leftCents: 100_000 });
    expect(listed?.refunds.map((r) => [r.status, r.decidedBy])).toEqual([
      ['declined', 'Demo Admin'],
      ['declined', 'Second Admin'],
    ]);
    expect(await settledAtGateway(client.customerRef)).toEqual({ count: 0, cents: 0 });
    expect(await refundMails(client.email)).toHaveLength(0);
  });

  it('answers an unknown refund 404', async () => {
    const unknown = await decide('00000000-0000-4000-8000-000000000000', 'approve', admin);
    expect(unknown.statusCode).toBe(404);
  });
});

describe('refund receipts', () => {
  /** The client's Client Activity rows, as their portal reads them. */
  const activityOf = async (actId: string) => {
    const answer = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_ClientActivity',
      headers: { cookie: await t.signIn(actId) },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().result as Array<{ Type: string; Amount: string | null; ReceiptId: string | null }>;
  };
  const receipt = async (id: string, actId: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/pay/receipts/${id}`,
      headers: { cookie: await t.signIn(actId) },
    });

  let refundPdf: Buffer;
  let client: Awaited<ReturnType<typeof chargedClient>>;
  let paidOn: string;

  it("are linked from the client's Client Activity row of the refund, for that client only", async () => {
    client = await chargedClient(35_000);
    await afterSettlement();
    const done = await refund(
      { paymentId: client.paymentId, amount: '125.00', reason: 'Goodwill: staff note' },
      `receipt-${client.actId}`,
    );
    expect(done.statusCode, done.body).toBe(200);
    const refundId = done.json().refundId as string;
    const row = (await activityOf(client.actId)).find((a) => a.Type === 'Refund');
    expect(row).toMatchObject({ Amount: '125.00', ReceiptId: refundId });
    const answer = await receipt(refundId, client.actId);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toContain(`refund-receipt-${client.actId}`);
    refundPdf = answer.rawPayload;
    const someoneElse = await addClient(t.db);
    expect((await receipt(refundId, someoneElse.actId)).statusCode).toBe(404);
    // Staff read the same receipts from the client's record; the staff route is not the client's.
    const asStaff = (id: string, cookie = admin) =>
      t.app.inject({ method: 'GET', url: `/api/staff/receipts/${id}`, headers: { cookie } });
    const staffCopy = await asStaff(refundId);
    expect(staffCopy.statusCode).toBe(200);
    expect(staffCopy.headers['content-disposition']).toContain(`refund-receipt-${client.actId}`);
    expect((await asStaff(client.paymentId)).headers['content-disposition']).toContain(
      `attachment; filename="receipt-${client.actId}-`,
    );
    expect((await asStaff('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await asStaff('not-a-uuid')).statusCode).toBe(404);
    expect((await asStaff(refundId, await t.signIn(client.actId))).statusCode).toBe(404);

    // Its text layer: the references, and not the staff member's note.
    const text = pageText(await PDFDocument.load(refundPdf), 0);
    paidOn = valueAfter(text, 'Of the payment').replace('$350.00 paid on ', '');
    expect(paidOn).toMatch(/^\d\d\/\d\d\/\d{4}$/);
    const [row2] = await t.db.select().from(refunds).where(eq(refunds.id, refundId));
    expect(valueAfter(text, 'Reference')).toBe(row2?.reference);
    expect(valueAfter(text, 'Refund transaction number')).toBe(row2?.gatewayTransactionId);
    expect(text).not.toContain('Goodwill');
    expect(text).not.toContain('Reason');
  });

  itLooks('draw what was refunded, of which payment, to which card, as a person reads it', async () => {
    const seen = await readPdf(refundPdf, { pages: [1], languages: ['eng'] });
    expectSeen(seen, [
      'Refund receipt',
      `Client ${client.firstName} ${client.lastName} (Client ID ${client.actId})`,
      'Amount refunded $125.00',
      `Of the payment $350.00 paid on ${paidOn}`,
      'For Store order: Stem Cell Face Serum',
      'Refunded to Visa ending in 4242',
      'The refund reaches the account in 5 to 10 business days.',
    ]);
  });

  it("print a cancellation's reason, the policy's words; a void's says nothing was taken", async () => {
    const cancelled = await chargedClient(20_000);
    const voided = await refundPayment(
      { ...t.app.deps, log: { warn() {} } },
      {
        scope: 'cancellations',
        idempotencyKey: `receipt-source-${cancelled.actId}`,
        paymentId: cancelled.paymentId,
        amount: '200.00',
        reason: 'Vial request cancelled ($0.00 kept)',
        requestedBy: null,
        clientId: cancelled.id,
        source: `vial-request:test-${cancelled.actId}`,
      },
    );
    expect(voided).toMatchObject({ kind: 'void' });
    const answer = await receipt(voided.refundId, cancelled.actId);
    const text = pageText(await PDFDocument.load(answer.rawPayload), 0);
    expect(text).toContain('Void receipt');
    expect(valueAfter(text, 'Amount voided')).toBe('$200.00');
    expect(valueAfter(text, 'Reason')).toBe('Vial request cancelled ($0.00 kept)');
    expect(text).toContain('The payment was voided before it settled: nothing was taken from the account.');
    const mail = (await refundMails(cancelled.email))[0];
    expect(mail?.textBody).toContain('[Attachment: refund-receipt.pdf, application/pdf');
  });
});
