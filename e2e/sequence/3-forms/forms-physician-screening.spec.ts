/**
 * The physician variant of the Infectious Disease Form: Dr. Alvarez (PHY20001) confirms John, her
 * client, and pays his White Glove Labs with a new card of her own that she keeps on file; his
 * card on file is never offered to her. Dr. Chen (PHY20002) can neither see nor confirm Jane.
 * John's screening is seeded undone for this journey; no journey after it needs it undone.
 */
import { expect, type Page, test } from '@playwright/test';
import { countRequests } from '../../support/forms';
import { waitForMail } from '../../support/mail';
import { expectAccessible, expectNoSidewaysScroll, signIn } from '../../support/portal';
import { testCards } from '../../support/test-numbers';

const PHYSICIAN_PASSWORD = 'DemoPhysician#2026';
const SUBMITTED = 'Please check your email for order confirmation';
const CONFIRMED = /Client Details Successfully Confirmed/;
const FAILED = 'Please enter valid client id or last name';
const phone = { width: 375, height: 740 };
const desktop = { width: 1280, height: 900 };

async function physicianSignIn(page: Page, physicianId: string) {
  await page.goto('/physician');
  await page.getByRole('textbox', { name: 'Physician ID' }).fill(physicianId);
  await page.getByRole('textbox', { name: 'Password' }).fill(PHYSICIAN_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'My Clients', level: 1 })).toBeVisible();
}

async function openScreening(page: Page) {
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Client Infectious Disease Form' })
    .click();
  await expect(page).toHaveURL(/\/infectious-disease$/);
  await expect(page.getByRole('heading', { name: 'Client Infectious Disease Form', level: 1 })).toBeVisible();
  return page.getByRole('form', { name: 'Client Infectious Disease Form' });
}

/** A phone-wide window, once the layout has settled into it (the navigation slides away). */
async function onPhone(page: Page) {
  await page.setViewportSize(phone);
  await expect
    .poll(() =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    )
    .toBeLessThanOrEqual(0);
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('Dr. Alvarez pays John’s White Glove Labs with a new card of her own, kept on her file', async ({
  page,
}) => {
  const startedAt = Date.now();
  await physicianSignIn(page, 'PHY20001');
  await page
    .locator('tr[data-client="ACT10002"]')
    .getByRole('button', { name: /^Choose/ })
    .click();
  await expect(page.getByRole('banner')).toContainText('John Roe (ACT10002)');
  const form = await openScreening(page);

  // The client acted for is filled in, but not confirmed until she says so.
  await expect(form.getByRole('radio', { name: 'Client ID and Last Name' })).toBeChecked();
  await expect(form.getByRole('textbox', { name: 'Client ID' })).toHaveValue('ACT10002');
  await expect(form.getByRole('textbox', { name: 'Client Last Name' })).toHaveValue('Roe');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Please confirm client details')).toBeVisible();
  await expect(form.getByText('Please Select', { exact: true })).toBeVisible();
  await expect(form.getByText('Please Check', { exact: true })).toBeVisible();

  // Full contact asks for all four fields, the date of birth from a picker.
  await form.getByRole('radio', { name: 'Client Full Contact Information' }).check();
  await form.getByRole('button', { name: 'Confirm Client Details' }).click();
  await expect(form.getByText('Please enter client first name')).toBeVisible();
  await expect(form.getByText('Please enter client Dob')).toBeVisible();
  await form.getByRole('radio', { name: 'Client ID and Last Name' }).check();
  await form.getByRole('textbox', { name: 'Client ID' }).fill('ACT10002');
  await form.getByRole('textbox', { name: 'Client Last Name' }).fill('Roe');
  await form.getByRole('button', { name: 'Confirm Client Details' }).click();
  await expect(form.getByText(CONFIRMED)).toContainText('John Roe (ACT10002)');

  await choose(page, 'Submission Option', 'White Glove Labs');
  await expect(form.getByRole('textbox', { name: 'First Name', exact: true })).toHaveValue('John');
  await expect(form.getByRole('textbox', { name: 'Street', exact: true })).not.toHaveAttribute('required');
  // Her own card pays: she has none on file yet, and John's Visa ending 1111 is not offered.
  await expect(form.getByRole('radio', { name: 'Credit Card', exact: true })).toBeChecked();
  await expect(form.getByRole('radio', { name: 'ACH Payment' })).toHaveCount(0);
  await expect(form.getByText('No credit card is on file. Please enter the card to use.')).toBeVisible();
  await expect(form.getByText(/1111/)).toHaveCount(0);
  // What will be charged, before it is.
  await expect(form.getByText('White Glove Labs Total: $399.00')).toBeVisible();
  await expect(form.getByText('White Glove Labs fee: $399.00')).toBeVisible();
  await expect(form.getByText('Credit card processing fee (3%): $11.97')).toBeVisible();
  await expect(form.getByText('Total charged to your card: $410.97')).toBeVisible();

  await form.getByRole('textbox', { name: 'Credit Card Number' }).fill(testCards.visa);
  await choose(page, 'Card Type', 'Visa');
  await form.getByRole('textbox', { name: 'CVV', exact: true }).fill('123');
  await choose(page, 'Expiry Month', '12');
  await choose(page, 'Expiry Year', String(new Date().getFullYear() + 3));
  await form.getByRole('textbox', { name: 'Billing First Name' }).fill('Maria');
  await form.getByRole('textbox', { name: 'Billing Last Name' }).fill('Alvarez');
  await form.getByRole('textbox', { name: 'Billing Email' }).fill('maria.alvarez@example.com');
  await form.getByRole('textbox', { name: 'Billing Street' }).fill('8950 SW 74th Court');
  await form.getByRole('textbox', { name: 'Billing City' }).fill('Miami');
  await form.getByRole('textbox', { name: 'Billing State' }).fill('FL');
  await form.getByRole('textbox', { name: 'Country', exact: true }).last().fill('United States');
  await form.getByRole('textbox', { name: 'Zip or Postal Code' }).fill('33156');
  await form.getByRole('checkbox', { name: 'Save this credit card on file for future payments' }).check();
  await form
    .getByRole('checkbox', { name: 'I agree to the Infectious Disease Terms and Conditions' })
    .check();

  await page.setViewportSize(desktop);
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/physician-screening-1280.png', fullPage: true });
  await onPhone(page);
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/physician-screening-375.png', fullPage: true });
  await page.setViewportSize(desktop);

  const calls = countRequests(page, '/api/pay/set_PhysicianDiseaseData');
  await form.getByRole('button', { name: 'Pay $410.97' }).dblclick();
  await expect(page.getByText(SUBMITTED, { exact: true })).toBeVisible();
  expect(calls()).toBe(1);
  // What was charged, after it was.
  await expect(page.getByTestId('amount-charged')).toContainText(
    'Charged $410.97 to your Visa ending in 4242',
  );
  await expect(page.getByText('Submitted for John Roe (ACT10002).')).toBeVisible();
  await onPhone(page);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/physician-screening-done-375.png', fullPage: true });
  await page.setViewportSize(desktop);

  const receipt = await waitForMail('maria.alvarez@example.com', /White Glove Labs receipt/, startedAt);
  expect(receipt.text).toContain('We charged $410.97');
  expect(receipt.text).toContain('ending in 4242');
  const johns = await waitForMail('john.roe@example.com', /infectious disease screening form/, startedAt);
  expect(johns.text).toContain('Dr. Maria Alvarez submitted your infectious disease screening form');

  await expect(page.getByRole('button', { name: 'Submit the form for another client' })).toBeVisible();
});

test('her card is on her file now, shown by its last 4 digits for her next client; John’s form is done', async ({
  page,
}) => {
  await physicianSignIn(page, 'PHY20001');
  const next = await openScreening(page);
  await next.getByRole('radio', { name: 'Client ID and Last Name' }).check();
  await next.getByRole('textbox', { name: 'Client ID' }).fill('ACT10003');
  await next.getByRole('textbox', { name: 'Client Last Name' }).fill('Lima');
  await next.getByRole('button', { name: 'Confirm Client Details' }).click();
  await expect(next.getByText(CONFIRMED)).toContainText('Ana Lima (ACT10003)');
  await expect(page.getByRole('banner')).toContainText('Ana Lima (ACT10003)');
  await choose(page, 'Submission Option', 'White Glove Labs');
  await expect(next.getByText('Visa ************4242')).toBeVisible();
  await expect(next.getByText('Name on card: Maria Alvarez')).toBeVisible();

  // John's form is done: confirming him again says so.
  await page.reload();
  const again = page.getByRole('form', { name: 'Client Infectious Disease Form' });
  await again.getByRole('textbox', { name: 'Client ID' }).fill('ACT10002');
  await again.getByRole('textbox', { name: 'Client Last Name' }).fill('Roe');
  await again.getByRole('button', { name: 'Confirm Client Details' }).click();
  await expect(again.getByText('You have already completed this form. Thank you')).toBeVisible();
});

test('with no client information choice, White Glove Labs says Please Select, the other routes Please Check', async ({
  page,
}) => {
  await physicianSignIn(page, 'PHY20002');
  const form = await openScreening(page);
  // Spec 2, section 5: no client-info choice gives "Please Check"; White Glove also requires the
  // client-info choice ("Please Select"). Below: the choice's field, its radios and its message.
  const identifyBy = form
    .locator('div')
    .filter({ has: page.getByRole('radiogroup', { name: 'Identify the client by' }) })
    .last();
  await choose(page, 'Submission Option', 'White Glove Labs');
  await form.getByRole('button', { name: /^(Submit|Pay \$)/ }).click();
  await expect(identifyBy.getByText('Please Select', { exact: true })).toBeVisible();
  await choose(page, 'Submission Option', 'Waiver Submission');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(identifyBy.getByText('Please Check', { exact: true })).toBeVisible();
});

test('Dr. Chen can neither see nor confirm Jane, another physician’s client', async ({ page }) => {
  await physicianSignIn(page, 'PHY20002');
  await expect(page.locator('tr[data-client="ACT10001"]')).toHaveCount(0);
  const form = await openScreening(page);
  await form.getByRole('radio', { name: 'Client ID and Last Name' }).check();
  await form.getByRole('textbox', { name: 'Client ID' }).fill('ACT10001');
  await form.getByRole('textbox', { name: 'Client Last Name' }).fill('Doe');
  await form.getByRole('button', { name: 'Confirm Client Details' }).click();
  await expect(form.getByRole('alert')).toHaveText(FAILED);
  await expect(form.getByRole('textbox', { name: 'Client ID' })).toHaveValue('');
  await expect(form.getByRole('textbox', { name: 'Client Last Name' })).toHaveValue('');
  await expect(page.getByRole('banner')).toContainText('No client chosen');
  await expectAccessible(page);
});

test('John, whose forms are both done now and who has a card on file, sees neither mark', async ({
  page,
}) => {
  await signIn(page, 'ACT10002');
  const nav = page.getByRole('navigation', { name: 'Portal sections' });
  await expect(nav.getByRole('link', { name: 'Consent Form' })).not.toHaveAttribute(
    'data-incomplete',
    'true',
  );
  await expect(nav.getByRole('link', { name: /Payment Information/ })).not.toHaveAttribute(
    'data-flagged',
    'true',
  );
});
