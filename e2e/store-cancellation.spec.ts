/**
 * Cancelling a store order before it ships (issue 22): Noah Patel (ACT10011, a Visa on file)
 * orders 2 bottles of serum with his card on file, finds the order on the store page under "Your
 * orders not yet shipped", and cancels it: the button names the refund, and everything comes
 * back. Each run orders anew; no other journey reads Noah's store orders.
 */
import { expect, test } from '@playwright/test';
import { todayFor } from '../src/domain/client';
import { validTuesday } from '../src/server/testing/dates';
import { expectAccessible, expectNoSidewaysScroll, signIn } from './support/portal';

test('a client cancels a store order before it ships and everything is refunded', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'ACT10011');
  const placed = await page.request.post('/api/pay/send_CP_StoreRequest', {
    headers: {
      origin: new URL(page.url()).origin,
      'x-portal-client': 'web',
      'idempotency-key': crypto.randomUUID(),
    },
    data: {
      stemskinserum: { name: 'Stem Cell Face Serum', quantity: 2 },
      ShipmentDate: validTuesday(todayFor(new Date()), 7),
      FirstName: 'Noah',
      LastName: 'Patel',
      ShippingEmail: 'noah.patel@example.com',
      Phone: '3055550123',
      Street: '1200 Brickell Avenue',
      City: 'Miami',
      State: 'FL',
      Country: 'United States',
      ZipCode: '33131',
      PaymentMethod: 'Credit Card',
      // Two bottles at $225.00 and the 3% card fee.
      expectedTotalCents: 46_350,
    },
  });
  expect(placed.ok(), await placed.text()).toBe(true);
  const id = ((await placed.json()) as { id: string }).id;

  await page.goto('/store');
  await expect(page.getByRole('heading', { name: 'Your orders not yet shipped' })).toBeVisible();
  const order = page.getByRole('region').filter({ hasText: 'Total charged $463.50' }).first();
  await expect(order).toBeVisible();
  await expectAccessible(page);
  await order.getByRole('button', { name: 'Cancel this order' }).click();
  await expect(order.getByText('Cancel this order? This cannot be undone.')).toBeVisible();
  await order.getByRole('button', { name: 'Cancel and refund $463.50' }).dblclick();
  const done = page
    .getByRole('status')
    .filter({ hasText: '$463.50 was refunded to the account you paid with.' });
  await expect(done).toBeVisible();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `test-results/store-cancel-${width}.png`, fullPage: true });
  }
  // Cancelled once: the order is no longer listed, and a second cancellation answers the first.
  const again = await page.request.post('/api/pay/cancel_StoreOrder', {
    headers: {
      origin: new URL(page.url()).origin,
      'x-portal-client': 'web',
      'idempotency-key': crypto.randomUUID(),
    },
    data: { id },
  });
  expect(again.ok(), await again.text()).toBe(true);
  const left = (await (await page.request.get('/api/pay/get_StoreOrders')).json()) as {
    orders: { id: string }[];
  };
  expect(left.orders.map((o) => o.id)).not.toContain(id);
});
