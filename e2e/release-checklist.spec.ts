import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll, signIn } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

/**
 * The release checklist (issue 22) on the Stem Cell Request Form, the staff record and the
 * physician's Cell Requests page. It only reads the demo accounts as seeded: Jane (ACT10001) has
 * not signed her consent; Omar (ACT10006) owes a year of annual storage with no method on file to
 * pay it with an order; Olivia (ACT10014) is release-ready, and her form is filled and its address
 * verified here but never sent.
 */

function checklistItem(page: Page, label: string) {
  return page
    .getByRole('list', { name: 'Release checklist' })
    .getByRole('listitem')
    .filter({ has: page.getByText(label, { exact: true }) });
}

async function shoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `test-results/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the release checklist of a client without a consent shows it missing', async ({ page }) => {
  await signIn(page, 'ACT10001');
  await page.goto('/stem-cell-request');
  await expect(page.getByRole('heading', { name: 'Stem Cell Request Form', level: 1 })).toBeVisible();
  // The spec's alert holds the request; the checklist says what else a release waits for.
  await expect(
    page.getByText('Alert! Please complete the client consent before ordering vials!!.'),
  ).toBeVisible();
  const consent = checklistItem(page, 'Consent signed');
  await expect(consent).toContainText('Missing');
  await expect(consent).toContainText('Waits for the signature on the client consent.');
  await expect(consent.getByRole('link', { name: 'Sign the client consent' })).toHaveAttribute(
    'href',
    '/form-document/Consent-form',
  );
  await expect(checklistItem(page, 'Infectious disease screening done, within its window')).toContainText(
    'Waits for the infectious disease screening.',
  );
  // Banked three years ago: ready, and past the three months after it.
  await expect(checklistItem(page, 'Cells banked and ready')).toContainText('Done');
  await expect(checklistItem(page, 'Three months since the Enrollment Date')).toContainText('Done');
  await expect(checklistItem(page, 'Annual storage paid')).toContainText(/Paid until \d{2}\/\d{2}\/\d{4}\./);
  await expect(checklistItem(page, "Practitioner's approval")).toContainText(
    'Waits for the request: the practitioner approves it once it is sent.',
  );
  await expect(page.getByRole('button', { name: /^(Submit|Pay )/ })).toHaveCount(0);
  await expectAccessible(page);
  await shoot(page, 'release-checklist-consent-missing');
  await page.setViewportSize({ width: 375, height: 800 });
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The back office reads the same checklist on Jane's record.
  await signInAsDemoAdmin(page);
  await page.goto('/staff/clients/ACT10001');
  await expect(page.getByRole('heading', { name: 'Jane Doe (ACT10001)', level: 1 })).toBeVisible();
  const onRecord = checklistItem(page, 'Consent signed');
  await expect(onRecord).toContainText('Missing');
  await expect(onRecord.getByRole('link')).toHaveCount(0);
  await expectAccessible(page);
  await shoot(page, 'release-checklist-staff');
});

test('overdue annual storage with no method on file holds the request, with where to pay it', async ({
  page,
}) => {
  await signIn(page, 'ACT10006');
  await page.goto('/stem-cell-request');
  const held = page.getByRole('alert').filter({ hasText: 'Annual storage overdue' });
  await expect(held).toContainText(
    'Your annual storage is overdue (1 year, $339.81) and must be paid before vials are released. Please pay it on the Payment Information page; it is charged when you save a card or bank account.',
  );
  await expect(held.getByRole('link', { name: 'Pay the overdue annual storage' })).toHaveAttribute(
    'href',
    '/payment-information',
  );
  const storage = checklistItem(page, 'Annual storage paid');
  await expect(storage).toContainText('Missing');
  await expect(storage).toContainText('Waits for the payment of 1 year of annual storage overdue ($339.81).');
  await expect(page.getByRole('form', { name: 'Stem Cell Request Form' })).toHaveCount(0);
  await expectAccessible(page);
  await shoot(page, 'release-checklist-storage-overdue');
});

test("the address item follows the form's own verification with FedEx, before the request is sent", async ({
  page,
}) => {
  await signIn(page, 'ACT10014');
  await page.goto('/stem-cell-request');
  await expect(page.getByRole('form', { name: 'Stem Cell Request Form' })).toBeVisible({ timeout: 30_000 });
  const address = checklistItem(page, 'Shipping address verified');
  await expect(address).toContainText('Waiting');
  await expect(address).toContainText('Waits for the shipping address: verify it with FedEx on the form.');

  const newAddress = page.getByRole('radio', { name: 'A new address' });
  if (await newAddress.count()) await newAddress.check();
  const fields: [string, string][] = [
    ['First Name', 'Maria'],
    ['Last Name', 'Alvarez'],
    ['Shipping Email', 'clinic.desk@gables.example.com'],
    ['Phone', '3055550188'],
    ['Street', '200 Alhambra Circle'],
    ['City', 'Coral Gables'],
    ['State', 'FL'],
    ['Zip Code', '33134'],
    ['Country', 'United States'],
  ];
  for (const [label, value] of fields) await page.getByRole('textbox', { name: label }).fill(value);
  await page.getByRole('button', { name: 'Verify address' }).click();
  const modal = page.getByRole('dialog', { name: 'FedEx suggests a standardized address' });
  await modal.getByRole('button', { name: 'Accept Suggestion' }).click();
  await expect(page.getByText('Address Successfully Verified')).toBeVisible();
  await expect(address).toContainText('Done');
  await expect(address).toContainText('Verified with FedEx.');
  await expect(address).not.toContainText('Waits for');
  await expectAccessible(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shoot(page, 'release-checklist-address-verified');

  // A change to the address undoes the verification: the item waits again.
  await page.getByRole('textbox', { name: 'Street' }).fill('210 Alhambra Circle');
  await expect(address).toContainText('Waits for the shipping address: verify it with FedEx on the form.');
  await expect(address).not.toContainText('Verified with FedEx.');
  await page.setViewportSize({ width: 375, height: 800 });
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 900 });
});

test("Dr. Alvarez's Cell Requests page shows the checklist of the client he acts for", async ({ page }) => {
  await page.goto('/physician');
  await page.getByRole('textbox', { name: 'Physician ID' }).fill('PHY20001');
  await page.getByRole('textbox', { name: 'Password' }).fill('DemoPhysician#2026');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/my-clients$/, { timeout: 30_000 });
  await page
    .locator('tr[data-client="ACT10001"]')
    .getByRole('button', { name: /^Choose Jane/ })
    .click();
  await expect(page.getByRole('banner')).toContainText('(ACT10001)');
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Cell Requests' })
    .click();
  await expect(page.getByRole('heading', { name: 'Cell Requests', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Release checklist', level: 2 })).toBeVisible();
  const consent = checklistItem(page, 'Consent signed');
  await expect(consent).toContainText('Missing');
  await expect(consent).toContainText('Waits for the signature on the client consent.');
  // The client's own pages are not the physician's: no links in the list.
  await expect(page.getByRole('list', { name: 'Release checklist' }).getByRole('link')).toHaveCount(0);
  await expect(checklistItem(page, 'Cells banked and ready')).toContainText('Done');
  await expect(checklistItem(page, "Practitioner's approval")).toContainText(
    'Waits for the request: the practitioner approves it once it is sent.',
  );
  await expectAccessible(page);
  await shoot(page, 'release-checklist-physician');
  await page.setViewportSize({ width: 375, height: 800 });
  await expectAccessible(page);
});
