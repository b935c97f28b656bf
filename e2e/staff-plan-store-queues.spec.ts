import { expect, type Page, test } from '@playwright/test';
import { todayFor } from '../src/domain/client';
import { addYears, isoToUsDate } from '../src/domain/dates';
import { validTuesday } from '../src/server/testing/dates';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll, shownValue, signIn } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

/**
 * Two more work queues of the back office. Nora Quinn (ACT10008, seeded in demo mode for this
 * journey only; storage paid for a year, a Visa on file) orders a 5-year storage plan by check
 * and two bottles of serum through the client API; the demo admin records her check (her
 * Client Information then shows the paid-until date five years on) and ships the serum (her
 * Client Activity then shows it shipped).
 */

async function checkScreen(page: Page, name: string) {
  await expectAccessible(page);
  const wide = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 800 });
  await expect
    .poll(() =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    )
    .toBeLessThanOrEqual(0);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `test-results/staff-plan-store-${name}-375.png`, fullPage: true });
  if (wide) await page.setViewportSize(wide);
}

test('staff record a plan check (the client sees the new paid-until date) and ship a store order', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const since = Date.now();
  const today = todayFor(new Date());

  // Nora orders through the client API, as the portal's pages would.
  const clientContext = await browser.newContext();
  const client = await clientContext.newPage();
  await signIn(client, 'ACT10008');
  const plan = await client.request.post('/api/pay/send_StoragePlan', {
    headers: { 'idempotency-key': `e2e-plan-check-${since}` },
    data: {
      Source: 'Client Portal',
      Annual_Storage_Plan: '5 Year',
      Plan: 'No additional Plan',
      Tissue_Info: 'Adipose',
      PaymentMethod: 'Check',
    },
  });
  expect(plan.status(), await plan.text()).toBe(200);
  const planOrder = (await plan.json()) as { order: { status: string; totalCents: number } };
  expect(planOrder.order.status).toBe('awaiting_check');
  const store = await client.request.post('/api/pay/send_CP_StoreRequest', {
    headers: { 'idempotency-key': `e2e-store-order-${since}` },
    data: {
      stemskinserum: { name: 'Stem Cell Face Serum', quantity: 2 },
      ShipmentDate: validTuesday(todayFor(new Date()), 7),
      FirstName: 'Nora',
      LastName: 'Quinn',
      ShippingEmail: 'nora.quinn@example.com',
      Phone: '3055550191',
      Street: '901 Brickell Key Boulevard',
      City: 'Miami',
      State: 'FL',
      Country: 'United States',
      ZipCode: '33131',
      PaymentMethod: 'Credit Card',
    },
  });
  expect(store.status(), await store.text()).toBe(200);

  // The admin records the check.
  await signInAsDemoAdmin(page);
  await page.getByRole('navigation').getByRole('link', { name: 'Plan Checks' }).click();
  await expect(page.getByRole('heading', { name: 'Plan Orders Paid by Check', level: 1 })).toBeVisible();
  // Her order is a row of the queue's table; its card, with the check form, opens under it.
  await page.getByRole('button', { name: /^Open Nora Quinn \(ACT10008\)/ }).click();
  const nora = page.getByRole('article', { name: /Nora Quinn/ });
  await expect(nora).toContainText('5 Year Storage Plan');
  await checkScreen(page, 'plan-checks');
  await nora.getByRole('textbox', { name: 'Check number' }).fill('5120');
  await nora.getByRole('textbox', { name: 'Check amount' }).fill('1');
  await nora.getByRole('textbox', { name: 'Check date' }).fill(isoToUsDate(today));
  await nora.getByRole('button', { name: 'Record check' }).click();
  await expect(nora.getByText(/^The check must be for the amount due/)).toBeVisible();
  await nora
    .getByRole('textbox', { name: 'Check amount' })
    .fill((planOrder.order.totalCents / 100).toFixed(2));
  await nora.getByRole('button', { name: 'Record check' }).click();
  const paidUntil = isoToUsDate(addYears(addYears(today, 1), 5));
  await expect(page.getByRole('status').filter({ hasText: 'Check recorded.' })).toContainText(
    `Storage is paid until ${paidUntil}.`,
  );
  await expect(nora).toHaveCount(0);
  await waitForMail('nora.quinn@example.com', /your Banking and Storage Plans order/, since);

  // The admin ships the serum.
  await page.getByRole('navigation').getByRole('link', { name: 'Store Orders' }).click();
  await expect(page.getByRole('heading', { name: 'Store Orders', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: /^Open Nora Quinn \(ACT10008\)/ }).click();
  const serum = page.getByRole('region', { name: /Nora Quinn \(ACT10008\)/ });
  // By hand, a tracking number is needed; with the carrier's label, the declared contents.
  await serum.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(serum.getByRole('alert')).toHaveText('Please enter the tracking number');
  const contents = serum.getByRole('textbox', { name: 'Declared contents' });
  await expect(contents).toHaveValue(/^Stem Cell Face Serum, \d+ bottles?$/);
  await contents.fill('');
  await serum.getByRole('button', { name: 'Create label' }).click();
  await expect(serum.getByRole('alert').first()).toHaveText('Please enter the declared contents');
  await contents.fill('Stem Cell Face Serum, face care');
  await serum.getByRole('button', { name: 'Create label' }).click();
  await expect(serum.getByRole('status')).toHaveText(
    'The label was created, the order marked shipped and the client e-mailed.',
  );
  await expect(serum.getByRole('row', { name: /^Shipped/ })).toContainText(/tracking number 7\d{11}/);
  const print = serum.getByRole('link', { name: 'Print the label (PDF)' });
  const label = await page.request.get((await print.getAttribute('href')) ?? '');
  expect(label.headers()['content-type']).toBe('application/pdf');
  expect((await label.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await expect(serum.getByRole('button', { name: 'Check tracking now' })).toBeVisible();
  await expect(serum.getByRole('button', { name: 'Mark delivered' })).toBeVisible();
  await checkScreen(page, 'store-orders');
  await waitForMail('nora.quinn@example.com', /your store order shipped/, since);

  // Nora sees the new date where she always looks.
  await client.goto('/client-information');
  await expect(shownValue(client, 'Annual Storage Paid Until')).toHaveText(paidUntil);
  // And the serum's status on her Client Activity.
  await client.goto('/client-activity');
  await expect(client.getByRole('row', { name: /Store Order/ })).toContainText('Shipped');
  await clientContext.close();
});
