/**
 * The physician portal's Payment Information page (issue 23): Dr. David Chen (PHY20002) adds his
 * own card, replaces it, adds a bank account, and removes both after confirming, on a wide screen
 * and on a phone. He ends as seeded, with nothing on file, so the journeys that follow see him so.
 * Dr. Chen rather than Dr. Alvarez: the forms' journeys pay with Dr. Alvarez's card choices.
 * Its folder puts it in the sequence's payments step (playwright.config.ts), after the journeys
 * that read the seeded accounts.
 */
import { mkdir } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { todayFor } from '../../../src/domain/client';
import { expectAccessible, expectNoSidewaysScroll } from '../../support/portal';
import { testBankAccount, testCards } from '../../support/test-numbers';

const PHYSICIAN_PASSWORD = 'DemoPhysician#2026';
const UPDATED =
  'Your payment information has been updated successfully. We are now getting the portal services ready for you!';
const SCREENSHOTS = 'test-results/physician-payment-information';
const [thisYear] = todayFor(new Date()).split('-').map(Number) as [number];
const cardYear = String(thisYear + 3);

async function physicianSignIn(page: Page) {
  await page.goto('/physician');
  await page.getByRole('textbox', { name: 'Physician ID' }).fill('PHY20002');
  await page.getByRole('textbox', { name: 'Password' }).fill(PHYSICIAN_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/my-clients$/);
}

async function choose(page: Page, label: string, option: string) {
  const field = page.getByRole('combobox', { name: label });
  if ((await field.inputValue()) === option) return;
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(field).toHaveValue(option);
}

async function fillCard(page: Page, number: string) {
  const form = page.getByRole('form', { name: 'Credit card' });
  await form.getByRole('textbox', { name: 'Credit Card Number' }).fill(number);
  await form.getByRole('textbox', { name: 'CVV', exact: true }).fill('123');
  await choose(page, 'Expiry Month', '12');
  await choose(page, 'Expiry Year', cardYear);
  await form.getByRole('textbox', { name: 'Billing First Name' }).fill('David');
  await form.getByRole('textbox', { name: 'Billing Last Name' }).fill('Chen');
  await form.getByRole('textbox', { name: 'Billing Email' }).fill('david.chen@example.com');
  await form.getByRole('textbox', { name: 'Billing Street' }).fill('410 Las Olas Boulevard');
  await form.getByRole('textbox', { name: 'Billing City' }).fill('Fort Lauderdale');
  await form.getByRole('textbox', { name: 'Billing State' }).fill('FL');
  await form.getByRole('textbox', { name: 'Zip or Postal Code' }).fill('33301');
}

async function shot(page: Page, name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

test('a physician adds, replaces and removes their own card and bank account, on a wide screen and a phone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await physicianSignIn(page);
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Payment Information' })
    .click();
  await expect(page).toHaveURL(/\/physician\/payment-information$/);
  await expect(page.getByRole('heading', { name: 'Payment Information', level: 1 })).toBeVisible();
  const card = page.getByRole('region', { name: 'Card on file' });
  const bank = page.getByRole('region', { name: 'Bank account on file (ACH)' });
  await expect(card.getByText('No card on file')).toBeVisible();
  await expect(bank.getByText('No bank account on file')).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'empty-1280');

  // A card: refused until its fields hold, then saved, tokenized in the browser.
  await card.getByRole('button', { name: 'Add a card' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Please enter credit card number')).toBeVisible();
  await expectAccessible(page);
  await fillCard(page, testCards.visa);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: UPDATED })).toBeVisible();
  await expect(card.getByText('Credit Card ending in 4242')).toBeVisible();
  await expect(card.getByText(`Expires: 12 / ${cardYear}`)).toBeVisible();
  await expect(card.getByRole('img', { name: 'Visa' })).toBeVisible();

  // Replaced by a Mastercard.
  await card.getByRole('button', { name: 'Replace card' }).click();
  await fillCard(page, testCards.mastercard);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('Credit Card ending in 4444')).toBeVisible();
  await expect(card.getByRole('img', { name: 'Mastercard' })).toBeVisible();

  // A bank account beside it.
  await bank.getByRole('button', { name: 'Add a bank account' }).click();
  const achForm = page.getByRole('form', { name: 'ACH payment' });
  await achForm.getByRole('textbox', { name: 'Name on Account' }).fill('David Chen');
  await achForm.getByRole('textbox', { name: 'Account Number' }).fill(testBankAccount.accountNumber);
  await achForm.getByRole('textbox', { name: 'ABA Routing Number' }).fill(testBankAccount.routingNumber);
  await achForm.getByRole('button', { name: 'Save' }).click();
  await expect(bank.getByText('Account Number Ending in *****6789')).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await shot(page, 'on-file-1280');

  // What the page reads holds the last 4 digits only.
  const answer = await page.request.get('/api/pay/get_PaymentInfo');
  const body = await answer.text();
  expect(body).toContain('************4444');
  expect(body).not.toContain(testCards.mastercard);
  expect(body).not.toContain(testBankAccount.accountNumber);

  // On a phone: the same page, the removal's confirmation, and nothing wider than the screen.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/physician/payment-information');
  await expect(card.getByText('Credit Card ending in 4444')).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await shot(page, 'on-file-375');

  await card.getByRole('button', { name: 'Remove card' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove the Mastercard ending in 4444?' });
  await expect(confirm).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await shot(page, 'confirm-remove-375');
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(card.getByText('Credit Card ending in 4444')).toBeVisible();

  await card.getByRole('button', { name: 'Remove card' }).click();
  await confirm.getByRole('button', { name: 'Remove card' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your card on file was removed.' })).toBeVisible();
  await expect(card.getByText('No card on file')).toBeVisible();
  // The replaced Visa does not come back.
  await expect(card.getByText(/Credit Card ending in/)).toHaveCount(0);
  await expect(bank.getByText('Account Number Ending in *****6789')).toBeVisible();

  await bank.getByRole('button', { name: 'Remove bank account' }).click();
  await page
    .getByRole('alertdialog', { name: 'Remove the bank account ending in 6789?' })
    .getByRole('button', { name: 'Remove bank account' })
    .click();
  await expect(bank.getByText('No bank account on file')).toBeVisible();
  await expect(bank.getByRole('button', { name: 'Add a bank account' })).toBeVisible();
  await shot(page, 'removed-375');
});

test("a client's session does not open the physician's page", async ({ page }) => {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Client ID' }).fill('ACT10002');
  await page.getByRole('textbox', { name: 'Password' }).fill('DemoClient#2026');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/client-information$/);
  await page.goto('/physician/payment-information');
  await expect(page.getByRole('heading', { name: 'Payment Information', level: 1 })).toHaveCount(0);
  const refused = await page.request.post('/api/pay/remove_PhysicianPaymentInfo', {
    data: { Payment_Type: 'CC' },
  });
  expect(refused.status()).toBe(404);
});
