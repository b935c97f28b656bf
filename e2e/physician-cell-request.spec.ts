/**
 * A physician requests cells for a client, and the client objects (issue 23). Dr. Alvarez
 * (PHY20001) acts for Olivia Reyes (ACT10014, seeded for this journey: consent signed, banked three
 * years, storage paid ahead, a Visa ending 4242 on file) and requests one vial by ACT VIP, paid with
 * Olivia's card on file: $500.00 and the 3% card fee, $515.00, named on the button. Olivia reads
 * the request in the e-mail with its link, opens it signed out, and objects within the two
 * business days: the request is cancelled at no cost, everything refunded, and the physician told
 * with her note. Each run requests anew, so it runs again on the same server.
 */
import { expect, type Page, test } from '@playwright/test';
import { todayFor } from '../src/domain/client';
import { addDays, isoToUsDate } from '../src/domain/dates';
import { weekdayFrom } from '../src/server/testing/dates';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';

const OLIVIA = 'ACT10014';
const SLOW = { timeout: 60_000 };

async function signInAsAlvarez(page: Page) {
  await page.goto('/physician');
  await page.getByRole('textbox', { name: 'Physician ID' }).fill('PHY20001', SLOW);
  await page.getByRole('textbox', { name: 'Password' }).fill('DemoPhysician#2026');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/my-clients$/, SLOW);
}

test("Dr. Alvarez requests a vial for Olivia with her card on file; Olivia objects from the e-mail's link and everything is refunded", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const since = Date.now();
  await signInAsAlvarez(page);
  await page
    .locator(`tr[data-client="${OLIVIA}"]`)
    .getByRole('button', { name: /^Choose Olivia/ })
    .click();
  await expect(page.getByRole('banner')).toContainText(`(${OLIVIA})`);
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Request Cells' })
    .click();
  const form = page.getByRole('form', { name: 'Stem Cell Request Form' });
  await expect(form).toBeVisible(SLOW);

  await page.getByRole('combobox', { name: 'Sample Type' }).click();
  await page.getByRole('option', { name: 'Bone Marrow' }).click();
  await page.getByRole('radio', { name: 'Not treated for an infectious disease' }).check();
  await page.getByRole('combobox', { name: 'Number of Vials' }).click();
  await page.getByRole('option', { name: '1', exact: true }).click();
  await page.getByRole('radio', { name: 'No', exact: true }).check();
  await page.getByRole('radio', { name: 'ACT VIP' }).check();
  const newAddress = page.getByRole('radio', { name: 'A new address' });
  if (await newAddress.count()) await newAddress.check();
  await page.getByRole('textbox', { name: 'Clinic Name' }).fill('Bayfront Regenerative Clinic');
  const address: [string, string][] = [
    ['First Name', 'Maria'],
    ['Last Name', 'Alvarez'],
    ['Shipping Email', 'clinic.desk@bayfront.example.com'],
    ['Phone', '3055550188'],
    ['Street', '501 Brickell Key Drive'],
    ['City', 'Miami'],
    ['State', 'FL'],
    ['Zip Code', '33131'],
    ['Country', 'United States'],
  ];
  for (const [label, value] of address) await page.getByRole('textbox', { name: label }).fill(value);
  const shipment = page.getByRole('textbox', { name: 'Shipment Date' });
  await shipment.fill(isoToUsDate(weekdayFrom(addDays(todayFor(new Date()), 35), 1)));
  await shipment.press('Tab');

  // Who pays: Olivia's card on file (the default), $500.00 and the 3% card fee.
  await expect(page.getByRole('radio', { name: "The client's card or bank account on file" })).toBeChecked();
  await expect(page.getByText(/Visa .*4242/)).toBeVisible();
  await expect(page.getByTestId('order-total')).toHaveText('$515.00');
  await page.getByRole('checkbox', { name: /I authorize ACT/ }).check();
  await expectAccessible(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `test-results/physician-request-${width}.png`, fullPage: true });
  }
  await page.getByRole('button', { name: 'Pay $515.00' }).click();
  await expect(page.getByText(/We charged \$515\.00/)).toBeVisible(SLOW);

  // Olivia reads it in the e-mail with the link to object, and opens it signed out.
  const mail = await waitForMail(
    'olivia.reyes@example.com',
    /A stem cell request was placed for you/,
    since,
    45_000,
  );
  expect(mail.text).toContain('Dr. Maria Alvarez requested the release of 1 of your stem cell vial');
  expect(mail.text).toContain('Total charged: $515.00');
  const link = /https?:\/\/\S+\/object\/[A-Za-z0-9_.-]+/.exec(mail.text)?.[0];
  expect(link).toBeDefined();
  const olivia = await browser.newContext();
  const her = await olivia.newPage();
  await her.goto(new URL(link ?? '').pathname);
  await expect(her.getByRole('heading', { name: 'Stem cell request placed for you' })).toBeVisible(SLOW);
  await expect(
    her.getByText(/Dear Olivia, Dr\. Maria Alvarez requested the release of 1 vial/),
  ).toBeVisible();
  await expect(her.getByText('Total: $515.00, paid with Visa ending in 4242 (on file)')).toBeVisible();
  await expect(
    her.getByText(/you may object until the end of \d{2}\/\d{2}\/\d{4} \(Eastern time\)/),
  ).toBeVisible();
  await expectAccessible(her);
  for (const width of [375, 1280]) {
    await her.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(her);
    await her.screenshot({ path: `test-results/objection-open-${width}.png`, fullPage: true });
  }
  await her
    .getByRole('textbox', { name: 'A note for your physician and ACT (optional)' })
    .fill('I did not agree to this release.');
  await her.getByRole('button', { name: 'Object and cancel the request' }).dblclick();
  await expect(
    her.getByText('Your objection was recorded: the request is cancelled and everything paid is refunded.'),
  ).toBeVisible(SLOW);
  await expect(her.getByText('$515.00 is refunded to the account that paid.')).toBeVisible();
  await expectAccessible(her);
  await her.screenshot({ path: 'test-results/objection-done-1280.png', fullPage: true });

  // A reload reads the same outcome; the physician hears of it with her note.
  await her.reload();
  await expect(her.getByText('$515.00 is refunded to the account that paid.')).toBeVisible(SLOW);
  const told = await waitForMail(
    'maria.alvarez@example.com',
    /Your client objected to the stem cell request/,
    since,
    45_000,
  );
  expect(told.text).toContain('Olivia Reyes objected to the stem cell request of 1 vial');
  expect(told.text).toContain("The client's note: I did not agree to this release.");
  expect(told.text).toContain('$515.00 is refunded to the account that paid.');
  await olivia.close();

  // Cell Requests lists it cancelled, with nothing left to approve.
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Cell Requests' })
    .click();
  const table = page.getByRole('table', { name: 'Cell requests' });
  await expect(table).toBeVisible(SLOW);
  const rows = table.getByRole('row').filter({ hasText: '$515.00' });
  await expect(rows.filter({ hasText: /Cancelled/i }).first()).toBeVisible();
  await expect(rows.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
});
