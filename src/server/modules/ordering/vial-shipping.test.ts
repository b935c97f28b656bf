import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import { documents, vialRequests } from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { validTuesday } from '../../testing/dates';
import { addReleaseClient, saveCardOnFile, vialRequestBody } from '../../testing/form-fixtures';
import { staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * Shipping a vial request (issue 22): a FedEx label only after the practitioner's approval, once;
 * the offline carrier's scans reach the client's timeline as time passes, delivery marks it
 * delivered and e-mails the clinic a link that records the cells arrived frozen.
 */

const HOUR = 60 * 60_000;
const log = { info() {}, warn() {} };
const CLINIC = 'receiving@hudson-ortho.example.com';
let t: TestApp;
let staff: string;
let keySeq = 0;
const newKey = () => `shipping-key-${++keySeq}`;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '10000', ...MANY_PAYMENT_ATTEMPTS });
});
// The clock moves a day in one test: each test signs staff in afresh.
beforeEach(async () => {
  staff = await staffSession(t);
});
afterAll(() => t.close());

async function placedRequest(overrides: Record<string, unknown> = {}) {
  const client = await addReleaseClient(t.db);
  const cookie = await t.signIn(client.actId);
  await saveCardOnFile(t, cookie, newKey());
  const placed = await t.app.inject({
    method: 'POST',
    url: '/api/pay/send_CellRequest',
    headers: { cookie, 'idempotency-key': newKey() },
    payload: vialRequestBody({
      NumberOfVials: 2,
      ShipmentDate: validTuesday(todayFor(t.clock.now()), 28),
      ...overrides,
    }),
  });
  expect(placed.statusCode, placed.body).toBe(200);
  return { ...client, clientId: client.id, cookie, id: placed.json().id as string };
}

const staffPost = (id: string, action: string, payload: Record<string, unknown> = {}, key = newKey()) =>
  t.app.inject({
    method: 'POST',
    url: `/api/staff/vial_requests/${id}/${action}`,
    headers: { cookie: staff, 'idempotency-key': key },
    payload,
  });

const label = {
  dryShipperId: 'DS-0042',
  contents: 'Cryopreserved human cells, 2 vials, in a liquid nitrogen dry shipper',
};

describe('a FedEx label', () => {
  it('is refused before the practitioner approves, whatever way staff try to ship', async () => {
    const r = await placedRequest();
    const made = await staffPost(r.id, 'create_label', label);
    expect(made.statusCode).toBe(409);
    expect(made.json().error).toBe('The practitioner has not approved this request yet: it cannot ship.');
    const typed = await staffPost(r.id, 'ship', { trackingNumber: '794600000001' });
    expect(typed.statusCode).toBe(409);
    expect(typed.json().error).toBe('The practitioner has not approved this request yet: it cannot ship.');
    const [row] = await t.db.select().from(vialRequests).where(eq(vialRequests.id, r.id));
    expect(row?.shippedAt).toBeNull();
  });

  it("needs the dry shipper's id; then is made once, printed, and the client and the clinic are told", async () => {
    const r = await placedRequest();
    expect((await staffPost(r.id, 'approve')).statusCode).toBe(200);
    const empty = await staffPost(r.id, 'create_label', { ...label, dryShipperId: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.dryShipperId).toBe("Please enter the dry shipper's id");

    // Two members press at once with their own keys: one label.
    const [a, b] = await Promise.all([
      staffPost(r.id, 'create_label', label),
      staffPost(r.id, 'create_label', label),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const done = a.statusCode === 200 ? a : b;
    expect(done.json()).toMatchObject({
      message: 'The label was created and the request marked shipped.',
      request: { status: 'shipped', hasLabel: true },
    });
    const [row] = await t.db.select().from(vialRequests).where(eq(vialRequests.id, r.id));
    expect(row).toMatchObject({ carrier: 'offline', dryShipperId: 'DS-0042' });
    expect(row?.trackingNumber).toMatch(/^7\d{11}$/);
    const labels = await t.db.select().from(documents).where(eq(documents.clientId, r.clientId));
    expect(labels.filter((d) => d.kind === 'shipping_label')).toHaveLength(1);

    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/staff/vial_requests/${r.id}/label`,
      headers: { cookie: staff },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Not the client's to fetch through the staff route.
    const asClient = await t.app.inject({
      method: 'GET',
      url: `/api/staff/vial_requests/${r.id}/label`,
      headers: { cookie: r.cookie },
    });
    expect(asClient.statusCode).toBe(404);

    expect((await t.mailTo(r.email)).map((m) => m.subject)).toContain('Your stem cells have shipped');
    const clinic = (await t.mailTo(CLINIC)).find(
      (m) => m.subject === 'Stem cells on their way to your clinic',
    );
    expect(clinic?.textBody).toContain(`FedEx tracking number: ${row?.trackingNumber}.`);
  });

  it("follows the carrier's scans to delivery, and the clinic confirms the cells arrived frozen", async () => {
    const r = await placedRequest();
    await staffPost(r.id, 'approve');
    expect((await staffPost(r.id, 'create_label', label)).statusCode).toBe(200);
    const detail = async () => {
      const cookie = await t.signIn(r.actId);
      return (
        await t.app.inject({ method: 'GET', url: `/api/pay/get_CellRequest?id=${r.id}`, headers: { cookie } })
      ).json();
    };

    t.clock.advance(6 * HOUR);
    await reconcile(t.app.deps, log);
    expect((await detail()).shipping.scans.map((s: { label: string }) => s.label)).toEqual([
      'Picked up',
      'In transit',
    ]);

    t.clock.advance(17 * HOUR);
    await reconcile(t.app.deps, log);
    const delivered = await detail();
    expect(delivered.status).toBe('delivered');
    expect(
      delivered.shipping.scans.map((s: { label: string; place: string }) => `${s.label} ${s.place}`),
    ).toEqual([
      'Picked up SUNRISE, FL',
      'In transit MEMPHIS, TN',
      'Out for delivery NEW YORK, NY',
      'Delivered NEW YORK, NY',
    ]);
    expect(delivered.deliveredAt).not.toBeNull();

    const ask = (await t.mailTo(CLINIC)).find(
      (m) => m.subject === 'Please confirm the stem cells arrived frozen',
    );
    const token = /delivery-confirmation\/([\w.-]+)/.exec(ask?.textBody ?? '')?.[1] ?? '';
    expect(token).not.toBe('');
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/pay/get_DeliveryConfirmation?token=${token}`,
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ vials: 2, answer: null });
    const noNote = await t.app.inject({
      method: 'POST',
      url: '/api/pay/confirm_Delivery',
      payload: { token, arrivedFrozen: false },
    });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().error).toBe('Please say what was wrong with the delivery');
    const yes = await t.app.inject({
      method: 'POST',
      url: '/api/pay/confirm_Delivery',
      payload: { token, arrivedFrozen: true },
    });
    expect(yes.json().answer).toEqual({ arrivedFrozen: true, note: '' });
    // A second answer does not replace the first.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/pay/confirm_Delivery',
      payload: { token, arrivedFrozen: false, note: 'Thawed' },
    });
    expect(again.json().answer).toEqual({ arrivedFrozen: true, note: '' });
    expect((await detail()).shipping.deliveryConfirmation).toMatchObject({ arrivedFrozen: true });

    const forged = await t.app.inject({
      method: 'GET',
      url: `/api/pay/get_DeliveryConfirmation?token=${token.slice(0, -2)}xx`,
    });
    expect(forged.statusCode).toBe(404);
    expect(forged.json().error).toBe('This confirmation link is not valid or has expired.');
  });
});

describe('ACT VIP', () => {
  it('has no label; ships with its courier only once its price is confirmed', async () => {
    const r = await placedRequest({ shipping_method: 'ACT VIP' });
    await staffPost(r.id, 'approve');
    expect((await staffPost(r.id, 'create_label', label)).json().error).toBe(
      'Only a FedEx request gets a carrier label; record the ACT VIP courier instead.',
    );
    const early = await staffPost(r.id, 'ship', { trackingNumber: 'MC12345', courier: 'MedCourier' });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe('The ACT VIP price is not confirmed yet: the request cannot ship.');
  });
});
