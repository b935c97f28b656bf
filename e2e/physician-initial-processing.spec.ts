import { expect, type Locator, type Page, test } from '@playwright/test';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';
import { testCards } from './support/test-numbers';

/**
 * Initial Sample Processing (spec 2): Dr. Alvarez registers two new clients, one paying by card
 * ($2,575.00 for adipose) and one by check in the shipment; each new client opens the welcome link
 * from their e-mail, sets a password and finds the consent open (card) or waiting for the payment
 * (check). Only new clients are made: the seeded ones stay as they are, and no card is kept on file.
 */

const PHYSICIAN_PASSWORD = 'DemoPhysician#2026';
const NEW_PASSWORD = 'Harbor lights at dusk 2049';
const phone = { width: 375, height: 740 };
/** A new client's first pages load their code and records: on a busy machine that takes a while. */
const slow = { timeout: 30_000 };
const wide = { width: 1280, height: 900 };
// Letters and digits: a long run of digits would read as a card number, which no field takes.
const run = Date.now().toString(36);

async function physicianSignIn(page: Page) {
  await page.goto('/physician');
  await page.getByRole('textbox', { name: 'Physician ID' }).fill('PHY20001');
  await page.getByRole('textbox', { name: 'Password' }).fill(PHYSICIAN_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/my-clients$/);
  await expect(page.getByRole('heading', { name: 'My Clients', level: 1 })).toBeVisible();
}

/** Checked at both widths: nothing scrolls sideways, axe finds nothing serious, and a screenshot to look at. */
async function checkLayouts(page: Page, name: string) {
  for (const viewport of [wide, phone]) {
    await page.setViewportSize(viewport);
    // The navigation slides away when the screen narrows: measured once it has.
    await expect
      .poll(() =>
        page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      )
      .toBeLessThanOrEqual(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({
      path: `test-results/initial-processing/${name}-${viewport.width}.png`,
      fullPage: true,
    });
  }
  await page.setViewportSize(wide);
}

/** MM/DD/YYYY of today plus some days. */
function daysFromToday(days: number) {
  const date = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getMonth() + 1)}/${pad(date.getDate())}/${date.getFullYear()}`;
}

async function fillDate(field: Locator, value: string) {
  await field.fill(value);
  await field.press('Tab');
}

async function fillClient(form: Locator, person: { first: string; last: string; email: string }) {
  const client = form.getByRole('group', { name: 'Client Information' });
  await client.getByRole('textbox', { name: 'First Name' }).fill(person.first);
  await client.getByRole('textbox', { name: 'Last Name' }).fill(person.last);
  await fillDate(client.getByRole('textbox', { name: 'Date of Birth' }), '04/12/1979');
  await client.getByRole('textbox', { name: 'Email' }).fill(person.email);
  await client.getByRole('textbox', { name: 'Phone Number' }).fill('3055550100');
  await client.getByRole('textbox', { name: 'Address' }).fill('200 Biscayne Boulevard');
  await client.getByRole('textbox', { name: 'City' }).fill('Miami');
  await client.getByRole('textbox', { name: 'State' }).fill('FL');
  await client.getByRole('textbox', { name: 'Zip Code' }).fill('33131');
  await fillDate(form.getByRole('textbox', { name: 'Ship Date' }), daysFromToday(5));
}

/** Submits by the button's words: by card they name the amount, by check "Submit" (nothing is charged). */
async function submitAndConfirm(page: Page, form: Locator, button: string) {
  await form.getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Are you sure you want to submit this new sample form?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Yes' }).click();
  const done = page.getByRole('status').filter({ hasText: 'Please check your email for order confirmation' });
  await expect(done).toBeVisible({ timeout: 20_000 });
  const clientId = /New Client ID: (ACT\d+)/.exec((await done.textContent()) ?? '')?.[1];
  if (!clientId) throw new Error('no Client ID in the confirmation');
  return clientId;
}

/** The new client opens the welcome link in their own browser, sets a password and is signed in. */
async function welcomeClient(page: Page, email: string, clientId: string, since: number) {
  const mail = await waitForMail(email, /welcome/i, since);
  expect(mail.text).toContain(`Your Client ID is ${clientId}`);
  const link = /https?:\/\/\S+\/welcome\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error('no welcome link in the e-mail');
  await page.goto(new URL(link).pathname);
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Client ID' })).toHaveValue(clientId);
  return new URL(link).pathname;
}

test.describe('initial sample processing', () => {
  test('a new adipose client by card and another by check, each welcomed into the Client Portal', async ({
    page,
    browser,
  }) => {
    // Two registrations, two welcomes and axe on six screens at two widths.
    test.setTimeout(240_000);
    const since = Date.now() - 1000;
    await physicianSignIn(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Initial Sample Processing' }).click();
    await expect(page.getByRole('heading', { name: 'Initial Sample Processing', level: 1 })).toBeVisible();
    await expect(page.getByText(/at least 60 grams/)).toBeVisible();
    await expect(page.getByText(/10:30 AM/)).toBeVisible();
    await checkLayouts(page, 'page-1');

    await page.getByRole('button', { name: 'Next Page' }).click();
    const form = page.getByRole('form', { name: 'New sample form' });
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(form.getByText('Please enter first name')).toBeVisible();
    await expect(form.getByText('Please select sample type')).toBeVisible();
    await expect(form.getByText('Please select payment')).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'First Name' })).toBeFocused();
    await checkLayouts(page, 'page-2-errors');

    // By card: no card is on file, so the card form is open; the amount is in view before paying.
    const byCard = { first: 'Nora', last: `Card${run}`, email: `nora.card.${run}@example.com` };
    await fillClient(form, byCard);
    await form.getByRole('radio', { name: 'Adipose' }).check();
    await form.getByRole('radio', { name: 'Credit card' }).check();
    await expect(form.getByTestId('amount-in-view')).toHaveText(
      '$2,500.00 + 3% processing fee $75.00 = $2,575.00',
    );
    const payment = form.getByRole('group', { name: 'Payment' });
    await payment.getByRole('textbox', { name: 'Credit Card Number' }).fill(testCards.visa);
    await payment.getByRole('combobox', { name: 'Card Type' }).click();
    await page.getByRole('option', { name: 'Visa', exact: true }).click();
    await payment.getByRole('textbox', { name: 'CVV', exact: true }).fill('123');
    await payment.getByRole('combobox', { name: 'Expiry Month' }).click();
    await page.getByRole('option', { name: '12', exact: true }).click();
    await payment.getByRole('combobox', { name: 'Expiry Year' }).click();
    await page.getByRole('option', { name: String(new Date().getFullYear() + 3), exact: true }).click();
    await payment.getByRole('textbox', { name: 'Billing First Name' }).fill('Maria');
    await payment.getByRole('textbox', { name: 'Billing Last Name' }).fill('Alvarez');
    await payment.getByRole('textbox', { name: 'Billing Email' }).fill('maria.alvarez@example.com');
    await payment.getByRole('textbox', { name: 'Billing Street' }).fill('1200 Brickell Avenue');
    await payment.getByRole('textbox', { name: 'Billing City' }).fill('Miami');
    await payment.getByRole('textbox', { name: 'Billing State' }).fill('FL');
    await payment.getByRole('textbox', { name: 'Zip or Postal Code' }).fill('33131');
    await expect(
      payment.getByRole('checkbox', { name: 'Save this credit card on file for future payments' }),
    ).not.toBeChecked();
    await checkLayouts(page, 'page-2-card');
    const cardClientId = await submitAndConfirm(page, form, 'Pay $2,575.00');
    await checkLayouts(page, 'submitted');
    const confirmation = await waitForMail('maria.alvarez@example.com', new RegExp(cardClientId), since);
    expect(confirmation.text).toContain('$2,575.00');
    expect(confirmation.text).toContain('ending in 4242');

    // By check: nothing charged, the check's amount in view.
    await page.getByRole('button', { name: 'Submit another sample' }).click();
    await page.getByRole('button', { name: 'Next Page' }).click();
    const byCheck = { first: 'Omar', last: `Check${run}`, email: `omar.check.${run}@example.com` };
    await fillClient(form, byCheck);
    await form.getByRole('radio', { name: 'Bone marrow' }).check();
    await form.getByRole('radio', { name: 'Check in the shipment' }).check();
    await expect(form.getByTestId('amount-in-view')).toHaveText('$3,000.00');
    await form.getByRole('textbox', { name: 'Billing Name' }).fill('Clinic Accounts');
    await form.getByRole('textbox', { name: 'Billing Email' }).fill(`accounts.${run}@clinic.example.com`);
    const checkClientId = await submitAndConfirm(page, form, 'Submit');
    await expect(page.getByText('Check to put in the shipment: $3,000.00')).toBeVisible();
    const billing = await waitForMail(`accounts.${run}@clinic.example.com`, /check of \$3,000\.00/, since);
    expect(billing.text).toContain(checkClientId);

    await page.getByRole('link', { name: 'Back to My Clients' }).click();
    await expect(page.locator(`[data-client="${cardClientId}"]`).filter({ visible: true })).toBeVisible();

    // The new clients, each in their own browser.
    const cardContext = await browser.newContext();
    const cardPage = await cardContext.newPage();
    const cardLink = await welcomeClient(cardPage, byCard.email, cardClientId, since);
    await checkLayouts(cardPage, 'welcome');
    await cardPage.getByRole('textbox', { name: 'New Password' }).fill('short');
    await cardPage.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(cardPage.getByText('Password must be at least 12 characters')).toBeVisible();
    await cardPage.getByRole('textbox', { name: 'New Password' }).fill(NEW_PASSWORD);
    await cardPage.getByRole('textbox', { name: 'Confirm Password' }).fill(NEW_PASSWORD);
    await cardPage.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(cardPage.getByRole('heading', { name: 'Client Information', level: 1 })).toBeVisible(slow);
    await cardPage.goto('/form-document/Consent-form');
    await expect(cardPage.getByRole('heading', { name: 'Client Consent Form, page 1 of 2' })).toBeVisible(
      slow,
    );
    // The link works once.
    const again = await browser.newContext();
    const againPage = await again.newPage();
    await againPage.goto(cardLink);
    await expect(againPage.getByRole('alert')).toContainText('This link has expired or was already used');
    await expect(againPage.getByRole('link', { name: 'Forgot Your Password?' })).toBeVisible();
    await checkLayouts(againPage, 'welcome-used');
    await again.close();
    await cardContext.close();

    const checkContext = await browser.newContext();
    const checkPage = await checkContext.newPage();
    await welcomeClient(checkPage, byCheck.email, checkClientId, since);
    await checkPage.getByRole('textbox', { name: 'New Password' }).fill(NEW_PASSWORD);
    await checkPage.getByRole('textbox', { name: 'Confirm Password' }).fill(NEW_PASSWORD);
    await checkPage.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(checkPage.getByRole('heading', { name: 'Client Information', level: 1 })).toBeVisible(slow);
    await checkPage.goto('/form-document/Consent-form');
    await expect(
      checkPage.getByText('Please complete Initial Processing payment to proceed with consent form.'),
    ).toBeVisible(slow);
    await checkContext.close();
  });
});
