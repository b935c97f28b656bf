import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import { clientActivities, documents, storeOrders } from '../../db/schema';
import { reconcile } from '../../jobs/reconcile';
import { validTuesday } from '../../testing/dates';
import { addClient, newCardFields, tokenizeCard } from '../../testing/form-fixtures';
import { staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * Shipping a store order with a carrier label (issue 22): made once whatever is pressed at once,
 * printed, the client told; the order cannot then be cancelled; the carrier's delivery scan marks
 * it delivered. A country the carrier cannot read is refused before the carrier is asked.
 */

const HOUR = 60 * 60_000;
const log = { info() {}, warn() {} };
let t: TestApp;
let staff: string;
let keySeq = 0;
const newKey = () => `store-label-${++keySeq}`;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '10000', ...MANY_PAYMENT_ATTEMPTS });
});
// The clock moves a day in one test: each test signs staff in afresh.
beforeEach(async () => {
  staff = await staffSession(t);
});
afterAll(() => t.close());

/** A new client who orders 2 bottles by card, shipped to `Country`. */
async function placedOrder(country = 'United States') {
  const client = await addClient(t.db, { clientConsentFormCompleted: true });
  const cookie = await t.signIn(client.actId);
  const placed = await t.app.inject({
    method: 'POST',
    url: '/api/pay/send_CP_StoreRequest',
    headers: { cookie, 'idempotency-key': newKey() },
    payload: {
      stemskinserum: { name: 'Stem Cell Face Serum', quantity: 2 },
      ShipmentDate: validTuesday(todayFor(t.clock.now()), 7),
      FirstName: 'Rosa',
      LastName: 'Quintero',
      ShippingEmail: 'rosa.quintero@example.com',
      Phone: '3055550142',
      Street: '1200 Brickell Avenue',
      City: 'Miami',
      State: 'FL',
      Country: country,
      ZipCode: '33131',
      PaymentMethod: 'Credit Card',
      update_card: true,
      ...newCardFields(t, await tokenizeCard(t, '4242424242424242')),
      expectedTotalCents: 46_350,
    },
  });
  expect(placed.statusCode, placed.body).toBe(200);
  return { ...client, clientId: client.id, cookie, id: placed.json().id as string };
}

const staffPost = (id: string, action: string, payload: Record<string, unknown> = {}, key = newKey()) =>
  t.app.inject({
    method: 'POST',
    url: `/api/staff/store_orders/${id}/${action}`,
    headers: { cookie: staff, 'idempotency-key': key },
    payload,
  });

const contents = 'Stem Cell Face Serum, 2 bottles';

describe("a store order's FedEx label", () => {
  it('being made holds a cancellation: the carrier may be creating the shipment', async () => {
    const o = await placedOrder();
    await t.db
      .update(storeOrders)
      .set({ labelOperationId: '00000000-0000-4000-8000-00000000abcd' })
      .where(eq(storeOrders.id, o.id));
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/api/pay/cancel_StoreOrder',
      headers: { cookie: o.cookie, 'idempotency-key': newKey() },
      payload: { id: o.id },
    });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error).toBe(
      'A shipping label is being made for this order right now, so it may be leaving: please try again in a minute.',
    );
    const [row] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, o.id));
    expect(row?.status).toBe('ordered');
  });

  it('needs the declared contents; then is made once, printed, and the client is told', async () => {
    const o = await placedOrder();
    const queue = await t.app.inject({
      method: 'GET',
      url: '/api/staff/queues/store-orders',
      headers: { cookie: staff },
    });
    expect(queue.json().orders.find((x: { id: string }) => x.id === o.id)).toMatchObject({
      hasLabel: false,
      suggestedContents: 'Stem Cell Face Serum, 2 bottles',
    });
    const empty = await staffPost(o.id, 'create_label', { contents: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.contents).toBe('Please enter the declared contents');

    // Two members press at once with their own keys, and one presses twice: one label.
    const key = newKey();
    const [a, b, again] = await Promise.all([
      staffPost(o.id, 'create_label', { contents }, key),
      staffPost(o.id, 'create_label', { contents }),
      staffPost(o.id, 'create_label', { contents }, key),
    ]);
    const codes = [a.statusCode, b.statusCode, again.statusCode];
    expect(codes.filter((c) => c === 200).length).toBeGreaterThanOrEqual(1);
    const [row] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, o.id));
    expect(row).toMatchObject({ status: 'shipped', carrier: 'offline', declaredContents: contents });
    expect(row?.trackingNumber).toMatch(/^7\d{11}$/);
    const done = [a, b, again].find((r) => r.statusCode === 200);
    expect(done?.json()).toMatchObject({
      message: 'The label was created, the order marked shipped and the client e-mailed.',
      order: { status: 'shipped', hasLabel: true, trackingNumber: row?.trackingNumber },
    });
    for (const other of [a, b, again].filter((r) => r.statusCode !== 200)) {
      expect(other.statusCode).toBe(409);
      expect(other.json().error).toMatch(
        /^(This order is already shipped\.|Another label is being made for this order\.)$/,
      );
    }
    const labels = await t.db.select().from(documents).where(eq(documents.clientId, o.clientId));
    expect(labels.filter((d) => d.kind === 'shipping_label')).toHaveLength(1);

    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/staff/store_orders/${o.id}/label`,
      headers: { cookie: staff },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`inline; filename="label-${row?.trackingNumber}.pdf"`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-label-'));
    fs.writeFileSync(path.join(dir, 'label.pdf'), pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', path.join(dir, 'label.pdf'), '-']).toString();
    expect(text).toContain('Contents: Stem Cell Face Serum, 2 bottles');
    expect(text).toContain(`Reference: SO-${o.id.slice(0, 8).toUpperCase()}`);
    expect(text).toContain('Rosa Quintero');
    expect(text).not.toContain('Dry shipper');
    // Not the client's to fetch through the staff route.
    const asClient = await t.app.inject({
      method: 'GET',
      url: `/api/staff/store_orders/${o.id}/label`,
      headers: { cookie: o.cookie },
    });
    expect(asClient.statusCode).toBe(404);

    const mail = (await t.mailTo(o.email)).find(
      (m) => m.subject === 'Client Portal: your store order shipped',
    );
    expect(mail?.textBody).toContain(`Tracking number: ${row?.trackingNumber}`);

    // Shipped: no cancellation any more, by the client or by staff.
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/api/pay/cancel_StoreOrder',
      headers: { cookie: o.cookie, 'idempotency-key': newKey() },
      payload: { id: o.id },
    });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error).toBe('No cancellation is possible once the order has shipped.');
  });

  it("follows the carrier's scans to delivery: the order is delivered and the client told, once", async () => {
    const o = await placedOrder();
    expect((await staffPost(o.id, 'create_label', { contents })).statusCode).toBe(200);
    t.clock.advance(6 * HOUR);
    await reconcile(t.app.deps, log);
    let [row] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, o.id));
    expect(row?.status).toBe('shipped');

    t.clock.advance(20 * HOUR);
    staff = await staffSession(t);
    const tracked = await staffPost(o.id, 'track');
    expect(tracked.statusCode).toBe(200);
    expect(tracked.json().order).toMatchObject({ status: 'delivered' });
    [row] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, o.id));
    expect(row?.deliveredAt).not.toBeNull();
    await reconcile(t.app.deps, log);
    const [activity] = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.id, row?.clientActivityId ?? ''));
    expect(activity?.stageName).toBe('Delivered');
    const delivered = (await t.mailTo(o.email)).filter(
      (m) => m.subject === 'Client Portal: your store order delivered',
    );
    expect(delivered).toHaveLength(1);
  });

  it('is refused for a country the carrier cannot read, and for an unknown order', async () => {
    const o = await placedOrder('The Moon');
    const made = await staffPost(o.id, 'create_label', { contents });
    expect(made.statusCode).toBe(422);
    expect(made.json().error).toBe(
      "FedEx needs the country as its two-letter code (US, CA, GB…): ship this order by hand with the carrier's tracking number.",
    );
    const [row] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, o.id));
    expect(row).toMatchObject({ status: 'ordered', labelOperationId: null, shippedAt: null });
    const unknown = await staffPost('00000000-0000-4000-8000-000000000000', 'create_label', { contents });
    expect(unknown.statusCode).toBe(404);
    const noLabel = await t.app.inject({
      method: 'GET',
      url: `/api/staff/store_orders/${o.id}/label`,
      headers: { cookie: staff },
    });
    expect(noLabel.statusCode).toBe(404);
  });
});
