import { expect, type Page, test } from '@playwright/test';
import { addYears, isoToUsDate, usDateToIso } from '../../../src/domain/dates';
import { storagePlanMessages } from '../../../src/domain/storage-plans';
import { waitForMail } from '../../support/mail';
import { expectAccessible, expectNoSidewaysScroll, shownValue, signIn } from '../../support/portal';
import { testCards } from '../../support/test-numbers';

/**
 * Banking and Storage Plans. Runs in the last project, after every journey that expects Jane's
 * paid-until date and vials as seeded; the assertions are relative to what Client Information
 * shows before the order, so the journey also runs on its own.
 */

async function readHoldings(page: Page) {
  await page.goto('/client-information');
  const paidUntil = shownValue(page, 'Annual Storage Paid Until');
  await expect(paidUntil).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
  const vials = shownValue(page, 'Bio-Insurance Cells Available');
  await expect(vials).toHaveText(/^\d+$/);
  return {
    paidUntil: usDateToIso((await paidUntil.textContent()) ?? '') as string,
    vials: Number(await vials.textContent()),
  };
}

async function choose(page: Page, field: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: field, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

test('Jane buys a 5-year storage plan and Bio-Insurance 25 vials by card, and sees them on Client Information', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'ACT10001');
  const before = await readHoldings(page);
  const today = new Date().toISOString().slice(0, 10);
  const expectedPaidUntil = addYears(before.paidUntil > today ? before.paidUntil : today, 5);

  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Banking and Storage Plans' })
    .click();
  await expect(page).toHaveURL(/\/ACT-banking-storage-plans$/);
  await expect(
    page.getByRole('heading', { name: 'Client Portal / ACT Banking and Storage Plans', level: 1 }),
  ).toBeVisible();

  // Nothing chosen at first (DESIGN.md 8.29): the spec's default is offered as a suggestion.
  const total = page.getByTestId('order-total');
  await expect(total).toHaveCount(0);
  await expect(page.getByText(/^Suggested: Bio-Insurance 100 .*: \$4,250\.00\.$/)).toBeVisible();
  await expectAccessible(page);
  // No storage, Bio-Insurance 10 vials, by card: $4,250.00 + $127.50 = $4,377.50.
  await page.getByRole('button', { name: 'Choose the suggestion' }).click();
  await expect(total).toHaveText('$4,377.50');
  await expect(page.getByTestId('order-summary')).toContainText('$127.50');

  // Nothing at all is refused at Next, with the spec's message.
  await choose(page, 'Plan', 'No additional Plan');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(storagePlanMessages.selectAny).first()).toBeVisible();

  await choose(page, 'Annual Storage Plan', /^5 Year Storage Plan/);
  await choose(page, 'Plan', 'Bio-Insurance Plan');
  // A tier, then a count within it: 24 vials (dearer than 25) is not offered.
  await expect(
    page.getByText('24 vials would cost $10,200.00, more than 25 vials at $10,000.00'),
  ).toBeVisible();
  await page.getByRole('radio', { name: /^Bio-Insurance 250: 25 to 46 vials/ }).check();
  await expect(page.getByRole('textbox', { name: 'Number of vials' })).toHaveValue('25');
  await expect(page.getByTestId('order-summary')).toContainText(
    'Bio-Insurance 250 (250,000,000 cells, 25 Vials)',
  );
  // $1,575 + $10,000 = $11,575, by card + 3% ($347.25): what will be charged, before Submit.
  await expect(total).toHaveText('$11,922.25');
  await page.getByRole('button', { name: 'Next' }).click();
  // The step is in the address: the browser's Back returns to the plans, as chosen.
  await expect(page).toHaveURL(/\?step=payment$/);
  await page.goBack();
  await expect(total).toHaveText('$11,922.25');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\?step=payment$/);

  const form = page.getByRole('form', { name: 'Banking and Storage Plans' });
  await expect(form.getByRole('textbox', { name: 'Client ID', exact: true })).toHaveValue('ACT10001');
  await expect(form.getByRole('textbox', { name: 'Client ID', exact: true })).toHaveAttribute('readonly', '');
  await expect(form.getByRole('textbox', { name: 'Last Name', exact: true })).toHaveValue('Doe');
  await expect(form.getByRole('button', { name: 'Previous Page' })).toBeVisible();

  // Check pays no fee; back to the card, 3% again.
  await form.getByRole('radio', { name: 'Check', exact: true }).check();
  await expect(total).toHaveText('$11,575.00');
  await form.getByRole('radio', { name: 'Credit Card', exact: true }).check();
  await expect(total).toHaveText('$11,922.25');

  await form.getByRole('button', { name: 'Pay $11,922.25' }).click();
  await expect(form.getByText(storagePlanMessages.sampleType)).toBeVisible();
  await choose(page, 'Tissue Sample Type', 'Adipose');

  // A card typed here (Jane may have one on file from the payment journeys: another one is used).
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
  await form.getByRole('textbox', { name: 'Billing First Name' }).fill('Jane');
  await form.getByRole('textbox', { name: 'Billing Last Name' }).fill('Doe');
  await form.getByRole('textbox', { name: 'Billing Email' }).fill('jane.doe@example.com');
  await form.getByRole('textbox', { name: 'Billing Street' }).fill('1200 Brickell Avenue');
  await form.getByRole('textbox', { name: 'Billing City' }).fill('Miami');
  await form.getByRole('textbox', { name: 'Billing State' }).fill('FL');
  await form.getByRole('textbox', { name: 'Zip or Postal Code' }).fill('33131');
  await expectAccessible(page);

  const since = Date.now();
  await form.getByRole('button', { name: 'Pay $11,922.25' }).click();
  const done = page.getByRole('status').filter({ hasText: storagePlanMessages.submitted });
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(done).toContainText('We charged $11,922.25');
  await expect(done).toContainText(`paid until ${isoToUsDate(expectedPaidUntil)}`);
  await expect(done).toContainText('25 Bio-Insurance vials were added');

  const mail = await waitForMail('jane.doe@example.com', /Banking and Storage Plans order/, since);
  expect(mail.text).toContain('$11,922.25');
  expect(mail.attachments.map((a) => a.filename)).toContain('receipt.pdf');

  const after = await readHoldings(page);
  expect(after.paidUntil).toBe(expectedPaidUntil);
  expect(after.vials).toBe(before.vials + 25);
});

test('on a phone, both pages of Banking and Storage Plans fit the screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, 'ACT10001');
  await page.goto('/ACT-banking-storage-plans');
  await page.getByRole('button', { name: 'Choose the suggestion' }).click();
  await expect(page.getByTestId('order-total')).toHaveText('$4,377.50');
  await expectNoSidewaysScroll(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('textbox', { name: 'Client ID' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/banking-storage-plans-375.png', fullPage: true });
  await expectAccessible(page);
});
