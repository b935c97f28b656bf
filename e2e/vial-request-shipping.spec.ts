/**
 * Shipping a vial request with a FedEx label (issue 22): Noah Patel (ACT10011, seeded: consent
 * signed, a Visa on file) orders 2 vials by FedEx; staff cannot make the label before the
 * practitioner's approval, record it, make the label (offline carrier), print it; the carrier's
 * scans (an offline carrier hour is half a second in the browser tests) reach the queue and the
 * client's timeline up to "Delivered"; the clinic confirms the cells arrived frozen from the link
 * e-mailed at delivery, and the timeline says so. Each run orders anew.
 */
import { expect, test } from '@playwright/test';
import { waitForMail } from './support/mail';
import { orderVials } from './support/orders';
import { expectAccessible, expectNoSidewaysScroll, signIn } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

const CLINIC = 'receiving@hudson-ortho.example.com';

test('staff create the FedEx label after the approval; the scans reach the timeline and the clinic confirms the delivery', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const since = Date.now();
  const clientContext = await browser.newContext();
  const client = await clientContext.newPage();
  await signIn(client, 'ACT10011');
  const id = (await orderVials(client, { NumberOfVials: 2 })).id;

  await signInAsDemoAdmin(page);
  await page.goto('/staff/queues/vial-requests');
  await expect(page.getByRole('heading', { name: 'Vial Requests', level: 1, exact: true })).toBeVisible();
  // The request is a row of the queue's table; its card, with the actions, opens under it.
  await page.locator(`tr[data-request-row="${id}"]`).getByRole('button', { name: /^Open/ }).click();
  const card = page.locator(`[data-request-id="${id}"]`);
  await expect(card).toBeVisible();

  // The dry shipper's id is needed; and no label before the practitioner's approval.
  const create = card.getByRole('button', { name: 'Create label' });
  await create.click();
  await expect(card.getByRole('alert')).toHaveText("Please enter the dry shipper's id");
  await card.getByRole('textbox', { name: 'Dry shipper id' }).fill('DS-0042');
  await expect(card.getByRole('textbox', { name: 'Declared contents' })).toHaveValue(
    'Cryopreserved human cells, 2 vials, in a liquid nitrogen dry shipper',
  );
  await create.click();
  await expect(card.getByRole('alert')).toHaveText(
    'The practitioner has not approved this request yet: it cannot ship.',
  );
  await card.getByRole('button', { name: 'Record practitioner approval' }).click();
  await expect(card.getByRole('status')).toHaveText("The practitioner's approval was recorded.");
  await create.dblclick();
  await expect(card.getByRole('status')).toHaveText('The label was created and the request marked shipped.');
  await expect(card.getByRole('row', { name: /^Shipped/ })).toContainText(/tracking number 7\d{11}/);
  await expectAccessible(page);

  // The label prints: a PDF.
  const labelLink = card.getByRole('link', { name: 'Print the label (PDF)' });
  const label = await page.request.get((await labelLink.getAttribute('href')) ?? '');
  expect(label.headers()['content-type']).toBe('application/pdf');
  expect((await label.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // Eleven carrier hours (half a second each) later the package is delivered.
  await page.waitForTimeout(12_000);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: `test-results/shipping-staff-card-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await card.getByRole('button', { name: 'Check tracking now' }).click();
  // Delivered, the request leaves the queue; the page says the carrier was asked.
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Noah Patel (ACT10011): Tracking was checked with the carrier.' }),
  ).toBeVisible();
  await expect(card).toHaveCount(0);

  // The clinic answers from its e-mail: the cells arrived frozen.
  const ask = await waitForMail(CLINIC, /^Please confirm the stem cells arrived frozen$/, since);
  const link = /https?:\/\/\S+\/delivery-confirmation\/[\w.-]+/.exec(ask.text)?.[0] ?? '';
  expect(link).not.toBe('');
  const clinicContext = await browser.newContext();
  const clinic = await clinicContext.newPage();
  await clinic.goto(link);
  await expect(clinic.getByRole('heading', { name: 'Delivery confirmation' })).toBeVisible();
  await clinic.getByRole('button', { name: 'Send the answer' }).click();
  await expect(clinic.getByRole('alert')).toHaveText('Please choose an answer');
  await expectAccessible(clinic);
  await clinic.getByRole('radio', { name: 'Yes, the cells arrived frozen' }).check();
  await clinic.getByRole('button', { name: 'Send the answer' }).click();
  await expect(clinic.getByRole('status')).toContainText(
    'Thank you: your answer was recorded. The cells arrived frozen.',
  );
  await clinic.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(clinic);
  await clinic.screenshot({ path: 'test-results/shipping-clinic-confirmation-375.png', fullPage: true });
  await clinicContext.close();

  // The client's timeline: each scan, delivered, and the clinic's confirmation.
  await client.goto(`/stem-cell-request/${id}`);
  const timeline = client.getByRole('table').last();
  await expect(client.getByRole('row', { name: /^Delivered \d{2}\/\d{2}\/\d{4}$/ })).toBeVisible();
  await expect(client.getByRole('row', { name: /^Picked up .*SUNRISE, FL$/ })).toBeVisible();
  await expect(client.getByRole('row', { name: /^Out for delivery .*NEW YORK, NY$/ })).toBeVisible();
  await expect(client.getByRole('row', { name: 'Confirmed by the clinic Arrived frozen' })).toBeVisible();
  await expect(timeline).toBeVisible();
  await expectAccessible(client);
  for (const width of [1280, 375]) {
    await client.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(client);
    await client.evaluate(() => window.scrollTo(0, 0));
    await client.screenshot({ path: `test-results/shipping-client-timeline-${width}.png`, fullPage: true });
  }
  await clientContext.close();
});
