import { expect, type Page, test } from '@playwright/test';
import { todayFor } from '../../../src/domain/client';
import { isoToUsDate } from '../../../src/domain/dates';
import { storeMessages } from '../../../src/domain/store';
import { validTuesday } from '../../../src/server/testing/dates';
import { waitForMail } from '../../support/mail';
import { expectAccessible, expectNoSidewaysScroll, signIn } from '../../support/portal';
import { testBankAccount, testCards } from '../../support/test-numbers';

/** The Store. Runs with the orders, after the journeys that read Client Activity as seeded. */

async function typeArrivalDate(page: Page, iso: string) {
  const field = page.getByRole('textbox', { name: 'Shipment Arrival Date' });
  await field.fill(isoToUsDate(iso));
  await field.press('Tab');
}

test('John orders 11 bottles of serum by ACH: $200 a bottle, no fee', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, 'ACT10002');
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Store' })
    .click();
  await expect(page.getByRole('heading', { name: 'ACT Store', level: 1 })).toBeVisible();
  const form = page.getByRole('form', { name: 'ACT Store' });
  const total = page.getByTestId('order-total');

  // One bottle by card: $225 + 3%; a quantity that is not a number becomes 0 and leaves the summary.
  await expect(total).toHaveText('$231.75');
  const quantity = form.getByRole('textbox', { name: 'Quantity' });
  await quantity.fill('abc');
  await quantity.press('Tab');
  await expect(quantity).toHaveValue('0');
  await expect(page.getByTestId('order-summary')).not.toContainText('Stem Cell Face Serum');
  await quantity.fill('10');
  await form.getByRole('button', { name: 'One bottle more' }).click();
  await expect(quantity).toHaveValue('11');
  await expect(page.getByTestId('order-summary')).toContainText('$2,200.00');

  await form.getByRole('radio', { name: 'ACH Payment', exact: true }).check();
  await expect(total).toHaveText('$2,200.00');
  await expect(form.getByRole('combobox', { name: 'Courier' })).toBeDisabled();
  await expectAccessible(page);

  await form.getByRole('button', { name: 'Pay $2,200.00' }).click();
  await expect(form.getByText(storeMessages.shipmentDate)).toBeVisible();
  await typeArrivalDate(page, validTuesday(todayFor(new Date()), 7));

  await form.getByRole('checkbox', { name: 'Use Another ACH' }).check();
  await form.getByRole('textbox', { name: 'Name on Account' }).fill('John Roe');
  await form.getByRole('textbox', { name: 'Account Number' }).fill(testBankAccount.accountNumber);
  await form.getByRole('textbox', { name: 'ABA Routing Number' }).fill(testBankAccount.routingNumber);

  const since = Date.now();
  await form.getByRole('button', { name: 'Pay $2,200.00' }).click();
  const done = page.getByRole('status').filter({ hasText: storeMessages.submitted });
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(done).toContainText('We charged $2,200.00');
  const mail = await waitForMail('john.roe@example.com', /your store order/, since);
  expect(mail.text).toContain('11 x $200.00 = $2,200.00');
});

test("PHY20001 orders serum for John with the physician's card; the page fits a phone", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/physician');
  await page.getByRole('textbox', { name: 'Physician ID' }).fill('PHY20001');
  await page.getByRole('textbox', { name: 'Password' }).fill('DemoPhysician#2026');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'My Clients', level: 1 })).toBeVisible();
  await page
    .locator('tr[data-client="ACT10002"]')
    .getByRole('button', { name: /^Choose John Roe/ })
    .click();
  await expect(page.getByRole('banner')).toContainText('John Roe (ACT10002)');
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Store' })
    .click();
  const form = page.getByRole('form', { name: 'ACT Store' });
  await expect(form).toBeVisible();
  await typeArrivalDate(page, validTuesday(todayFor(new Date()), 7));

  const another = form.getByRole('checkbox', { name: 'Use Another Credit Card' });
  if (await another.isVisible()) await another.check();
  await form.getByRole('textbox', { name: 'Credit Card Number' }).fill(testCards.visa);
  await form.getByRole('combobox', { name: 'Card Type' }).click();
  await page.getByRole('option', { name: 'Visa', exact: true }).click();
  await form.getByRole('textbox', { name: 'CVV', exact: true }).fill('123');
  await form.getByRole('combobox', { name: 'Expiry Month' }).click();
  await page.getByRole('option', { name: '12', exact: true }).click();
  await form.getByRole('combobox', { name: 'Expiry Year' }).click();
  await page.getByRole('option', { name: String(new Date().getFullYear() + 3), exact: true }).click();
  await form.getByRole('textbox', { name: 'Billing First Name' }).fill('Maria');
  await form.getByRole('textbox', { name: 'Billing Last Name' }).fill('Alvarez');
  await form.getByRole('textbox', { name: 'Billing Email' }).fill('maria.alvarez@example.com');
  await form.getByRole('textbox', { name: 'Billing Street' }).fill('8950 SW 74th Court');
  await form.getByRole('textbox', { name: 'Billing City' }).fill('Miami');
  await form.getByRole('textbox', { name: 'Billing State' }).fill('FL');
  await form.getByRole('textbox', { name: 'Zip or Postal Code' }).fill('33156');
  await expect(page.getByTestId('order-total')).toHaveText('$231.75');

  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);

  await form.getByRole('button', { name: 'Pay $231.75' }).click();
  const done = page.getByRole('status').filter({ hasText: storeMessages.submitted });
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(done).toContainText('We charged $231.75');
});
